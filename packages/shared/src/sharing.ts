/**
 * Sharing and export constants shared by the server and the web app, without zod (the
 * contracts in contracts/sharing.ts and contracts/exports.ts re-export them).
 */

/** What a share holds: health records (whole categories or single records) or documents. */
export const SHARE_KINDS = ['records', 'documents'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

/** How the recipient gets it: a link e-mailed to them (then a code e-mailed), or a QR code with a passcode. */
export const SHARE_METHODS = ['link', 'qr'] as const;
export type ShareMethod = (typeof SHARE_METHODS)[number];

/** The expiries offered; `custom` takes a date and time up to SHARE_MAX_DAYS ahead. */
export const SHARE_EXPIRIES = ['1h', '1d', '7d', '30d', 'custom'] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];
export const SHARE_EXPIRY_MS: Record<Exclude<ShareExpiry, 'custom'>, number> = {
  '1h': 3_600_000,
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};
/** The furthest expiry a patient may choose. */
export const SHARE_MAX_DAYS = 90;

/** A share's state as its patient sees it. `locked`: five wrong codes or passcodes (a new link or passcode opens it again). */
export const SHARE_STATUSES = ['active', 'expired', 'revoked', 'locked'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

/** Wrong codes or passcodes, over a share's lifetime, before it locks. */
export const SHARE_MAX_ATTEMPTS = 5;
/** The e-mailed code: six digits, valid this long. */
export const SHARE_CODE_DIGITS = 6;
export const SHARE_CODE_TTL_S = 10 * 60;
/** Codes e-mailed per share per quarter hour. */
export const SHARE_CODE_SENDS_MAX = 3;
/** The QR passcode: six digits (typed by the recipient beside the patient). */
export const SHARE_PASSCODE_DIGITS = 6;
/** A recipient's verified session lasts this long at most (and never beyond the share's expiry). */
export const SHARE_SESSION_TTL_S = 2 * 60 * 60;
/** The header that carries a recipient's session (never the URL). */
export const SHARE_SESSION_HEADER = 'x-share-session';

export const SHARE_NAME_MAX = 100;
export const SHARE_MESSAGE_MAX = 500;
/** At most this many single records or documents in one share. */
export const SHARE_ITEMS_MAX = 500;

/** A PDF export link lives this long and opens for its maker only. */
export const EXPORT_TTL_S = 15 * 60;
/** The largest FHIR bundle an import takes. */
export const FHIR_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** The largest document (a C-CDA) the FHIR conversion reads: several years of care are a few MB, and its Bundle stays under the import's limit. */
export const FHIR_CONVERT_MAX_BYTES = 10 * 1024 * 1024;

/** The web app's public recipient routes (§2), after /{clientId}/. */
export const SHARE_ROUTES = {
  linkRecords: 'sharedrecords',
  linkDocuments: 'shareddocs',
  qrRecords: 'sharedqrcoderecords',
  verifyRecords: 'health-record/recipient-verification',
  verifyDocuments: 'health-vault/health-vault-recipient-verification',
  verifyQr: 'health-record/recipient-qr-code-verification',
  records: 'sharedrecord',
  documents: 'shared-documents',
  revoked: 'share-record-link-revoked',
  revokedQr: 'share-health-record-link-revoked',
  expired: 'share-record-link-expired',
} as const;

/** The recipient's address of a share: `/{clientId}/{sharedrecords|shareddocs|sharedqrcoderecords}/{uid}/{token}`. */
export function shareLinkPath(clientId: string, kind: ShareKind, method: ShareMethod, uid: string, token: string): string {
  const segment = method === 'qr' ? SHARE_ROUTES.qrRecords : kind === 'documents' ? SHARE_ROUTES.linkDocuments : SHARE_ROUTES.linkRecords;
  return `/${clientId}/${segment}/${uid}/${token}`;
}
