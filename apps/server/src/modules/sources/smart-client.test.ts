import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { addressAllowed, normaliseBaseUrl } from './smart-client';

const production = { allowInsecure: false, timeoutMs: 1000 };

describe('a source’s address', () => {
  it('is kept without a trailing slash, query or fragment; credentials or other schemes are refused', () => {
    expect(normaliseBaseUrl(' https://ehr.example.org/fhir/r4/ ')).toBe('https://ehr.example.org/fhir/r4');
    expect(normaliseBaseUrl('https://ehr.example.org/fhir?x=1#top')).toBe('https://ehr.example.org/fhir');
    expect(normaliseBaseUrl('https://user:secret@ehr.example.org/fhir')).toBeNull();
    expect(normaliseBaseUrl('ftp://ehr.example.org/fhir')).toBeNull();
    expect(normaliseBaseUrl('not a url')).toBeNull();
  });

  it('in production must be https on a public address (no request into the private network)', async () => {
    expect(await addressAllowed(new URL('http://203.0.113.10/fhir'), production)).toBe('insecure');
    for (const host of ['127.0.0.1', '10.1.2.3', '172.16.0.5', '192.168.1.1', '169.254.169.254', '100.64.0.1', '[::1]', '[fd00::1]', '[fe80::1]']) {
      expect(await addressAllowed(new URL(`https://${host}/fhir`), production), host).toBe('private');
    }
    expect(await addressAllowed(new URL('https://203.0.113.10/fhir'), production)).toBe('ok');
    // A name that resolves to loopback is as private as the address.
    expect(await addressAllowed(new URL('https://localhost/fhir'), production)).toBe('private');
  });

  it('may be anything when SOURCES_ALLOW_INSECURE is on (the default outside production)', async () => {
    expect(await addressAllowed(new URL('http://127.0.0.1:9/fhir'), { allowInsecure: true, timeoutMs: 1000 })).toBe('ok');
    const env = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/hb-config-test' };
    expect(loadConfig({ ...env, NODE_ENV: 'development' }).sources.allowInsecure).toBe(true);
    expect(loadConfig({ ...env, NODE_ENV: 'production' }).sources.allowInsecure).toBe(false);
    expect(loadConfig({ ...env, NODE_ENV: 'production', SOURCES_ALLOW_INSECURE: 'true' }).sources.allowInsecure).toBe(true);
    expect(loadConfig({ ...env, SOURCES_SYNC_EVERY_H: '6' }).sources.syncEveryMs).toBe(6 * 3_600_000);
  });
});
