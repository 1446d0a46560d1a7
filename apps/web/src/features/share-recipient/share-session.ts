import { SHARE_KINDS, SHARE_METHODS, SHARE_ROUTES, type ShareKind, type ShareMethod } from '@healthbook/shared/sharing';

/**
 * What the recipient's pages keep of a share, in session storage (this tab, this browser
 * session only): the link's uid and token, taken out of the address bar as soon as the link is
 * opened, and once verified the session that opens the content. Nothing of the record.
 */
export interface ShareEntry {
  uid: string;
  token: string;
  kind: ShareKind;
  method: ShareMethod;
  /** The patient's first name, once the share was opened (for the locked message). */
  firstName?: string | undefined;
  /** The verified session (sent as X-Share-Session) and when it ends. */
  session?: string | undefined;
  sessionExpiresAt?: string | undefined;
}

const KEY = 'shareRecipient';

/** The uid and token the server accepts (contracts/sharing.ts ShareLinkBodySchema); anything else is not worth asking about. */
const UID = /^[A-Za-z0-9_-]{8,64}$/;
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export function isWellFormedLink(uid: string | undefined, token: string | undefined): boolean {
  return typeof uid === 'string' && typeof token === 'string' && UID.test(uid) && TOKEN.test(token);
}

/** The kind and method an address's segment names: sharedrecords, shareddocs, sharedqrcoderecords. */
export function entryOf(segment: string | undefined): { kind: ShareKind; method: ShareMethod } | null {
  switch (segment) {
    case SHARE_ROUTES.linkRecords:
      return { kind: 'records', method: 'link' };
    case SHARE_ROUTES.linkDocuments:
      return { kind: 'documents', method: 'link' };
    // A QR share's address does not say what it holds; the opening tells (kind then follows the server).
    case SHARE_ROUTES.qrRecords:
      return { kind: 'records', method: 'qr' };
    default:
      return null;
  }
}

function isEntry(value: unknown): value is ShareEntry {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const optionalString = (x: unknown) => x === undefined || typeof x === 'string';
  return (
    typeof v.uid === 'string' &&
    typeof v.token === 'string' &&
    (SHARE_KINDS as readonly unknown[]).includes(v.kind) &&
    (SHARE_METHODS as readonly unknown[]).includes(v.method) &&
    optionalString(v.firstName) &&
    optionalString(v.session) &&
    optionalString(v.sessionExpiresAt)
  );
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export const shareSession = {
  /** The share this tab is opening, or null. */
  load(): ShareEntry | null {
    try {
      const parsed: unknown = JSON.parse(storage()?.getItem(KEY) ?? 'null');
      return isEntry(parsed) ? parsed : null;
    } catch {
      return null;
    }
  },

  /** A link opened: it replaces any share opened before in this tab (and its session, unless it is the same link). */
  start(entry: Pick<ShareEntry, 'uid' | 'token' | 'kind' | 'method'>): void {
    const previous = shareSession.load();
    const same = previous && previous.uid === entry.uid && previous.token === entry.token;
    // The same link again (the e-mail's link opened twice): what was learnt and the session stay.
    // The address says the method, and a link's kind; a QR address's kind was learnt from the opening.
    shareSession.save(same ? { ...previous, method: entry.method, kind: entry.method === 'qr' ? previous.kind : entry.kind } : { ...entry });
  },

  save(entry: ShareEntry): void {
    try {
      storage()?.setItem(KEY, JSON.stringify(entry));
    } catch {
      // Storage full or disabled: the recipient opens the link again.
    }
  },

  /** Adds what the opening said (the kind a QR address does not tell, the patient's first name). */
  update(changes: Partial<Omit<ShareEntry, 'uid' | 'token'>>): void {
    const entry = shareSession.load();
    if (entry) shareSession.save({ ...entry, ...changes });
  },

  /** The verified session, kept for this browser session only. */
  setSession(session: string, expiresAt: string): void {
    shareSession.update({ session, sessionExpiresAt: expiresAt });
  },

  /** The session, if one is kept and not past its end. */
  session(now: Date = new Date()): string | null {
    const entry = shareSession.load();
    if (!entry?.session) return null;
    if (entry.sessionExpiresAt && new Date(entry.sessionExpiresAt).getTime() <= now.getTime()) return null;
    return entry.session;
  },

  /** The session ended (401): verify again. */
  dropSession(): void {
    const entry = shareSession.load();
    if (entry) shareSession.save({ ...entry, session: undefined, sessionExpiresAt: undefined });
  },

  /** The share is over (revoked, expired, unknown): nothing of it is kept. */
  clear(): void {
    try {
      storage()?.removeItem(KEY);
    } catch {
      // nothing kept
    }
  },
};
