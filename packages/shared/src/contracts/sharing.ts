import { z } from 'zod';
import { InsuranceCardSchema } from './insurance';
import { CATEGORY_KEYS } from '../records/categories';
import { DATE_PARTS } from '../records/medical-date';
import {
  SHARE_CODE_DIGITS,
  SHARE_EXPIRIES,
  SHARE_ITEMS_MAX,
  SHARE_KINDS,
  SHARE_MESSAGE_MAX,
  SHARE_METHODS,
  SHARE_NAME_MAX,
  SHARE_STATUSES,
} from '../sharing';
import { cleanText, isValidEmail } from '../validation';
import { IdParamSchema, IdSchema, personNameSchema } from './common';
import { requiresFields } from './round-trip';
import { DocumentSchema } from './documents';
import { instantSchema, timeZoneSchema } from './calendar';

export * from '../sharing';

/**
 * Sharing a patient's record with someone who has no account (§1, §2 "Public recipient routes"):
 * the patient's side under /api/v1/sharing/, the recipient's under /api/v1/sharing/public/.
 * The recipient's token travels in request bodies and their verified session in the
 * X-Share-Session header: never in a URL a server logs.
 */

const recipientEmail = z
  .string({ message: 'validation:emailRequired' })
  .trim()
  .min(1, { message: 'validation:emailRequired', abort: true })
  .max(254)
  .refine(isValidEmail, { message: 'validation:emailInvalid' })
  .transform((v) => v.toLowerCase());

/**
 * POST /api/v1/sharing/. `expires_at` counts only with `expires_in: "custom"`: sent without it, it
 * is refused (never the 7-day default in its place).
 */
export const CreateShareBodySchema = z
  .object({
    kind: z.enum(SHARE_KINDS).default('records'),
    categories: z.array(z.enum(CATEGORY_KEYS, { message: 'validation:categoryUnknown' })).max(CATEGORY_KEYS.length).default([]).describe('whole categories (records kind): every non-private record in them, as it is when opened'),
    record_ids: z.array(IdSchema).max(SHARE_ITEMS_MAX).default([]).describe('single records (records kind); private records are refused'),
    document_ids: z.array(IdSchema).max(SHARE_ITEMS_MAX).default([]).describe('Document Center documents (documents kind)'),
    insurance: z.boolean().default(false).describe("the patient's insurance cards (records kind): their details as they are when opened, never the photos"),
    recipient_name: personNameSchema('validation:recipientNameRequired', SHARE_NAME_MAX),
    recipient_email: recipientEmail,
    method: z.enum(SHARE_METHODS).default('link'),
    // The default is given after the check below: the check must see whether expires_in was sent.
    expires_in: z.enum(SHARE_EXPIRIES).optional().describe('custom: expires_at is the expiry (default 7d)'),
    expires_at: instantSchema.optional().describe('with expires_in custom: a moment in the future, at most 90 days ahead'),
    message: z.string().transform(cleanText).pipe(z.string().max(SHARE_MESSAGE_MAX)).optional().describe('a note for the recipient, in the e-mail'),
    language: z.enum(['en', 'el']).optional().describe("the recipient's e-mails' language (default: yours)"),
  })
  .meta({ id: 'CreateShareBody' })
  .superRefine(requiresFields([{ field: 'expires_at', requires: 'expires_in', value: 'custom' }]))
  .transform((body) => ({ ...body, expires_in: body.expires_in ?? ('7d' as const) }));
export type CreateShareBody = z.input<typeof CreateShareBodySchema>;
export type CreateShareInput = z.output<typeof CreateShareBodySchema>;

export const ShareIdParamsSchema = z.object({ id: IdParamSchema });

