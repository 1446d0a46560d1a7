import { createHash, randomBytes } from 'node:crypto';
import type { Bundle, Condition, DocumentReference, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePatientRecords } from './ehr/generate-patient.js';
import { authorizeByHttp, startTestEhr, type TestEhr } from './ehr/test-ehr.js';

/**
 * The tests' own SMART on FHIR EHR (test/ehr), driven with plain fetch as the product's client will
 * drive it: discovery, the authorization code flow with PKCE, refresh, FHIR search and reads inside
 * the patient's compartment, and the controls the integration tests steer it with.
 */

const REDIRECT_URI = 'http://127.0.0.1:9/smart/callback';
const PUBLIC_CLIENT = { client_id: 'healthbook-public', redirect_uris: [REDIRECT_URI] };
const SECRET = 'confidential-client-secret-of-32-chars!';
const CONFIDENTIAL_CLIENT = { client_id: 'healthbook-confidential', client_secret: SECRET, redirect_uris: [REDIRECT_URI] };
const SCOPE = 'launch/patient openid fhirUser offline_access patient/*.rs';

let ehr: TestEhr;

beforeAll(async () => {
  ehr = await startTestEhr({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT] });
});

afterAll(async () => {
  await ehr?.close();
});

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(target: TestEhr, params: Record<string, string | undefined>): URL {
  const url = new URL(target.authorizationEndpoint);
  const all: Record<string, string | undefined> = { response_type: 'code', client_id: PUBLIC_CLIENT.client_id, redirect_uri: REDIRECT_URI, scope: SCOPE, aud: target.fhirBase, code_challenge_method: 'S256', ...params };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(key, value);
  return url;
}

interface TokenAnswer {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
  refresh_token?: string;
  id_token?: string;
  patient?: string;
  error?: string;
}

async function tokenRequest(target: TestEhr, form: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: TokenAnswer }> {
  const response = await fetch(target.tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers }, body: new URLSearchParams(form).toString() });
  return { status: response.status, body: (await response.json()) as TokenAnswer };
}

/** The whole standalone launch for a public client: authorize, sign in, allow, exchange the code. */
async function launch(target: TestEhr, username = 'alice', scope = SCOPE): Promise<TokenAnswer> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(8).toString('hex');
  const redirect = await authorizeByHttp(target, authorizeUrl(target, { state, code_challenge: challenge, scope }), { username, password: `${username}-password`, consent: 'allow' });
  expect(redirect.searchParams.get('state')).toBe(state);
  const code = redirect.searchParams.get('code');
  expect(code, redirect.href).toBeTruthy();
  const { status, body } = await tokenRequest(target, { grant_type: 'authorization_code', code: code as string, redirect_uri: REDIRECT_URI, client_id: PUBLIC_CLIENT.client_id, code_verifier: verifier });
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

