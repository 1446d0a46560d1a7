import { afterEach, describe, expect, it, vi } from 'vitest';
import { b64url, buildShl, encryptJwe } from '../test-fixtures';
import { decryptJwe, needsPasscode, openShl, parseShl, ShlError } from './smart-health-link';

/** SMART Health Links as this page opens them, with links built here (test-fixtures.ts). */

const text = (value: string) => new TextEncoder().encode(value);
const encrypt = encryptJwe;
const buildLink = async (payload: Record<string, unknown> = {}) => buildShl(payload);
const bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ resource: { resourceType: 'AllergyIntolerance', code: { text: 'Peanuts' } } }] };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.restoreAllMocks());

describe('parseShl', () => {
  it('reads a shlink:/ and a viewer address carrying one after #', async () => {
    const { link } = await buildLink();
    expect(parseShl(link)).toMatchObject({ url: 'https://shl.example.org/api/v1/shl/abc/def', flag: 'P', label: 'Health record of Maria' });
    expect(parseShl(`https://viewer.example.org/view#${link}`)).toMatchObject({ flag: 'P' });
    expect(needsPasscode(parseShl(link)!)).toBe(true);
    expect(needsPasscode(parseShl((await buildLink({ flag: 'L' })).link)!)).toBe(false);
  });

  it('refuses what is not one: other text, a bad payload, a short key, an http address', async () => {
    expect(parseShl('https://example.org/')).toBeNull();
    expect(parseShl('shlink:/not-base64-json')).toBeNull();
    expect(parseShl((await buildLink({ key: 'short' })).link)).toBeNull();
    expect(parseShl((await buildLink({ url: 'http://shl.example.org/m' })).link)).toBeNull();
  });
});

describe('decryptJwe', () => {
  it('decrypts dir + A256GCM with the link’s key; another key or a changed header does not', async () => {
    const { key } = await buildLink();
    const jwe = await encrypt('{"resourceType":"Bundle"}', key);
    expect(await decryptJwe(jwe, b64url(key))).toBe('{"resourceType":"Bundle"}');
    const other = crypto.getRandomValues(new Uint8Array(32));
    await expect(decryptJwe(jwe, b64url(other))).rejects.toMatchObject({ problem: 'undecryptable' });
    const [, ...rest] = jwe.split('.');
    const tampered = [b64url(text(JSON.stringify({ alg: 'dir', enc: 'A256GCM' }))), ...rest].join('.');
    await expect(decryptJwe(tampered, b64url(key))).rejects.toBeInstanceOf(ShlError);
    await expect(decryptJwe(await encrypt('x', key, { alg: 'RSA-OAEP', enc: 'A256GCM' }), b64url(key))).rejects.toMatchObject({ problem: 'undecryptable' });
  });
});

describe('openShl', () => {
  it('posts the recipient and passcode to the manifest; a wrong passcode says the tries left; the right one gives the Bundle', async () => {
    const { key, link } = await buildLink();
    const embedded = await encrypt(JSON.stringify(bundle), key);
    const bodies: unknown[] = [];
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init!.body)) as { passcode: string };
      bodies.push(body);
      expect(init!.credentials).toBe('omit');
      if (body.passcode !== '123456') return json(401, { remainingAttempts: 4 });
      return json(200, { files: [{ contentType: 'application/fhir+json', embedded }, { contentType: 'application/smart-health-card', embedded: 'x.y.z' }] });
    });
    const wrong = await openShl(parseShl(link)!, { recipient: 'Anna', passcode: '000000', fetch }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ problem: 'passcodeWrong', remainingAttempts: 4 });
    const content = await openShl(parseShl(link)!, { recipient: 'Anna', passcode: '123456', fetch });
    expect(content).toEqual({ bundle, unsupported: ['application/smart-health-card'] });
    expect(bodies).toEqual([
      { recipient: 'Anna', passcode: '000000' },
      { recipient: 'Anna', passcode: '123456' },
    ]);
  });

  it('fetches a file by its location; gathers several Bundles in one collection', async () => {
    const { key, link } = await buildLink({ flag: '' });
    const one = await encrypt(JSON.stringify(bundle), key);
    const two = await encrypt(JSON.stringify({ resourceType: 'Condition', code: { text: 'Asthma' } }), key);
    const fetch = vi.fn(async (url: RequestInfo | URL) => (String(url) === 'https://files.example.org/2' ? new Response(two) : json(200, { files: [{ contentType: 'application/fhir+json', embedded: one }, { contentType: 'application/fhir+json', location: 'https://files.example.org/2' }] })));
    const content = await openShl(parseShl(link)!, { recipient: 'Anna', fetch });
    expect(content.bundle).toEqual({ resourceType: 'Bundle', type: 'collection', entry: [...bundle.entry, { resource: { resourceType: 'Condition', code: { text: 'Asthma' } } }] });
  });

  it('an expired link is not fetched; a link no longer live (404) and a server not reached say so', async () => {
    const fetch = vi.fn(async () => json(404, { detail: 'gone' }));
    await expect(openShl(parseShl((await buildLink({ exp: 1_000 })).link)!, { recipient: 'Anna', fetch })).rejects.toMatchObject({ problem: 'expired' });
    expect(fetch).not.toHaveBeenCalled();
    await expect(openShl(parseShl((await buildLink()).link)!, { recipient: 'Anna', passcode: '1', fetch })).rejects.toMatchObject({ problem: 'unavailable' });
    const down = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(openShl(parseShl((await buildLink()).link)!, { recipient: 'Anna', passcode: '1', fetch: down })).rejects.toMatchObject({ problem: 'unreachable' });
  });
});
