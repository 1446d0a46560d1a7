import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FhirImportResult } from '@healthbook/shared';
// The browser's reader of SMART Health Links (the web app's): the server never opens a patient-supplied link itself.
import { openShl, parseShl } from '../../web/src/features/record-transfer/api/smart-health-link';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildUser, signIn } from './factories';

/**
 * One of our own SMART Health Links, end to end: Alice shares records as a QR share (an SHL
 * with flag P); the web app's reader decodes the link, posts to its manifest with the passcode
 * (a wrong one first: the tries left), decrypts the Bundle; Bob's record previews and accepts
 * it through the one FHIR import; a second time adds nothing.
 */

let t: TestApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const hb = await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow();
  const people = { alice: await buildUser(t.app, { org: hb, dob: '1980-06-15', first_name: 'Alice', last_name: 'Sharer' }), bob: await buildUser(t.app, { org: hb, dob: '1975-01-01' }) };
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const call = (who: string, url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: bearer(tokens[who]!), ...(payload ? { payload } : {}) });

/** fetch, answered by the app itself (the link's address is this server's public one). */
const appFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const res = await t.app.inject({ method: (init?.method ?? 'GET') as 'GET' | 'POST', url: `${url.pathname}${url.search}`, headers: { ...(init?.headers as Record<string, string>) }, ...(init?.body ? { payload: String(init.body) } : {}) });
  return new Response(res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? 'text/plain') } });
};

describe('importing one of our own SMART Health Links', () => {
  it('decodes, asks the manifest with the passcode, decrypts, previews and accepts into another record; again adds nothing', async () => {
    for (const [category, body] of [
      ['allergy', { code: 'Peanuts' }],
      ['immunization', { vaccine_name: 'Tetanus' }],
    ] as const) {
      const res = await call('alice', `/api/v1/hr/${category}/`, body);
      expect(res.statusCode, res.body).toBe(201);
    }
    const shared = await call('alice', '/api/v1/sharing/', { recipient_name: 'Bob', recipient_email: 'bob@example.org', categories: ['allergy', 'immunization'], method: 'qr', expires_in: '7d' });
    expect(shared.statusCode, shared.body).toBe(201);
    const { smart_health_link: text, passcode } = shared.json<{ smart_health_link: string; passcode: string }>();

    const link = parseShl(`https://viewer.example.org/#${text}`);
    expect(link).toMatchObject({ flag: 'P', label: 'Health record of Alice Sharer' });
    const wrong = await openShl(link!, { recipient: 'Bob', passcode: passcode === '000000' ? '111111' : '000000', fetch: appFetch }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ problem: 'passcodeWrong', remainingAttempts: 4 });
    const content = await openShl(link!, { recipient: 'Bob', passcode, fetch: appFetch });
    expect(content.unsupported).toEqual([]);

    const preview = await call('bob', '/api/v1/fhir/import/', { bundle: content.bundle });
    expect(preview.statusCode, preview.body).toBe(200);
    const items = preview.json<FhirImportResult>().items;
    expect(items.filter((i) => i.status === 'new').map((i) => i.category).sort()).toEqual(['allergy', 'immunization']);
    const accepted = await call('bob', '/api/v1/fhir/import/', { bundle: content.bundle, accept: items.map((i) => i.key) });
    expect(accepted.json<FhirImportResult>().imported).toBe(2);
    const again = await openShl(link!, { recipient: 'Bob', passcode, fetch: appFetch });
    const second = (await call('bob', '/api/v1/fhir/import/', { bundle: again.bundle })).json<FhirImportResult>();
    expect(second.items.filter((i) => i.status === 'new')).toEqual([]);
  });
});
