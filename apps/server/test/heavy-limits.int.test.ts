import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FHIR_IMPORT_MAX_RESOURCES, FHIR_MAX_DEPTH } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn } from './factories';

/**
 * The caps of heavy requests (issue 24, §3), each a clear 4xx that says what it is, in the
 * reader's language: resources per FHIR import, how deeply an import may nest.
 */

let t: TestApp;
const tokens: Record<string, string> = {};

type Method = 'GET' | 'POST' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await buildTestApp({ seed: false });
  const org = await buildOrganization(t.app, { name: 'caps-clinic' });
  for (const name of ['pat', 'other']) {
    const user = await buildUser(t.app, { org, dob: '1970-01-01' });
    tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  }
});
afterAll(async () => {
  await t?.close();
});

const condition = (i: number) => ({ resource: { resourceType: 'Condition', code: { text: `Condition ${i}` }, subject: { reference: 'Patient/p' } } });

describe('FHIR import', () => {
  it('refuses an element nested 10,000 deep with a 400 that says so (not a 500), in English and Greek', async () => {
    // Written as text: JSON.stringify itself cannot go 10,000 deep.
    const deep = `${'{"url":"urn:deep","extension":['.repeat(10_000)}{"url":"urn:deep","valueString":"bottom"}${']}'.repeat(10_000)}`;
    const body = `{"bundle":{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Condition","code":{"text":"Deep"},"extension":[${deep}]}}]}}`;
    const post = (lang: string) => t.app.inject({ method: 'POST', url: '/api/v1/fhir/import/', headers: { ...bearer(tokens.pat!), 'accept-language': lang, 'content-type': 'application/json' }, payload: body });
    const en = await post('en');
    expect(en.statusCode, en.body).toBe(400);
    expect(en.json()).toEqual({ detail: `The bundle nests more than ${FHIR_MAX_DEPTH} levels deep; FHIR resources never do.` });
    const el = await post('el');
    expect(el.statusCode).toBe(400);
    expect(el.json<{ detail: string }>().detail).toContain(`${FHIR_MAX_DEPTH} επίπεδα`);
    // Nothing was imported, and the server goes on.
    expect((await call('pat', 'GET', '/api/v1/fhir/export/')).json<{ entry: unknown[] }>().entry).toHaveLength(1);
  });

  it(`takes a bundle of ${FHIR_IMPORT_MAX_RESOURCES} resources, and refuses one more with a 400 naming the cap`, async () => {
    const entry = Array.from({ length: FHIR_IMPORT_MAX_RESOURCES + 1 }, (_, i) => condition(i));
    const over = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry } });
    expect(over.statusCode, over.body.slice(0, 300)).toBe(400);
    expect(over.json()).toEqual({ detail: `The bundle holds ${FHIR_IMPORT_MAX_RESOURCES + 1} resources. An import takes at most ${FHIR_IMPORT_MAX_RESOURCES}: split it into smaller bundles.` });
    const el = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry } }, 'el');
    expect(el.json<{ detail: string }>().detail).toContain(`το πολύ ${FHIR_IMPORT_MAX_RESOURCES}`);

    const atCap = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry: entry.slice(1) } });
    expect(atCap.statusCode, atCap.body.slice(0, 300)).toBe(200);
    expect(atCap.json<{ items: unknown[] }>().items).toHaveLength(FHIR_IMPORT_MAX_RESOURCES);
  }, 60_000);

  it('still names a malformed entry by its place in a bundle read in slices', async () => {
    const entry: unknown[] = Array.from({ length: 250 }, (_, i) => condition(i));
    entry[230] = { resource: { resourceType: 'Condition', code: { text: 'Bad date' }, onsetDateTime: 'yesterday' } };
    const res = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toContain('entry 230 (Condition) onsetDateTime');
  });
});
