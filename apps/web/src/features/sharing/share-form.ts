import type { CreateShareBody } from '@healthbook/shared/contracts/sharing';
import type { Language } from '@healthbook/shared/constants';
import { CATEGORY_KEYS, type CategoryKey } from '@healthbook/shared/records/categories';
import { SHARE_EXPIRY_MS, SHARE_MAX_DAYS, type ShareExpiry, type ShareKind, type ShareMethod } from '@healthbook/shared/sharing';
import { cleanText, hasLetter, isSingleLine, isValidEmail } from '@healthbook/shared/validation';

/** A single record chosen: its id and its category (the list it was picked from). */
export interface ChosenRecord {
  id: number;
  category: string;
}

/** The new-share form as the patient fills it in. */
export interface ShareFormValues {
  kind: ShareKind;
  /** Whole categories (records kind). */
  categories: string[];
  /** Single records (records kind). */
  records: ChosenRecord[];
  /** Document ids (documents kind). */
  documents: number[];
  /** The insurance cards' details (records kind; offered while the organisation has Insurance). */
  insurance: boolean;
  recipientName: string;
  recipientEmail: string;
  method: ShareMethod;
  expiresIn: ShareExpiry;
  /** The custom expiry (expiresIn 'custom'): an ISO instant, '' when none, 'invalid' when typed half-way. */
  expiresAt: string;
  message: string;
  language: Language;
}

/** What other pages ask the form to start with (?category=lab, ?record=12&category=lab, ?document=5). */
export interface SharePreselection {
  kind: ShareKind;
  categories: string[];
  records: ChosenRecord[];
  documents: number[];
  /** The category whose records the picker shows first. */
  pickCategory: string | null;
}

const isCategory = (value: string | null): value is CategoryKey => value !== null && (CATEGORY_KEYS as readonly string[]).includes(value);
const idOf = (value: string) => (/^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null);
const ids = (values: string[]) => [...new Set(values.map(idOf).filter((id): id is number => id !== null))];

/**
 * The choice a link brings: `?document=5` (documents), `?kind=documents` (documents, none chosen),
 * `?record=12&category=lab` (single records of that category), `?category=lab` (the whole
 * category). Anything not understood is left out.
 */
export function parsePreselection(params: URLSearchParams): SharePreselection {
  const documents = ids(params.getAll('document'));
  if (documents.length || params.get('kind') === 'documents') return { kind: 'documents', categories: [], records: [], documents, pickCategory: null };
  const category = params.get('category');
  const known = isCategory(category) ? category : null;
  const records = known ? ids(params.getAll('record')).map((id) => ({ id, category: known })) : [];
  if (records.length) return { kind: 'records', categories: [], records, documents: [], pickCategory: known };
  const categories = [...new Set(params.getAll('category').filter(isCategory))];
  return { kind: 'records', categories, records: [], documents: [], pickCategory: categories[0] ?? null };
}

/** The form's first values: the preselection, a week, a link, the reader's language. */
export function initialShareValues(preselection: SharePreselection, language: Language): ShareFormValues {
  return {
    kind: preselection.kind,
    categories: preselection.categories,
    records: preselection.records,
    documents: preselection.documents,
    insurance: false,
    recipientName: '',
    recipientEmail: '',
    method: 'link',
    expiresIn: '7d',
    expiresAt: '',
    message: '',
    language,
  };
}

/** The latest expiry a patient may choose, from now. */
export const latestExpiry = (now: Date = new Date()) => new Date(now.getTime() + SHARE_MAX_DAYS * 86_400_000);

/** When the share would expire if made now: a preset from now, or the custom moment (null when none is valid). */
export function expiryInstant(values: Pick<ShareFormValues, 'expiresIn' | 'expiresAt'>, now: Date = new Date()): Date | null {
  if (values.expiresIn !== 'custom') return new Date(now.getTime() + SHARE_EXPIRY_MS[values.expiresIn]);
  const at = values.expiresAt ? new Date(values.expiresAt) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

/** Why a custom expiry cannot be (a validation locale key), or null: in the future, at most 90 days ahead. */
export function checkCustomExpiry(expiresAt: string, now: Date = new Date()): string | null {
  if (!expiresAt) return 'validation:shareExpiryRequired';
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime())) return 'sharing:form.expiryInvalid';
  if (at.getTime() <= now.getTime()) return 'validation:shareExpiryPast';
  if (at.getTime() > latestExpiry(now).getTime()) return 'validation:shareExpiryTooFar';
  return null;
}

export type ShareFormErrors = Partial<Record<keyof ShareFormValues, string>>;

/**
 * The form's own rules, before anything is sent (the server checks them again): something
 * chosen, the recipient's name and e-mail, the custom expiry (lengths are held by the inputs).
 * Messages are locale keys.
 * `privateRecordIds`: records known to be private, which never count as chosen.
 */
export function checkShare(values: ShareFormValues, now: Date = new Date(), privateRecordIds: ReadonlySet<number> = new Set()): ShareFormErrors {
  const errors: ShareFormErrors = {};
  if (values.kind === 'records') {
    if (values.categories.length === 0 && values.records.filter((r) => !privateRecordIds.has(r.id)).length === 0 && !values.insurance) errors.categories = 'validation:shareNothingChosen';
  } else if (values.documents.length === 0) errors.documents = 'validation:shareNothingChosen';

  const name = cleanText(values.recipientName);
  if (!name) errors.recipientName = 'validation:recipientNameRequired';
  else if (!isSingleLine(name)) errors.recipientName = 'validation:textControlCharacters';
  else if (!hasLetter(name)) errors.recipientName = 'validation:nameNeedsLetter';

  const email = values.recipientEmail.trim();
  if (!email) errors.recipientEmail = 'validation:emailRequired';
  else if (!isValidEmail(email)) errors.recipientEmail = 'validation:emailInvalid';

  if (values.expiresIn === 'custom') {
    const problem = checkCustomExpiry(values.expiresAt, now);
    if (problem) errors.expiresAt = problem;
  }
  return errors;
}

/**
 * The body of POST /api/v1/sharing/: only what the kind holds (records of a category chosen whole
 * are in it already; private records never go), the custom expiry as an ISO instant.
 */
export function shareBody(values: ShareFormValues, privateRecordIds: ReadonlySet<number> = new Set()): CreateShareBody {
  const records = values.kind === 'records';
  // The message goes with the link's e-mail: a QR share sends none.
  const message = values.method === 'link' ? cleanText(values.message) : '';
  return {
    kind: values.kind,
    categories: records ? values.categories.filter(isCategory) : [],
    record_ids: records ? values.records.filter((r) => !values.categories.includes(r.category) && !privateRecordIds.has(r.id)).map((r) => r.id) : [],
    document_ids: records ? [] : values.documents,
    insurance: records && values.insurance,
    recipient_name: cleanText(values.recipientName),
    recipient_email: values.recipientEmail.trim(),
    method: values.method,
    expires_in: values.expiresIn,
    ...(values.expiresIn === 'custom' ? { expires_at: new Date(values.expiresAt).toISOString() } : {}),
    ...(message ? { message } : {}),
    language: values.language,
  };
}

/** The server's field names onto the form's. */
export const SHARE_SERVER_FIELDS = {
  kind: 'categories',
  categories: 'categories',
  record_ids: 'categories',
  document_ids: 'documents',
  insurance: 'categories',
  recipient_name: 'recipientName',
  recipient_email: 'recipientEmail',
  method: 'method',
  expires_in: 'expiresIn',
  expires_at: 'expiresAt',
  message: 'message',
  language: 'language',
} as const satisfies Record<string, keyof ShareFormValues>;