/** One opening of a share by its recipient (who saw my record). */
export const ShareAccessSchema = z
  .object({
    id: z.number().int(),
    opened_at: z.string(),
    action: z.enum(['verified', 'viewed', 'pdf', 'document']).describe('verified: the code or passcode was right; viewed: the content was shown; pdf: the PDF was downloaded; document: a document was opened'),
    recipient_name: z.string(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable().describe('the browser, as it named itself'),
    shown: z
      .object({
        categories: z.array(z.string()),
        records: z.number().int(),
        documents: z.number().int(),
      })
      .describe('what was shown at that opening'),
  })
  .meta({ id: 'ShareAccess' });
export type ShareAccess = z.infer<typeof ShareAccessSchema>;
export const ShareAccessListSchema = z.array(ShareAccessSchema);

/** A share as its patient sees it. */
export const ShareSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(SHARE_KINDS),
    method: z.enum(SHARE_METHODS),
    status: z.enum(SHARE_STATUSES),
    recipient_name: z.string(),
    recipient_email: z.string(),
    categories: z.array(z.string()),
    records: z.array(z.object({ id: z.number().int(), record_type: z.string(), title: z.string() })).describe('single records chosen (those since deleted are left out)'),
    documents: z.array(z.object({ id: z.number().int(), file_name: z.string() })).describe('documents chosen (those since deleted are left out)'),
    insurance: z.boolean().describe('the insurance cards are included'),
    message: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string(),
    revoked_at: z.string().nullable(),
    failed_attempts: z.number().int(),
    opened_count: z.number().int().describe('how many times the content was shown'),
    last_opened_at: z.string().nullable(),
    shared_by: z.string().nullable().optional().describe('who made the share when it was not the patient (someone of their care network); null for the patient’s own'),
  })
  .meta({ id: 'Share' });
export type Share = z.infer<typeof ShareSchema>;
export const ShareListSchema = z.array(ShareSchema);

/** POST /api/v1/sharing/ and …/{id}/reissue/: the share, with what is shown once. */
export const CreatedShareSchema = ShareSchema.extend({
  url: z.string().describe("the recipient's address (shown once: only its hash is kept)"),
  passcode: z.string().nullable().describe('QR shares: the passcode to give the recipient (shown once)'),
  smart_health_link: z
    .string()
    .nullable()
    .describe('QR shares of records: the same share as a SMART Health Link (shlink:/…, flag P: the same passcode, counted alike), for any SHL viewer; shown once'),
}).meta({ id: 'CreatedShare' });
export type CreatedShare = z.infer<typeof CreatedShareSchema>;

/** The recipient's proof: the uid and token of the address. */
const shareUid = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { message: 'validation:shareLinkInvalid' });
const shareToken = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, { message: 'validation:shareLinkInvalid' });
export const ShareLinkBodySchema = z.object({ uid: shareUid, token: shareToken }).meta({ id: 'ShareLink' });
export type ShareLinkBody = z.infer<typeof ShareLinkBodySchema>;

/** POST /api/v1/sharing/public/open/: what the recipient's page needs before the code (nothing of the record). */
export const ShareOpeningSchema = z
  .object({
    kind: z.enum(SHARE_KINDS),
    method: z.enum(SHARE_METHODS),
    organization: z.object({ name: z.string(), client_id: z.string() }),
    patient_first_name: z.string().describe('so the recipient knows whose record it is'),
    recipient_email_hint: z.string().describe('the address the code goes to, masked (j•••@example.com)'),
    expires_at: z.string(),
    attempts_left: z.number().int(),
  })
  .meta({ id: 'ShareOpening' });
export type ShareOpening = z.infer<typeof ShareOpeningSchema>;

/** 410 from the public routes: a share that was real, and is over. (Anything unknown is a plain 404.) */
export const ShareGoneSchema = z.object({ detail: z.string(), reason: z.enum(['expired', 'revoked', 'locked']) }).meta({ id: 'ShareGone' });
export type ShareGone = z.infer<typeof ShareGoneSchema>;

/** POST /api/v1/sharing/public/code/: a code e-mailed to the recipient. */
export const ShareCodeSentSchema = z.object({ sent_to: z.string(), expires_in: z.number().int().describe('seconds') });