async function fhirGet(token: string | undefined, pathOrUrl: string, accept = 'application/fhir+json'): Promise<Response> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${ehr.fhirBase}/${pathOrUrl}`;
  return fetch(url, { headers: { accept, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
}

async function fhirJson<T = Bundle>(token: string, path: string): Promise<T> {
  const response = await fhirGet(token, path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

describe('the test EHR', () => {
  it('publishes SMART discovery, the OpenID configuration and a CapabilityStatement with the SMART extension', async () => {
    const smart = (await (await fetch(`${ehr.fhirBase}/.well-known/smart-configuration`)).json()) as Record<string, unknown>;
    expect(smart).toMatchObject({ issuer: ehr.issuer, authorization_endpoint: ehr.authorizationEndpoint, token_endpoint: ehr.tokenEndpoint, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'] });
    expect(smart.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(smart.scopes_supported).toEqual(expect.arrayContaining(['launch/patient', 'offline_access', 'patient/*.rs', 'patient/*.read']));
    expect(smart.capabilities).toEqual(expect.arrayContaining(['launch-standalone', 'client-public', 'client-confidential-symmetric', 'context-standalone-patient', 'permission-offline', 'permission-patient', 'permission-v1', 'permission-v2']));

    const openid = (await (await fetch(`${ehr.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(openid.issuer).toBe(ehr.issuer);
    expect(openid.token_endpoint).toBe(ehr.tokenEndpoint);

    const metadata = (await (await fetch(`${ehr.fhirBase}/metadata`)).json()) as { fhirVersion: string; rest: { security: { extension: { url: string; extension: { url: string; valueUri: string }[] }[] } }[] };
    expect(metadata.fhirVersion).toBe('4.0.1');
    const oauth = metadata.rest[0]?.security.extension.find((e) => e.url.endsWith('/oauth-uris'));
    expect(oauth?.extension).toEqual(expect.arrayContaining([{ url: 'authorize', valueUri: ehr.authorizationEndpoint }, { url: 'token', valueUri: ehr.tokenEndpoint }]));
  });

  it('shows accessible sign-in and consent pages', async () => {
    const { challenge } = pkcePair();
    const first = await fetch(authorizeUrl(ehr, { state: 's', code_challenge: challenge }), { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookies = first.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const login = await fetch(new URL(first.headers.get('location') as string, ehr.origin), { headers: { cookie: cookies } });
    const html = await login.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<h1>[^<]+<\/h1>/);
    expect(html).toContain('<label for="username">');
    expect(html).toContain('<label for="password">');
    expect(html).toContain('alice');
  });

  it('runs the authorization code flow with PKCE and answers the token request with the patient', async () => {
    const tokens = await launch(ehr);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, patient: 'alice-example' });
    expect(tokens.scope?.split(' ')).toEqual(expect.arrayContaining(['launch/patient', 'openid', 'fhirUser', 'offline_access', 'patient/*.rs']));
    expect(tokens.refresh_token).toBeTruthy();
    const claims = JSON.parse(Buffer.from((tokens.id_token as string).split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: ehr.issuer, aud: PUBLIC_CLIENT.client_id, sub: 'alice', fhirUser: `${ehr.fhirBase}/Patient/alice-example` });
    expect(ehr.tokenRequests.at(-1)).toMatchObject({ grantType: 'authorization_code', clientId: PUBLIC_CLIENT.client_id, hasCodeVerifier: true, status: 200 });

    const patient = await fhirJson<Resource>(tokens.access_token as string, 'Patient/alice-example');
    expect(patient).toMatchObject({ resourceType: 'Patient', id: 'alice-example' });
    expect(patient.meta?.versionId).toBeTruthy();
    expect(patient.meta?.lastUpdated).toBeTruthy();
  });

  it('refuses a wrong code_verifier, and an authorization request without PKCE', async () => {
    const { challenge } = pkcePair();
    const redirect = await authorizeByHttp(ehr, authorizeUrl(ehr, { state: 'wrong-verifier', code_challenge: challenge }), { username: 'alice', password: 'alice-password', consent: 'allow' });
    const { status, body } = await tokenRequest(ehr, { grant_type: 'authorization_code', code: redirect.searchParams.get('code') as string, redirect_uri: REDIRECT_URI, client_id: PUBLIC_CLIENT.client_id, code_verifier: pkcePair().verifier });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');

    const noPkce = await authorizeByHttp(ehr, authorizeUrl(ehr, { state: 'no-pkce', code_challenge_method: undefined }), { username: 'alice', password: 'alice-password', consent: 'allow' });
    expect(noPkce.searchParams.get('error')).toBe('invalid_request');
    expect(noPkce.searchParams.get('state')).toBe('no-pkce');

    const plain = await authorizeByHttp(ehr, authorizeUrl(ehr, { state: 'plain', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }), { username: 'alice', password: 'alice-password', consent: 'allow' });
    expect(plain.searchParams.get('error')).toBe('invalid_request');
  });

  it('redirects a denial with access_denied and the state, and refuses a wrong aud', async () => {
    const denied = await authorizeByHttp(ehr, authorizeUrl(ehr, { state: 'deny-me', code_challenge: pkcePair().challenge }), { username: 'bob', password: 'bob-password', consent: 'deny' });
    expect(denied.origin + denied.pathname).toBe(REDIRECT_URI);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('deny-me');

    const wrongAud = await authorizeByHttp(ehr, authorizeUrl(ehr, { state: 'aud', aud: 'https://elsewhere.example/fhir', code_challenge: pkcePair().challenge }), { username: 'alice', password: 'alice-password', consent: 'allow' });
    expect(wrongAud.searchParams.get('error')).toBe('invalid_request');
    expect(wrongAud.searchParams.get('error_description')).toContain('aud');
    expect(wrongAud.searchParams.get('state')).toBe('aud');

    await expect(authorizeByHttp(ehr, authorizeUrl(ehr, { state: 'pw', code_challenge: pkcePair().challenge }), { username: 'alice', password: 'nope', consent: 'allow' })).rejects.toThrow(/refused the sign-in/);
  });

  it('refreshes (rotating the refresh token) with the patient in the answer, for a confidential client too', async () => {
    const tokens = await launch(ehr, 'bob');
    const refreshed = await tokenRequest(ehr, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: PUBLIC_CLIENT.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ patient: 'bob-other', token_type: 'Bearer' });
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    expect(refreshed.body.refresh_token).toBeTruthy();
    expect(ehr.tokenRequests.at(-1)).toMatchObject({ grantType: 'refresh_token', hasRefreshToken: true, status: 200 });
    expect((await fhirGet(refreshed.body.access_token, 'Patient/bob-other')).status).toBe(200);

    const { verifier, challenge } = pkcePair();
    const redirect = await authorizeByHttp(ehr, authorizeUrl(ehr, { client_id: CONFIDENTIAL_CLIENT.client_id, state: 'c', code_challenge: challenge }), { username: 'alice', password: 'alice-password', consent: 'allow' });
    const basic = `Basic ${Buffer.from(`${CONFIDENTIAL_CLIENT.client_id}:${SECRET}`).toString('base64')}`;
    const confidential = await tokenRequest(ehr, { grant_type: 'authorization_code', code: redirect.searchParams.get('code') as string, redirect_uri: REDIRECT_URI, code_verifier: verifier }, { authorization: basic });
    expect(confidential.status).toBe(200);
    expect(confidential.body.patient).toBe('alice-example');
    const again = await tokenRequest(ehr, { grant_type: 'refresh_token', refresh_token: confidential.body.refresh_token as string }, { authorization: basic });
    expect(again.body.patient).toBe('alice-example');
  });

  it("pages a search to its end: every resource of the patient, none of the other patient's", async () => {
    const { access_token: token } = await launch(ehr);
    const expected = ehr.resourcesOf('alice-example', 'Observation').map((r) => r.id);
    expect(expected.length).toBeGreaterThan(15);
    const seen: string[] = [];
    let next: string | undefined = `${ehr.fhirBase}/Observation?patient=alice-example&_count=7`;
    let pages = 0;
    while (next) {
      const bundle: Bundle = await fhirJson(token as string, next);
      expect(bundle.total).toBe(expected.length);
      for (const entry of bundle.entry ?? []) {
        seen.push(entry.resource?.id as string);
        expect((entry.resource as { subject?: { reference?: string } }).subject?.reference).toBe('Patient/alice-example');
        expect(entry.fullUrl).toBe(`${ehr.fhirBase}/Observation/${entry.resource?.id}`);
      }
      next = bundle.link?.find((l) => l.relation === 'next')?.url;
      if (next) expect(next.startsWith(ehr.fhirBase)).toBe(true);
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(expected.length / 7));
    expect(seen.sort()).toEqual(expected.sort());
    expect(ehr.requests.filter((r) => r.path === '/fhir/Observation' && r.token === token && r.query._offset).length).toBe(pages - 1);

    // The subject= form, and a search with no patient parameter, stay inside the token's compartment.
    const bySubject: Bundle = await fhirJson(token as string, 'Condition?subject=Patient/alice-example');
    expect(bySubject.total).toBe(ehr.resourcesOf('alice-example', 'Condition').length);
    const unfiltered: Bundle = await fhirJson(token as string, 'Immunization');
    expect(unfiltered.entry?.every((e) => (e.resource as { patient?: { reference?: string } }).patient?.reference === 'Patient/alice-example')).toBe(true);

    // Bob's data: refused by search parameter and by id.
    expect((await fhirGet(token, 'Observation?patient=bob-other')).status).toBe(403);
    const bobsObservation = ehr.resourcesOf('bob-other', 'Observation')[0] as Resource;
    expect((await fhirGet(token, `Observation/${bobsObservation.id}`)).status).toBe(403);
    expect((await fhirGet(token, 'Patient/bob-other')).status).toBe(403);
  });

  it('serves a Binary as raw bytes or as a resource, and the external attachment', async () => {
    const { access_token: token } = await launch(ehr);
    const documents: Bundle<DocumentReference> = await fhirJson(token as string, 'DocumentReference?patient=alice-example');
    const attachments = documents.entry?.map((e) => e.resource?.content[0]?.attachment) ?? [];
    const pdf = attachments.find((a) => a?.contentType === 'application/pdf');
    expect(pdf?.url).toMatch(/^Binary\//);
    const raw = await fhirGet(token, pdf?.url as string, 'application/pdf');
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.byteLength).toBe(pdf?.size);
    const asResource = (await (await fhirGet(token, pdf?.url as string)).json()) as { resourceType: string; data: string };
    expect(asResource.resourceType).toBe('Binary');
    expect(Buffer.from(asResource.data, 'base64').equals(bytes)).toBe(true);

    const external = attachments.find((a) => a?.url?.startsWith(ehr.origin));
    const page = await fetch(external?.url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('answers 401 without a token, once access tokens expired, and once all tokens are revoked', async () => {
    expect((await fhirGet(undefined, 'Patient/alice-example')).status).toBe(401);
    const bogus = await fhirGet('not-a-token', 'Patient/alice-example');
    expect(bogus.status).toBe(401);
    expect(bogus.headers.get('www-authenticate')).toContain('invalid_token');

    const tokens = await launch(ehr);
    await ehr.expireAccessTokens();
    expect((await fhirGet(tokens.access_token, 'Patient/alice-example')).status).toBe(401);
    const refreshed = await tokenRequest(ehr, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: PUBLIC_CLIENT.client_id });
    expect(refreshed.status).toBe(200);
    expect((await fhirGet(refreshed.body.access_token, 'Patient/alice-example')).status).toBe(200);

    await ehr.revokeTokens();
    expect((await fhirGet(refreshed.body.access_token, 'Patient/alice-example')).status).toBe(401);
    const afterRevoke = await tokenRequest(ehr, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string, client_id: PUBLIC_CLIENT.client_id });
    expect(afterRevoke.status).toBe(400);
    expect(afterRevoke.body.error).toBe('invalid_grant');
  });

  it('limits access to the granted resource types and issues tokens with the configured lifetime', async () => {
    const { access_token: token } = await launch(ehr, 'alice', 'launch/patient openid patient/Observation.rs');
    expect((await fhirGet(token, 'Observation?patient=alice-example')).status).toBe(200);
    const refused = await fhirGet(token, 'Condition?patient=alice-example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');

    const v1 = await launch(ehr, 'alice', 'launch/patient openid patient/*.read');
    expect((await fhirGet(v1.access_token, 'Condition?patient=alice-example')).status).toBe(200);
    expect(v1.refresh_token).toBeUndefined();

    const shortLived = await startTestEhr({ clients: [PUBLIC_CLIENT], accessTokenTtlSeconds: 2, patients: [{ patientId: 'carol', name: 'Carol Short', username: 'carol', password: 'carol-password' }] });
    try {
      const tokens = await launch(shortLived, 'carol');
      expect(tokens.expires_in).toBe(2);
      expect(tokens.patient).toBe('carol');
    } finally {
      await shortLived.close();
    }
  });

  it('answers injected faults as configured', async () => {
    const { access_token: token } = await launch(ehr);
    ehr.fail({ type: 'Immunization', status: 403, times: 1 });
    expect((await fhirGet(token, 'Immunization?patient=alice-example')).status).toBe(403);
    expect((await fhirGet(token, 'Immunization?patient=alice-example')).status).toBe(200);

    ehr.fail({ status: 429, retryAfter: 1, times: 2 });
    for (let i = 0; i < 2; i++) {
      const throttled = await fhirGet(token, 'Condition?patient=alice-example');
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('1');
    }
    expect((await fhirGet(token, 'Condition?patient=alice-example')).status).toBe(200);

    ehr.fail({ status: 500, times: 1 });
    expect((await fhirGet(token, 'Patient/alice-example')).status).toBe(500);
    expect((await fhirGet(token, 'Patient/alice-example')).status).toBe(200);

    ehr.fail({ status: 401, path: 'Procedure' });
    const unauthorized = await fhirGet(token, 'Procedure?patient=alice-example');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await fhirGet(token, 'Procedure?patient=alice-example')).status).toBe(401);
    ehr.clearFaults();
    expect((await fhirGet(token, 'Procedure?patient=alice-example')).status).toBe(200);

    const tokens = await launch(ehr);
    ehr.fail({ area: 'token', status: 503, times: 1 });
    const unavailable = await tokenRequest(ehr, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: PUBLIC_CLIENT.client_id });
    expect(unavailable.status).toBe(503);
    expect((await tokenRequest(ehr, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: PUBLIC_CLIENT.client_id })).status).toBe(200);
  });

  it('returns only what changed after an update for _lastUpdated=gt, and forgets a removed resource', async () => {
    const { access_token: token } = await launch(ehr);
    const before: Bundle<Condition> = await fhirJson(token as string, 'Condition?patient=alice-example');
    const since = before.meta?.lastUpdated as string;
    const condition = before.entry?.[0]?.resource as Condition;

    const updated = await ehr.update({ ...condition, clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' }] } });
    expect(updated.meta?.versionId).not.toBe(condition.meta?.versionId);
    expect(Date.parse(updated.meta?.lastUpdated as string)).toBeGreaterThan(Date.parse(since));

    const changed: Bundle<Condition> = await fhirJson(token as string, `Condition?patient=alice-example&_lastUpdated=gt${encodeURIComponent(since)}`);
    expect(changed.total).toBe(1);
    expect(changed.entry?.[0]?.resource).toMatchObject({ id: condition.id, clinicalStatus: { coding: [{ code: 'resolved' }] }, meta: { versionId: updated.meta?.versionId } });
    expect(ehr.requests.at(-1)?.query._lastUpdated).toBe(`gt${since}`);
    const history = await fhirJson(token as string, `Condition/${condition.id}/_history`);
    expect(history.entry?.length).toBe(2);

    const nothingNew: Bundle = await fhirJson(token as string, `Condition?patient=alice-example&_lastUpdated=gt${encodeURIComponent(changed.meta?.lastUpdated as string)}`);
    expect(nothingNew.total).toBe(0);

    await ehr.remove('Condition', condition.id as string);
    const after: Bundle = await fhirJson(token as string, 'Condition?patient=alice-example');
    expect(after.total).toBe((before.total as number) - 1);
    expect((await fhirGet(token, `Condition/${condition.id}`)).status).toBe(404);
  });

  it('generates large records deterministically and quickly', () => {
    const started = performance.now();
    const big = generatePatientRecords(42, { patientId: 'big', name: 'Big Record', resources: 5000 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(big.resources).toHaveLength(5000);
    expect(new Set(big.resources.map((r) => `${r.resourceType}/${r.id}`)).size).toBe(5000);
    const again = generatePatientRecords(42, { patientId: 'big', name: 'Big Record', resources: 5000 });
    expect(JSON.stringify(again.resources)).toBe(JSON.stringify(big.resources));
    const types = new Set<string>(big.resources.map((r) => r.resourceType));
    for (const type of ['Patient', 'AllergyIntolerance', 'Condition', 'MedicationRequest', 'MedicationStatement', 'Immunization', 'Observation', 'DiagnosticReport', 'Procedure', 'Encounter', 'FamilyMemberHistory', 'DocumentReference', 'Binary']) {
      expect(types.has(type), type).toBe(true);
    }
  });
});
