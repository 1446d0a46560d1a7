import {
  CATEGORIES,
  CATEGORY_KEYS,
  SHARE_CODE_DIGITS,
  SHARE_CODE_TTL_S,
  SHARE_EXPIRY_MS,
  SHARE_MAX_ATTEMPTS,
  SHARE_MAX_DAYS,
  SHARE_PASSCODE_DIGITS,
  SHARE_SESSION_TTL_S,
  firstZone,
  formatMoment,
  formatRecordTitle,
  readableFields,
  shareLinkPath,
  translate,
  zoneOf,
  type CategoryDefinition,
  type CreateShareInput,
  type CreatedShare,
  type Language,
  type Share,
  type ShareAccess,
  type ShareLinkBody,
  type ShareOpening,
  type ShareSession,
  type ShlManifestBody,
  type SharedContent,
  type VerifyShareBody,
} from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { hkdfSync } from 'node:crypto';
import { CompactEncrypt } from 'jose';
import { randomDigits, randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { defang, recipientLanguage, renderMail, type MailKind } from '../../lib/mail-templates';
import { servicePlugin } from '../../lib/service-plugin';
import type { BackgroundMail } from '../../plugins/mail';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { DocumentsRepository, type DocumentRow } from '../documents/documents.repository';
import { presentCardDetails } from '../insurance/insurance.presenter';
import { InsuranceRepository, type InsuranceCardRow } from '../insurance/insurance.repository';
import { readLogo } from '../export/export.service';
import { assertNoPdfInProgress, renderPdf } from '../export/pdf-render';
import type { FhirService } from '../fhir/fhir.service';
import type { AttemptLimiter } from '../limits/limits.service';
import { assetUrl } from '../organizations/organizations.presenter';
import { OrganizationsRepository, type OrganizationRow } from '../organizations/organizations.repository';
import { PatientsRepository, type PatientRow } from '../patients/patients.repository';
import { type PatientsService } from '../patients/patients.service';
import { PatientScope } from '../patients/patient-scope';
import { RecordsRepository, type RecordRow } from '../records/records.repository';
import { titleOf } from '../records/records.service';
import { PublicSharesRepository, SharesRepository, shareStatus, type ShareRow } from './shares.repository';

/** A minute's grace on "at most 90 days ahead": the form's choice of the last allowed minute is not refused for the seconds it took to send. */
const EXPIRY_GRACE_MS = 60_000;

/** What a share shows at one opening, read live: private records and their attachments never. */
export interface SharedSelection {
  share: ShareRow;
  organization: OrganizationRow;
  patient: PatientRow;
  /** The recipient's scope of the patient's data: what the share names, never a private row. */
  scope: PatientScope;
  sections: Array<{ category: CategoryDefinition; records: RecordRow[] }>;
  documents: DocumentRow[];
  /** The patient's insurance cards, when the share includes them. */
  insurance: InsuranceCardRow[];
}

/** j•••@example.com: enough for the recipient to know where the code goes, nothing more for anyone else. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

/** A code or passcode is kept hashed with the address's token, which is not stored. */
const secretHash = (token: string, secret: string) => sha256(`${token}:${secret}`);

/** A SMART Health Link's key, derived from the address's token (never stored: the server can make it again only when given the token). */
const shlKey = (uid: string, token: string) => new Uint8Array(hkdfSync('sha256', Buffer.from(token, 'base64url'), uid, 'healthbook smart health link', 32));

/**
 * Sharing a patient's record with someone who has no account (§1, §2 "Public recipient
 * routes"). The patient chooses what, with whom, how and until when; the recipient proves the
 * address (a 256-bit token) and a code e-mailed to them or the passcode of a QR code, and gets a
 * session for their browser. The content is read live at each opening through the patient's
 * scope, never with private records; every opening is kept (who saw my record) and audited.
 */
export class SharingService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly limiter: AttemptLimiter,
    private readonly mail: BackgroundMail,
    private readonly storage: Storage,
    private readonly fhir: FhirService,
    private readonly publicUrl: string,
  ) {}

  // ---- The patient's side ----

  async create(ctx: SignedInContext, body: CreateShareInput, patientId?: number): Promise<CreatedShare> {
    const grant = await this.patients.open(ctx, 'shares', patientId, 'write');
    const expiresAt = this.expiryOf(body);
    await this.checkChoice(grant, body);
    await this.takeShareAllowance(ctx, grant.patient.id);
    const secrets = this.newSecrets(body.method);
    const organization = await this.organization(grant.patient.org_id);
    const row = await new SharesRepository(this.db, grant).insert({
      created_by: ctx.actor.userId,
      uid: secrets.uid,
      token_hash: sha256(secrets.token),
      kind: body.kind,
      method: body.method,
      recipient_name: body.recipient_name,
      recipient_email: body.recipient_email,
      language: body.language ?? ctx.lang,
      message: body.message?.trim() ? body.message.trim() : null,
      categories: body.kind === 'records' ? [...new Set(body.categories)] : [],
      record_ids: body.kind === 'records' ? [...new Set(body.record_ids)] : [],
      document_ids: body.kind === 'documents' ? [...new Set(body.document_ids)] : [],
      include_insurance: body.kind === 'records' && body.insurance,
      passcode_hash: secrets.passcode ? secretHash(secrets.token, secrets.passcode) : null,
      expires_at: expiresAt,
    });
    const url = this.addressOf(organization, row, secrets.token);
    if (row.method === 'link') await this.mailRecipient('shareLink', row, grant.patient, { link: url });
    await this.audit.record(ctx, { action: 'share_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { share: row.id, method: row.method, kind: row.kind } });
    const [share] = await this.present(grant, ctx.lang, row.id);
    return { ...share!, url, passcode: secrets.passcode, smart_health_link: this.smartHealthLink(row, secrets.token, grant.patient) };
  }

  async list(ctx: SignedInContext, patientId?: number): Promise<Share[]> {
    const grant = await this.patients.open(ctx, 'shares', patientId);
    const shares = await this.present(grant, ctx.lang);
    if (!grant.isOwner) await this.audit.record(ctx, { action: 'share_list', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { shares: shares.length } });
    return shares;
  }

  async get(ctx: SignedInContext, id: number, patientId?: number): Promise<Share> {
    const grant = await this.patients.open(ctx, 'shares', patientId);
    const [share] = await this.present(grant, ctx.lang, id);
    if (!share) throw notFound();
    if (!grant.isOwner) await this.audit.record(ctx, { action: 'share_list', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { share: id } });
    return share;
  }

  async accesses(ctx: SignedInContext, id: number, patientId?: number): Promise<ShareAccess[]> {
    const grant = await this.patients.open(ctx, 'shares', patientId);
    const [share] = await this.present(grant, ctx.lang, id);
    if (!share) throw notFound();
    await grant.auditRead(ctx, { share: id, accesses: 1 });
    const rows = await new SharesRepository(this.db, grant).accesses(id);
    return rows.map((a) => ({
      id: Number(a.id),
      opened_at: new Date(a.opened_at).toISOString(),
      action: a.action,
      recipient_name: share.recipient_name,
      ip: a.ip,
      user_agent: a.user_agent,
      shown: { categories: a.shown.categories ?? [], records: a.shown.records ?? 0, documents: a.shown.documents ?? 0 },
    }));
  }

  async revoke(ctx: SignedInContext, id: number, patientId?: number): Promise<Share> {
    const grant = await this.patients.open(ctx, 'shares', patientId, 'write');
    if (!(await new SharesRepository(this.db, grant).revoke(id))) throw notFound();
    await this.audit.record(ctx, { action: 'share_revoke', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { share: id } });
    const [share] = await this.present(grant, ctx.lang, id);
    return share!;
  }

  /** A new address (and passcode): what opens a locked share again, or replaces a lost link. */
  async reissue(ctx: SignedInContext, id: number, patientId?: number): Promise<CreatedShare> {
    const grant = await this.patients.open(ctx, 'shares', patientId, 'write');
    const repo = new SharesRepository(this.db, grant);
    const [current] = await repo.listForPatient(id);
    if (!current) throw notFound();
    await this.takeShareAllowance(ctx, grant.patient.id);
    const secrets = this.newSecrets(current.method);
    const row = await repo.reissue(id, {
      uid: secrets.uid,
      token_hash: sha256(secrets.token),
      passcode_hash: secrets.passcode ? secretHash(secrets.token, secrets.passcode) : null,
    });
    if (!row) throw new HttpError(400, 'errors:shareNotLive');
    const url = this.addressOf(await this.organization(row.org_id), row, secrets.token);
    if (row.method === 'link') await this.mailRecipient('shareLink', row, grant.patient, { link: url });
    await this.audit.record(ctx, { action: 'share_reissue', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { share: id } });
    const [share] = await this.present(grant, ctx.lang, id);
    return { ...share!, url, passcode: secrets.passcode, smart_health_link: this.smartHealthLink(row, secrets.token, grant.patient) };
  }

  // ---- The recipient's side ----

  /** What the verification page shows: whose record, where the code goes; nothing of the record. */
  async open(link: ShareLinkBody): Promise<ShareOpening> {
    const share = await this.liveShare(link);
    const [organization, patient] = await Promise.all([this.organization(share.org_id), this.patientOf(share)]);
    return {
      kind: share.kind,
      method: share.method,
      organization: { name: organization.org_name, client_id: organization.name },
      patient_first_name: patient.first_name,
      recipient_email_hint: maskEmail(share.recipient_email),
      expires_at: new Date(share.expires_at).toISOString(),
      attempts_left: SHARE_MAX_ATTEMPTS - share.failed_attempts,
    };
  }

  /** E-mails a six-digit code to the recipient's address (link shares), a few times a quarter hour at most. */
  async sendCode(link: ShareLinkBody): Promise<{ sent_to: string; expires_in: number }> {
    const share = await this.liveShare(link);
    if (share.method !== 'link') throw new HttpError(400, 'errors:shareNoCode');
    const attempt = await this.limiter.take('shareCode', String(share.id));
    if (!attempt.allowed) throw new HttpError(429, 'errors:shareCodeTooOften', {}, { 'Retry-After': String(attempt.retryAfterS) });
    const code = randomDigits(SHARE_CODE_DIGITS);
    await new PublicSharesRepository(this.db).setCode(share.id, secretHash(link.token, code), new Date(Date.now() + SHARE_CODE_TTL_S * 1000));
    const patient = await this.patientOf(share);
    await this.mailRecipient('shareCode', share, patient, { code, minutes: SHARE_CODE_TTL_S / 60 });
    return { sent_to: maskEmail(share.recipient_email), expires_in: SHARE_CODE_TTL_S };
  }

  /**
   * Checks the e-mailed code (link) or the passcode (QR). The try is counted before the check,
   * atomically, so parallel guesses get no more checks than the tries left; a right code gives
   * its try back. The fifth wrong one locks the share (and its patient is told).
   */
  async verify(ctx: ServiceContext, body: VerifyShareBody, userAgent: string | null): Promise<ShareSession> {
    const share = await this.liveShare(body);
    const repo = new PublicSharesRepository(this.db);
    const used = await repo.takeAttempt(share.id);
    if (used === null) throw gone('locked');
    const hash = secretHash(body.token, body.code);
    const right = share.method === 'link' ? await repo.consumeCode(share.id, hash) : !!share.passcode_hash && safeEqual(hash, share.passcode_hash);
    if (!right) {
      const left = SHARE_MAX_ATTEMPTS - used;
      await this.audit.record(ctx, { action: 'share_verify', outcome: 'denied', orgId: share.org_id, subject: `patient:${share.patient_id}`, detail: { share: share.id, left } });
      if (left <= 0) {
        this.mailPatient('shareLocked', share, {});
        throw gone('locked');
      }
      throw new FieldError({ code: [{ key: 'errors:shareCodeWrong', vars: { count: left } }] });
    }
    await repo.giveBackAttempt(share.id);
    const token = randomToken(32);
    const expiresAt = new Date(Math.min(Date.now() + SHARE_SESSION_TTL_S * 1000, new Date(share.expires_at).getTime()));
    const session = await repo.createSession(share.id, sha256(token), expiresAt);
    await repo.logAccess({ share_id: share.id, session_id: session.id, action: 'verified', ip: ctx.ip, user_agent: userAgent, shown: { categories: [], records: 0, documents: 0 } });
    await this.audit.record(ctx, { action: 'share_verify', outcome: 'success', orgId: share.org_id, subject: `patient:${share.patient_id}`, detail: { share: share.id } });
    return { session: token, expires_at: expiresAt.toISOString() };
  }

  /** The shared content as the recipient reads it (labels and values in their language). */
  async content(ctx: ServiceContext, sessionToken: string | undefined, userAgent: string | null): Promise<SharedContent> {
    const { selection, sessionId } = await this.opened(sessionToken);
    await this.logOpening(ctx, selection, sessionId, 'viewed', userAgent);
    return this.presentContent(selection, ctx.lang);
  }

  /** A shared document, or an attachment of a shared record that is shown. */
  async file(ctx: ServiceContext, sessionToken: string | undefined, id: number, userAgent: string | null): Promise<{ data: Buffer; content_type: string; file_name: string }> {
    const { selection, sessionId } = await this.opened(sessionToken);
    const shown = new Set<number>([...selection.documents.map((d) => d.id), ...selection.sections.flatMap((s) => s.records.flatMap((r) => r.attachments.map((a) => a.id)))]);
    if (!shown.has(id)) throw notFound();
    const document = await new DocumentsRepository(this.db, selection.scope).get(id);
    if (!document) throw notFound();
    const data = await this.storage.get(document.storage_key);
    if (!data) throw notFound();
    const repo = new PublicSharesRepository(this.db);
    await repo.logAccess({ share_id: selection.share.id, session_id: sessionId, action: 'document', ip: ctx.ip, user_agent: userAgent, shown: { categories: [], records: 0, documents: 1 } });
    await this.audit.record(ctx, { action: 'share_read', outcome: 'success', orgId: selection.share.org_id, subject: `patient:${selection.share.patient_id}`, detail: { share: selection.share.id, document: id } });
    return { data, content_type: document.content_type, file_name: document.file_name };
  }

  /** The shared content as a PDF (the same as the export's), its opening logged as a download. */
  async pdf(ctx: ServiceContext, sessionToken: string | undefined, userAgent: string | null, readerZone?: string): Promise<Buffer> {
    const { selection, sessionId } = await this.opened(sessionToken);
    assertNoPdfInProgress(selection.share.patient_id);
    await this.logOpening(ctx, selection, sessionId, 'pdf', userAgent);
    const { share, organization, patient } = selection;
    // The recipient's zone (their browser's, as their page shows times), else the patient's.
    const timeZone = firstZone(readerZone, patient.time_zone);
    return renderPdf(selection.share.patient_id, {
      lang: ctx.lang,
      timeZone,
      generatedAt: new Date(),
      organization: { name: organization.org_name, logo: await readLogo(this.storage, organization, ctx.log) },
      patient: { first_name: patient.first_name, last_name: patient.last_name, dob: patient.dob },
      sections: selection.sections,
      insurance: selection.insurance.map(presentCardDetails),
      note: translate(ctx.lang, 'records:sharedPdfNote', { recipient: share.recipient_name, expires: formatMoment(share.expires_at, ctx.lang, timeZone) }),
    });
  }

  /**
   * A SMART Health Links manifest (flag P): the passcode is the QR share's, counted against the
   * same five tries; the content is the shared records, live, as a FHIR R4 Bundle encrypted for
   * the link's key (JWE, dir + A256GCM). Anything not live is 404, as the SHL rules ask.
   */
  async shlManifest(ctx: ServiceContext, link: ShareLinkBody, body: ShlManifestBody): Promise<{ files: Array<{ contentType: string; embedded: string }> }> {
    let share: ShareRow;
    try {
      share = await this.liveShare(link);
    } catch {
      throw new HttpError(404, 'errors:shareUnavailable');
    }
    if (share.method !== 'qr' || share.kind !== 'records' || !share.passcode_hash) throw new HttpError(404, 'errors:shareUnavailable');
    const repo = new PublicSharesRepository(this.db);
    const used = await repo.takeAttempt(share.id);
    if (used === null) throw new HttpError(404, 'errors:shareUnavailable');
    if (!body.passcode || !safeEqual(secretHash(link.token, body.passcode), share.passcode_hash)) {
      const left = SHARE_MAX_ATTEMPTS - used;
      await this.audit.record(ctx, { action: 'share_verify', outcome: 'denied', orgId: share.org_id, subject: `patient:${share.patient_id}`, detail: { share: share.id, left, shl: 1 } });
      if (left <= 0) this.mailPatient('shareLocked', share, {});
      throw new HttpError(401, 'errors:shareCodeWrong', { count: left }, {}, { remainingAttempts: left });
    }
    await repo.giveBackAttempt(share.id);
    const selection = await this.select(share);
    const rows = selection.sections.flatMap((s) => s.records);
    const bundle = await this.fhir.bundleOf(selection.scope, rows, ctx.lang);
    const userAgent = `SMART Health Link: ${body.recipient}`.slice(0, 300);
    await this.logOpening(ctx, selection, null, 'viewed', userAgent);
    const embedded = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(bundle)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' })
      .encrypt(shlKey(link.uid, link.token));
    return { files: [{ contentType: 'application/fhir+json', embedded }] };
  }

  /** The shlink:/ payload of a QR share of records (SMART Health Links: url, key, exp, flag P, label, v 1). */
  private smartHealthLink(share: ShareRow, token: string, patient: PatientRow): string | null {
    if (share.method !== 'qr' || share.kind !== 'records') return null;
    const payload = {
      url: new URL(`/api/v1/shl/${share.uid}/${token}`, this.publicUrl).toString(),
      key: Buffer.from(shlKey(share.uid, token)).toString('base64url'),
      exp: Math.floor(new Date(share.expires_at).getTime() / 1000),
      flag: 'P',
      label: translate(share.language === 'el' ? 'el' : 'en', 'records:shlLabel', { name: `${patient.first_name} ${patient.last_name}`.trim() }).slice(0, 80),
      v: 1,
    };
    return `shlink:/${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  }

  // ---- Inside ----

  private expiryOf(body: CreateShareInput): Date {
    const now = Date.now();
    if (body.expires_in !== 'custom') return new Date(now + SHARE_EXPIRY_MS[body.expires_in]);
    if (!body.expires_at) throw new FieldError({ expires_at: ['validation:shareExpiryRequired'] });
    const at = new Date(body.expires_at);
    if (at.getTime() <= now) throw new FieldError({ expires_at: ['validation:shareExpiryPast'] });
    if (at.getTime() > now + SHARE_MAX_DAYS * 86_400_000 + EXPIRY_GRACE_MS) throw new FieldError({ expires_at: ['validation:shareExpiryTooFar'] });
    return at;
  }

  /** What is chosen must be there, the patient's, and not private. */
  private async checkChoice(grant: PatientScope, body: CreateShareInput): Promise<void> {
    const scope = grant;
    if (body.kind === 'records') {
      if (body.document_ids.length > 0) throw new FieldError({ document_ids: ['validation:shareKindMismatch'] });
      if (body.categories.length === 0 && body.record_ids.length === 0 && !body.insurance) throw new FieldError({ non_field_errors: ['validation:shareNothingChosen'] });
      // A grant limited to some categories shares no other (a share of a category is every record of it).
      const outside = body.categories.find((c) => !grant.reaches(c));
      if (outside) throw new FieldError({ categories: [{ key: 'validation:invalidChoice', vars: { value: outside } }] });
      if (body.record_ids.length > 0) {
        const ids = [...new Set(body.record_ids)];
        const found = await new RecordsRepository(this.db, scope.withoutPrivate()).listMany({ categories: CATEGORY_KEYS, ids });
        if (found.length !== ids.length) throw new FieldError({ record_ids: ['validation:shareRecordUnavailable'] });
      }
      return;
    }
    if (body.categories.length > 0 || body.record_ids.length > 0) throw new FieldError({ categories: ['validation:shareKindMismatch'] });
    if (body.insurance) throw new FieldError({ insurance: ['validation:shareKindMismatch'] });
    if (body.document_ids.length === 0) throw new FieldError({ non_field_errors: ['validation:shareNothingChosen'] });
    const ids = [...new Set(body.document_ids)];
    const found = await new DocumentsRepository(this.db, scope.withoutPrivate()).listByIds(ids);
    if (found.length !== ids.length) throw new FieldError({ document_ids: ['validation:shareDocumentUnavailable'] });
  }

  /**
   * A share (or a new address for one) counts against the patient's hourly and daily allowance,
   * whoever acts for them; counted atomically, so parallel requests get exactly the allowance.
   */
  private async takeShareAllowance(ctx: SignedInContext, patientId: number): Promise<void> {
    const taken = await this.limiter.takeEach(['sharesHour', 'sharesDay'], String(patientId));
    if (taken.allowed) return;
    await this.audit.record(ctx, { action: 'share_create', outcome: 'denied', subject: `patient:${patientId}`, detail: { reason: 'too_often', limit: taken.name } });
    const [value, unit] = taken.retryAfterS <= 3600 ? [Math.ceil(taken.retryAfterS / 60), 'minute'] : [Math.ceil(taken.retryAfterS / 3600), 'hour'];
    const wait = new Intl.NumberFormat(ctx.lang === 'el' ? 'el-GR' : 'en-GB', { style: 'unit', unit, unitDisplay: 'long' }).format(value);
    throw new HttpError(429, 'errors:sharesTooOften', { wait }, { 'Retry-After': String(taken.retryAfterS) });
  }

  private newSecrets(method: ShareRow['method']) {
    return { uid: randomToken(12), token: randomToken(32), passcode: method === 'qr' ? randomDigits(SHARE_PASSCODE_DIGITS) : null };
  }

  private addressOf(organization: OrganizationRow, share: ShareRow, token: string): string {
    return new URL(shareLinkPath(organization.name, share.kind, share.method, share.uid, token), this.publicUrl).toString();
  }

  /** The share's organisation; while it is deactivated its links answer as unavailable (404), as an unknown link does. */
  private async organization(orgId: number): Promise<OrganizationRow> {
    const organization = await new OrganizationsRepository(this.db).findById(orgId);
    if (!organization || organization.deactivated_at) throw new HttpError(404, 'errors:shareUnavailable');
    return organization;
  }

  private async patientOf(share: ShareRow): Promise<PatientRow> {
    const patient = await new PatientsRepository(this.db, orgScope(share.org_id)).findById(share.patient_id);
    if (!patient) throw notFound();
    return patient;
  }

  /** The share an address names, if the token is right and it is live; 404 alike for anything unknown, 410 for a share that is over. */
  private async liveShare(link: ShareLinkBody): Promise<ShareRow> {
    const shares = new PublicSharesRepository(this.db);
    const share = await shares.byUid(link.uid);
    if (!share) {
      // A share erased with its patient's closed account answers as a revoked one.
      const erased = await shares.erasedTokenHash(link.uid);
      if (erased && safeEqual(sha256(link.token), erased)) throw gone('revoked');
    }
    if (!share || !safeEqual(sha256(link.token), share.token_hash)) throw new HttpError(404, 'errors:shareUnavailable');
    await this.organization(share.org_id);
    const status = shareStatus(share);
    if (status !== 'active') throw gone(status);
    return share;
  }

  /** The share of a recipient's session, still live, and what it shows now. */
  private async opened(sessionToken: string | undefined): Promise<{ selection: SharedSelection; sessionId: string }> {
    const found = sessionToken && /^[A-Za-z0-9_-]{16,128}$/.test(sessionToken) ? await new PublicSharesRepository(this.db).session(sha256(sessionToken)) : undefined;
    if (!found) throw new HttpError(401, 'errors:shareSessionEnded');
    const { session_id: sessionId, ...share } = found;
    const status = shareStatus(share);
    // A locked share keeps the sessions already opened (only guessing is stopped).
    if (status === 'revoked' || status === 'expired') throw gone(status);
    return { selection: await this.select(share), sessionId };
  }

  /** What a share shows now: its records (never private ones) or its documents (never a private record's). */
  async select(share: ShareRow): Promise<SharedSelection> {
    const [organization, patient] = await Promise.all([this.organization(share.org_id), this.patientOf(share)]);
    // A verified recipient's door: the share's own scope, read-only, never a private row.
    const scope = new PatientScope({ patient, access: 'recipient', area: share.kind === 'documents' ? 'documents' : 'records', categories: null, includePrivate: false, grantId: null, audit: this.audit });
    if (share.kind === 'documents') {
      const documents = await new DocumentsRepository(this.db, scope).listByIds(share.document_ids);
      return { share, organization, patient, scope, sections: [], documents, insurance: [] };
    }
    const repo = new RecordsRepository(this.db, scope);
    const [whole, single, insurance] = await Promise.all([
      repo.listMany({ categories: share.categories }),
      repo.listMany({ categories: CATEGORY_KEYS, ids: share.record_ids }),
      share.include_insurance ? new InsuranceRepository(this.db, scope).list() : Promise.resolve([]),
    ]);
    const byId = new Map<number, RecordRow>();
    for (const row of [...whole, ...single]) byId.set(row.id, row);
    const rows = [...byId.values()];
    const sections = CATEGORIES.map((category) => ({ category: category as CategoryDefinition, records: rows.filter((r) => r.category === category.key) })).filter((s) => s.records.length > 0);
    return { share, organization, patient, scope, sections, documents: [], insurance };
  }

  private async logOpening(ctx: ServiceContext, selection: SharedSelection, sessionId: string | null, action: 'viewed' | 'pdf', userAgent: string | null): Promise<void> {
    const { share } = selection;
    const shown = {
      categories: selection.sections.map((s) => s.category.key),
      records: selection.sections.reduce((n, s) => n + s.records.length, 0),
      documents: selection.documents.length,
      insurance: selection.insurance.length,
    };
    const repo = new PublicSharesRepository(this.db);
    await repo.logAccess({ share_id: share.id, session_id: sessionId, action, ip: ctx.ip, user_agent: userAgent, shown });
    await this.audit.record(ctx, { action: 'share_read', outcome: 'success', orgId: share.org_id, subject: `patient:${share.patient_id}`, detail: { share: share.id, what: action, records: shown.records, documents: shown.documents } });
    if (action === 'viewed' && (await repo.markFirstOpened(share.id))) this.mailPatient('shareOpened', share, {});
  }

  private presentContent(selection: SharedSelection, lang: Language): SharedContent {
    const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
    const { share, organization, patient } = selection;
    return {
      kind: share.kind,
      organization: { name: organization.org_name, client_id: organization.name, logo_url: assetUrl(organization, 'logo') },
      patient: { first_name: patient.first_name, last_name: patient.last_name, dob: patient.dob },
      recipient_name: share.recipient_name,
      expires_at: new Date(share.expires_at).toISOString(),
      generated_at: new Date().toISOString(),
      sections: selection.sections.map(({ category, records }) => ({
        category: category.key,
        name: t(`records:categories.${category.key}.other`),
        records: records.map((row) => {
          const values = { ...row.data };
          const dateField = category.dateField;
          return {
            id: row.id,
            record_type: row.category,
            title: formatRecordTitle(t, lang, category, values),
            date: dateField ? ((values[dateField] as string | null | undefined) ?? null) : null,
            date_part: dateField ? ((values[`${dateField}_part`] as 'day' | 'month' | 'year' | 'past' | null | undefined) ?? (values[dateField] ? 'day' : null)) : null,
            fields: readableFields(t, lang, category, values),
            attachments: row.attachments.map((a) => ({ id: a.id, file_name: a.file_name, content_type: a.content_type, size: a.size })),
            updated_at: row.updated_at,
          };
        }),
      })),
      documents: selection.documents.map((d) => ({ id: d.id, file_name: d.file_name, content_type: d.content_type, size: d.size, created_at: new Date(d.created_at).toISOString() })),
      insurance: selection.insurance.map(presentCardDetails),
    };
  }

  /** The patient's shares (or one), presented with the titles of the records and names of the documents chosen. */
  private async present(grant: PatientScope, lang: Language, id?: number): Promise<Share[]> {
    const scope = grant;
    const rows = await new SharesRepository(this.db, grant).listForPatient(id);
    const recordIds = [...new Set(rows.flatMap((r) => r.record_ids))];
    const documentIds = [...new Set(rows.flatMap((r) => r.document_ids))];
    const [records, documents] = await Promise.all([
      new RecordsRepository(this.db, scope).listMany({ categories: CATEGORY_KEYS, ids: recordIds }),
      new DocumentsRepository(this.db, scope).listByIds(documentIds),
    ]);
    const recordById = new Map(records.map((r) => [r.id, r]));
    const documentById = new Map(documents.map((d) => [d.id, d]));
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      method: row.method,
      status: shareStatus(row),
      recipient_name: row.recipient_name,
      recipient_email: row.recipient_email,
      categories: row.categories,
      records: row.record_ids.flatMap((rid) => {
        const record = recordById.get(rid);
        const category = record ? CATEGORIES.find((c) => c.key === record.category) : undefined;
        return record && category ? [{ id: rid, record_type: record.category, title: titleOf(category as CategoryDefinition, record.data, lang) }] : [];
      }),
      documents: row.document_ids.flatMap((did) => {
        const document = documentById.get(did);
        return document ? [{ id: did, file_name: document.file_name }] : [];
      }),
      insurance: row.include_insurance,
      message: row.message,
      created_at: new Date(row.created_at).toISOString(),
      expires_at: new Date(row.expires_at).toISOString(),
      revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
      failed_attempts: row.failed_attempts,
      opened_count: Number(row.opened_count ?? 0),
      last_opened_at: row.last_opened_at ? new Date(row.last_opened_at).toISOString() : null,
      shared_by: row.shared_by ?? null,
    }));
  }

  /**
   * Mails the recipient, from the organisation: its name signs the mail. The patient's message
   * goes with the link, quoted as theirs (defanged: nothing in it is a link).
   */
  private async mailRecipient(kind: MailKind, share: ShareRow, patient: PatientRow, vars: Record<string, string | number>): Promise<void> {
    const lang = (share.language === 'el' ? 'el' : 'en') as Language;
    // The recipient has no account here: their times are the patient's (who shares with someone they see).
    const timeZone = firstZone(patient.time_zone);
    const organization = await this.organization(share.org_id);
    const patientName = defang(`${patient.first_name} ${patient.last_name}`.trim());
    const mailVars = { name: defang(share.recipient_name), recipient: defang(share.recipient_name), patient: patientName, orgName: organization.org_name, expires: formatMoment(share.expires_at, lang, timeZone), ...vars };
    const quote = kind === 'shareLink' && share.message ? { intro: translate(lang, 'emails:shareNote', mailVars), text: share.message } : undefined;
    this.mail.send(renderMail(kind, lang, share.recipient_email, mailVars, { quote }), { share: share.id });
  }

  /** Tells the patient (their account's address and language) about their share. */
  private mailPatient(kind: MailKind, share: ShareRow, vars: Record<string, string | number>): void {
    void (async () => {
      const user = await new PublicSharesRepository(this.db).patientContact(share);
      if (!user?.email) return;
      const lang = recipientLanguage(user.settings, 'en');
      this.mail.send(renderMail(kind, lang, user.email, { name: user.first_name ?? '', orgName: user.org_name, recipient: share.recipient_name, when: formatMoment(new Date(), lang, zoneOf(user.settings)), link: new URL(`/${user.client_id}/sharing/${share.id}`, this.publicUrl).toString(), ...vars }), { share: share.id });
    })().catch(() => undefined);
  }
}

const gone = (reason: 'expired' | 'revoked' | 'locked') => new HttpError(410, `errors:share${reason[0]!.toUpperCase()}${reason.slice(1)}`, {}, {}, { reason });

declare module 'fastify' {
  interface FastifyInstance {
    sharing: SharingService;
  }
}

export default servicePlugin<'sharing', { publicUrl: string }>('sharing', ['db', 'patients-service', 'audit-service', 'limiter-service', 'mail', 'storage', 'fhir-service'], (app, opts) =>
  new SharingService(app.db, app.patients, app.audit, app.limiter, app.backgroundMail, app.storage, app.fhir, opts.publicUrl),
);