/** POST /api/v1/sharing/public/verify/: the e-mailed code (link) or the passcode (QR). */
export const VerifyShareBodySchema = ShareLinkBodySchema.extend({
  code: z
    .string({ message: 'validation:codeRequired' })
    .trim()
    .min(1, { message: 'validation:codeRequired', abort: true })
    .regex(new RegExp(`^[0-9]{${SHARE_CODE_DIGITS}}$`), { message: 'validation:shareCodeFormat' }),
}).meta({ id: 'VerifyShareBody' });
export type VerifyShareBody = z.infer<typeof VerifyShareBodySchema>;
export const ShareSessionSchema = z
  .object({ session: z.string().describe('send it as X-Share-Session; it lasts for this browser session, at most until expires_at'), expires_at: z.string() })
  .meta({ id: 'ShareSession' });
export type ShareSession = z.infer<typeof ShareSessionSchema>;

/** One field of a shared record, ready to read (labels and values in the reader's language). */
export const SharedFieldSchema = z.object({ name: z.string(), label: z.string(), value: z.string() });
export const SharedRecordSchema = z.object({
  id: z.number().int(),
  record_type: z.string(),
  title: z.string(),
  date: z.string().nullable(),
  date_part: z.enum(DATE_PARTS).nullable(),
  fields: z.array(SharedFieldSchema).describe('every field with a value, in the category’s order'),
  attachments: z.array(z.object({ id: z.number().int(), file_name: z.string(), content_type: z.string(), size: z.number().int() })),
  updated_at: z.string(),
});
export type SharedRecord = z.infer<typeof SharedRecordSchema>;

/** An insurance card as a share shows it: the details, no photos. */
export const SharedInsuranceCardSchema = InsuranceCardSchema.pick({
  id: true,
  insurer: true,
  plan: true,
  member_number: true,
  group_number: true,
  holder_name: true,
  holder_relationship: true,
  valid_from: true,
  valid_to: true,
}).meta({ id: 'SharedInsuranceCard' });
export type SharedInsuranceCard = z.infer<typeof SharedInsuranceCardSchema>;

/** GET /api/v1/sharing/public/content/ (X-Share-Session): the shared record, live and read-only. */
export const SharedContentSchema = z
  .object({
    kind: z.enum(SHARE_KINDS),
    organization: z.object({ name: z.string(), client_id: z.string(), logo_url: z.string().nullable() }),
    patient: z.object({ first_name: z.string(), last_name: z.string(), dob: z.string().nullable() }),
    recipient_name: z.string(),
    expires_at: z.string(),
    generated_at: z.string(),
    sections: z.array(z.object({ category: z.string(), name: z.string(), records: z.array(SharedRecordSchema) })),
    documents: z.array(DocumentSchema.pick({ id: true, file_name: true, content_type: true, size: true, created_at: true })),
    insurance: z.array(SharedInsuranceCardSchema).describe('the insurance cards, when the share includes them'),
  })
  .meta({ id: 'SharedContent' });
export type SharedContent = z.infer<typeof SharedContentSchema>;
export const SharedFileParamsSchema = z.object({ id: IdParamSchema });

/** The shared PDF: its times in the reader's zone (their browser's), else the patient's. */
export const SharedPdfQuerySchema = z.object({ time_zone: timeZoneSchema.optional() });

/** POST /api/v1/shl/{uid}/{token}: a SMART Health Links manifest request (SHL spec: recipient, passcode). */
export const ShlManifestBodySchema = z
  .object({
    recipient: z.string().trim().min(1).max(200).describe('who or what is opening it, as the viewer names it'),
    passcode: z.string().max(40).optional(),
    embeddedLengthMax: z.number().int().min(0).optional(),
  })
  .meta({ id: 'ShlManifestBody' });
export type ShlManifestBody = z.infer<typeof ShlManifestBodySchema>;
export const ShlManifestSchema = z
  .object({ files: z.array(z.object({ contentType: z.string(), embedded: z.string().describe('JWE compact serialisation, alg dir, enc A256GCM, with the key of the shlink payload') })) })
  .meta({ id: 'ShlManifest' });
export const ShlPasscodeWrongSchema = z.object({ detail: z.string(), remainingAttempts: z.number().int() });
