import type { FhirImportBody } from '@healthbook/shared/contracts/exports';

/** A FHIR Bundle as the import takes it. */
type FhirBundle = FhirImportBody['bundle'];

/**
 * SMART Health Links (https://docs.smarthealthit.org/smart-health-links/spec/) opened by the
 * browser: the link decoded, its manifest fetched from wherever it points (a POST with the
 * recipient and, with flag P, the passcode; with flag U, the one file by GET), each file
 * decrypted with the link's key (JWE compact, alg dir, enc A256GCM, WebCrypto), and the FHIR
 * Bundles handed to the import's preview. The server never fetches a patient-supplied address
 * (that would let anyone make it call any address: SSRF); it only sees the Bundle.
 */

/** The shlink:/ payload (the fields this reader uses). */
export interface ShlPayload {
  url: string;
  key: string;
  exp?: number;
  flag?: string;
  label?: string;
  v?: number;
}

/** Why a link did not open, each a message of the recordTransfer catalog (shl.errors.*). */
export type ShlProblem = 'invalid' | 'expired' | 'passcodeWrong' | 'unavailable' | 'unreachable' | 'undecryptable' | 'nothingToImport';

export class ShlError extends Error {
  constructor(
    readonly problem: ShlProblem,
    /** A wrong passcode: the tries left, as the link's server counts them. */
    readonly remainingAttempts?: number,
    /** The link's server's own words, when it gave some. */
    readonly serverText?: string,
  ) {
    super(problem);
    this.name = 'ShlError';
  }
}

const FHIR_JSON = 'application/fhir+json';

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ShlError('invalid');
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The payload of a link as someone may paste it: `shlink:/…`, or a viewer's address carrying it
 * after `#shlink:/`; null when the text is neither (or its payload is not one).
 */
