/**
 * SMART Health Links built the way the SHL rules (and our own sharing service) build them, for
 * the tests: a 32-byte key, a shlink:/ payload, files as JWE compact (dir, A256GCM) under the key.
 */

export const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const text = (value: string) => new TextEncoder().encode(value);

/** `plain` encrypted for `key` as a JWE in compact form (tests only). */
export async function encryptJwe(plain: string, key: Uint8Array<ArrayBuffer>, header: Record<string, unknown> = { alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' }): Promise<string> {
  const protectedHeader = b64url(text(JSON.stringify(header)));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cryptoKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt']);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: text(protectedHeader), tagLength: 128 }, cryptoKey, text(plain)));
  return [protectedHeader, '', b64url(iv), b64url(sealed.slice(0, -16)), b64url(sealed.slice(-16))].join('.');
}

/** A new link (flag P unless told otherwise) and its key (tests only). */
export function buildShl(payload: Record<string, unknown> = {}) {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const link = `shlink:/${b64url(text(JSON.stringify({ url: 'https://shl.example.org/api/v1/shl/abc/def', key: b64url(key), flag: 'P', label: 'Health record of Maria', v: 1, ...payload })))}`;
  return { key, link };
}