export function parseShl(text: string): ShlPayload | null {
  const match = /(?:^|#)shlink:\/([A-Za-z0-9_-]+)\s*$/.exec(text.trim());
  if (!match) return null;
  try {
    const payload: unknown = JSON.parse(new TextDecoder().decode(base64UrlBytes(match[1]!)));
    if (!payload || typeof payload !== 'object') return null;
    const { url, key, exp, flag, label, v } = payload as Record<string, unknown>;
    if (typeof url !== 'string' || typeof key !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(key)) return null;
    const address = new URL(url);
    if (address.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(address.hostname)) return null;
    return { url, key, ...(typeof exp === 'number' ? { exp } : {}), ...(typeof flag === 'string' ? { flag } : {}), ...(typeof label === 'string' ? { label } : {}), ...(typeof v === 'number' ? { v } : {}) };
  } catch {
    return null;
  }
}

export const needsPasscode = (link: ShlPayload) => (link.flag ?? '').includes('P');

/** A JWE in compact form (alg dir, enc A256GCM; zip DEF inflated) decrypted with the link's key: its text. */
export async function decryptJwe(jwe: string, key: string): Promise<string> {
  const parts = jwe.trim().split('.');
  if (parts.length !== 5 || parts[1] !== '') throw new ShlError('undecryptable');
  const [protectedHeader, , iv, ciphertext, tag] = parts as [string, string, string, string, string];
  let header: { alg?: unknown; enc?: unknown; zip?: unknown };
  try {
    header = JSON.parse(new TextDecoder().decode(base64UrlBytes(protectedHeader))) as typeof header;
  } catch {
    throw new ShlError('undecryptable');
  }
  if (header.alg !== 'dir' || header.enc !== 'A256GCM') throw new ShlError('undecryptable');
  try {
    const cryptoKey = await crypto.subtle.importKey('raw', base64UrlBytes(key), 'AES-GCM', false, ['decrypt']);
    const sealed = new Uint8Array([...base64UrlBytes(ciphertext), ...base64UrlBytes(tag)]);
    // The additional data is the protected header as it was sent (RFC 7516, 5.1).
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: base64UrlBytes(iv), additionalData: new TextEncoder().encode(protectedHeader), tagLength: 128 }, cryptoKey, sealed);
    if (header.zip === 'DEF') return await new Response(new Blob([plain]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
    return new TextDecoder().decode(plain);
  } catch {
    throw new ShlError('undecryptable');
  }
}

export interface ShlContent {
  /** The FHIR Bundles the link holds, as one (their entries together). */
  bundle: FhirBundle | null;
  /** The content types of files this reader does not import (SMART Health Cards, API access). */
  unsupported: string[];
}

/** Reads a response's JSON, or null. */
const jsonOf = async (response: Response): Promise<unknown> => response.json().catch(() => null);

/** The link's files, fetched and decrypted; the FHIR ones as one Bundle. */
export async function openShl(link: ShlPayload, options: { recipient: string; passcode?: string; fetch?: typeof fetch }): Promise<ShlContent> {
  const get = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  if (link.exp !== undefined && link.exp * 1000 < Date.now()) throw new ShlError('expired');
  const request = async (input: string, init?: RequestInit) => {
    try {
      // No cookies and no referrer: the link's server learns only what the SHL rules give it.
      return await get(input, { ...init, credentials: 'omit', referrerPolicy: 'no-referrer' });
    } catch {
      throw new ShlError('unreachable');
    }
  };

  let files: Array<{ contentType: string; jwe: string }>;
  if ((link.flag ?? '').includes('U')) {
    // Flag U: the one encrypted file itself, by GET.
    const url = new URL(link.url);
    url.searchParams.set('recipient', options.recipient);
    const response = await request(url.toString());
    if (!response.ok) throw new ShlError(response.status === 404 ? 'unavailable' : 'unreachable');
    files = [{ contentType: FHIR_JSON, jwe: await response.text() }];
  } else {
    const response = await request(link.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ recipient: options.recipient, ...(needsPasscode(link) ? { passcode: options.passcode ?? '' } : {}) }),
    });
    if (response.status === 401) {
      const body = (await jsonOf(response)) as { remainingAttempts?: unknown; detail?: unknown } | null;
      throw new ShlError('passcodeWrong', typeof body?.remainingAttempts === 'number' ? body.remainingAttempts : undefined, typeof body?.detail === 'string' ? body.detail : undefined);
    }
    if (!response.ok) throw new ShlError(response.status === 404 ? 'unavailable' : 'unreachable');
    const manifest = (await jsonOf(response)) as { files?: unknown } | null;
    if (!manifest || !Array.isArray(manifest.files)) throw new ShlError('unreachable');
    files = [];
    for (const file of manifest.files as Array<{ contentType?: unknown; embedded?: unknown; location?: unknown }>) {
      const contentType = typeof file.contentType === 'string' ? file.contentType : '';
      if (contentType !== FHIR_JSON) {
        files.push({ contentType, jwe: '' });
        continue;
      }
      if (typeof file.embedded === 'string') files.push({ contentType, jwe: file.embedded });
      else if (typeof file.location === 'string') {
        const located = await request(file.location);
        if (!located.ok) throw new ShlError('unavailable');
        files.push({ contentType, jwe: await located.text() });
      }
    }
  }

  const entries: unknown[] = [];
  const unsupported: string[] = [];
  let single: FhirBundle | null = null;
  let bundles = 0;
  for (const file of files) {
    if (file.contentType !== FHIR_JSON) {
      unsupported.push(file.contentType || '?');
      continue;
    }
    let resource: unknown;
    try {
      resource = JSON.parse(await decryptJwe(file.jwe, link.key));
    } catch (err) {
      throw err instanceof ShlError ? err : new ShlError('undecryptable');
    }
    if (!resource || typeof resource !== 'object') continue;
    const r = resource as FhirBundle;
    bundles++;
    single = r.resourceType === 'Bundle' ? r : null;
    // A lone resource becomes an entry; a Bundle gives its entries.
    if (r.resourceType === 'Bundle') entries.push(...(Array.isArray(r.entry) ? (r.entry as unknown[]) : []));
    else entries.push({ resource: r });
  }
  if (bundles === 0) return { bundle: null, unsupported };
  // One Bundle goes as it is (a document Bundle keeps its type); several are gathered in one collection.
  return { bundle: bundles === 1 && single ? single : { resourceType: 'Bundle', type: 'collection', entry: entries }, unsupported };
}
