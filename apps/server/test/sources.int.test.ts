// On PostgreSQL too (vitest.config.ts): a launch's state is taken once by callbacks sent at once, which only races on a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceCallbackPath, type FhirSource, type PatientSources, type SourceCheckResult, type SourceConnection } from '@healthbook/shared';
import type { Condition } from '@medplum/fhirtypes';
import { useTestApp } from './build-app';
import { bearer, buildGrant, buildOrganization, buildUser, signIn, type BuiltOrganization, type BuiltUser } from './factories';
import { authorizeByHttp, startTestEhr, type TestEhr } from './ehr/test-ehr';

/**
 * Records that flow in from providers (issue 28), against the tests' own EHR (test/ehr: a real
 * OAuth 2.0 / OpenID Connect server, oidc-provider, and a FHIR R4 server on loopback):
 * the organisation's catalogue and its checks, the standalone launch with PKCE and a single-use
 * state, every failure a patient can meet, syncs (pagination, a token expiring, 403/429/500,
 * an update and a deletion at the source), provenance and the records' read-only rule,
 * disconnection, and the isolation of patients and organisations.
 */

const t = useTestApp();
const CLIENT_ID = 'healthbook-test';

let ehr: TestEhr;
let orgA: BuiltOrganization;
let orgB: BuiltOrganization;
const users = {} as Record<'adminA' | 'adminB' | 'alice' | 'other' | 'carerRo' | 'carerFull' | 'patientB', BuiltUser>;
const tokens = {} as Record<keyof typeof users, string>;
let source: FhirSource;

const inject = (who: keyof typeof users, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(tokens[who]), ...(payload ? { payload } : {}) });

const redirectUri = (org: { name: string }) => `${t.config.publicUrl}${sourceCallbackPath(org.name)}`;

/** A whole connection by the patient: connect, the EHR's sign-in and consent, the callback posted back. */
async function connect(who: keyof typeof users, username = 'alice', consent: 'allow' | 'deny' = 'allow', patient?: number) {
  const started = await inject(who, 'POST', '/api/v1/sources/connect/', { source_id: source.id, ...(patient ? { patient } : {}) });
  expect(started.statusCode, started.body).toBe(200);
  const back = await authorizeByHttp(ehr, started.json<{ authorize_url: string }>().authorize_url, { username, password: `${username}-password`, consent });
  return { back, params: Object.fromEntries(back.searchParams) };
}

async function sources(who: keyof typeof users, patient?: number): Promise<PatientSources> {
  const res = await inject(who, 'GET', `/api/v1/sources/${patient ? `?patient=${patient}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PatientSources>();
}

async function syncAndWait(who: keyof typeof users, connectionId: number, full = true): Promise<SourceConnection> {
  const res = await inject(who, 'POST', `/api/v1/sources/connections/${connectionId}/sync/${full ? '' : '?full=false'}`);
  expect(res.statusCode, res.body).toBe(200);
  await t.app.sources.idle();
  return (await sources(who)).connections.find((c) => c.id === connectionId)!;
}

async function conditions(who: keyof typeof users) {
  const res = await inject(who, 'GET', '/api/v1/hr/condition/?page_size=100');
  return res.json<{ results: Array<{ id: number; name: string; note: string | null; version: number; provenance: { source_name: string; resource: string; deleted_at: string | null } | null }> }>().results;
}

beforeAll(async () => {
  orgA = await buildOrganization(t.app, { name: 'sources-a', org_name: 'Clinic Alpha' });
  orgB = await buildOrganization(t.app, { name: 'sources-b', org_name: 'Clinic Beta' });
  ehr = await startTestEhr({
    clients: [{ client_id: CLIENT_ID, redirect_uris: [redirectUri(orgA), redirectUri(orgB)] }],
    // Alice's record is long enough for the vital signs to take several pages.
    patients: [
      { patientId: 'alice-example', name: 'Alice Example', seed: 1, username: 'alice', password: 'alice-password', resources: 260 },
      { patientId: 'bob-other', name: 'Bob Other', seed: 2, username: 'bob', password: 'bob-password' },
    ],
    accessTokenTtlSeconds: 300,
  });
  // A vital sign no category keeps: skipped, and said why.
  await ehr.seed([
    {
      resourceType: 'Observation',
      id: 'alice-respiratory-rate',
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '9279-1', display: 'Respiratory rate' }], text: 'Respiratory rate' },
      subject: { reference: 'Patient/alice-example' },
      effectiveDateTime: '2026-10-01T09:00:00Z',
      valueQuantity: { value: 16, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
    },
  ]);
  users.adminA = await buildUser(t.app, { org: orgA, roles: ['org_admin'] });
  users.adminB = await buildUser(t.app, { org: orgB, roles: ['org_admin'] });
  users.alice = await buildUser(t.app, { org: orgA, first_name: 'Alice', last_name: 'Example', dob: '1980-04-12' });
  users.other = await buildUser(t.app, { org: orgA, first_name: 'Olga', last_name: 'Other' });
  users.carerRo = await buildUser(t.app, { org: orgA });
  users.carerFull = await buildUser(t.app, { org: orgA });
  users.patientB = await buildUser(t.app, { org: orgB });
  for (const [key, user] of Object.entries(users)) tokens[key as keyof typeof users] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  const patientRow = await t.db.selectFrom('patients').select(['id', 'org_id']).where('user_id', '=', users.alice.id).executeTakeFirstOrThrow();
  await buildGrant(t.app, { patient: patientRow, grantee: users.carerRo, access: 'read-only' });
  await buildGrant(t.app, { patient: patientRow, grantee: users.carerFull, access: 'full' });
});

afterAll(async () => {
  await t.app.sources.stop();
  await ehr?.close();
});

describe('the organisation’s catalogue', () => {
  it('checks a source before keeping it, and says what failed', async () => {
    const checked = await inject('adminA', 'POST', '/api/v1/admin/sources/check/', { fhir_base_url: ehr.fhirBase });
    expect(checked.statusCode, checked.body).toBe(200);
    const result = checked.json<SourceCheckResult>();
    expect(result.ok).toBe(true);
    expect(result.checks.map((c) => c.check)).toEqual(['address', 'reachable', 'discovery', 'endpoints', 'pkce', 'scopes']);
    // Scopes the source does not list fail the check that names them.
    const odd = (await inject('adminA', 'POST', '/api/v1/admin/sources/check/', { fhir_base_url: ehr.fhirBase, scopes: 'launch/patient user/*.cruds' })).json<SourceCheckResult>();
    expect(odd.checks.at(-1)).toMatchObject({ check: 'scopes', ok: false, detail: expect.stringContaining('user/*.cruds') });

    // Nothing listens there: unreachable, in the reader's language.
    const down = await t.app.inject({ method: 'POST', url: '/api/v1/admin/sources/check/', headers: { ...bearer(tokens.adminA), 'accept-language': 'el' }, payload: { fhir_base_url: 'http://127.0.0.1:9/fhir' } });
    const failed = down.json<SourceCheckResult>();
    expect(failed.ok).toBe(false);
    expect(failed.checks.find((c) => c.check === 'reachable')).toMatchObject({ ok: false, detail: expect.stringContaining('διακομιστή') });

    // A server without SMART's discovery document: the field says why, and nothing is kept.
    const bad = await inject('adminA', 'POST', '/api/v1/admin/sources/', { name: 'No SMART', fhir_base_url: `${ehr.origin}/nothing-here`, client_id: CLIENT_ID });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fhir_base_url: string[] }>().fhir_base_url[0]).toMatch(/SMART configuration/);
    expect((await inject('adminA', 'GET', '/api/v1/admin/sources/')).json<FhirSource[]>()).toEqual([]);
  });

  it('keeps a source with its discovered endpoints; a secret is never answered back', async () => {
    const secret = 'a-confidential-secret-nobody-reads-back';
    const made = await inject('adminA', 'POST', '/api/v1/admin/sources/', { name: 'Test EHR', fhir_base_url: `${ehr.fhirBase}/`, client_id: CLIENT_ID, client_secret: secret });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.body).not.toContain(secret);
    source = made.json<FhirSource>();
    expect(source).toMatchObject({ fhir_base_url: ehr.fhirBase, confidential: true, redirect_uri: redirectUri(orgA), token_endpoint: ehr.tokenEndpoint });
    const sealed = await t.db.selectFrom('fhir_sources').select('client_secret_sealed').where('id', '=', source.id).executeTakeFirstOrThrow();
    expect(sealed.client_secret_sealed).not.toContain(secret);

    // The test EHR's client is a public one: the secret goes (null), and the source stays.
    const publicClient = await inject('adminA', 'PATCH', `/api/v1/admin/sources/${source.id}/`, { client_secret: null });
    expect(publicClient.json<FhirSource>().confidential).toBe(false);
    expect((await inject('adminA', 'POST', '/api/v1/admin/sources/', { name: 'test ehr', fhir_base_url: ehr.fhirBase, client_id: 'x' })).json()).toMatchObject({ name: [expect.any(String)] });
  });

  it('is the organisation’s own: another organisation’s admin, and patients, cannot reach it', async () => {
    expect((await inject('adminB', 'GET', '/api/v1/admin/sources/')).json<FhirSource[]>()).toEqual([]);
    expect((await inject('adminB', 'PATCH', `/api/v1/admin/sources/${source.id}/`, { enabled: false })).statusCode).toBe(404);
    expect((await inject('adminB', 'DELETE', `/api/v1/admin/sources/${source.id}/`)).statusCode).toBe(404);
    expect((await inject('adminB', 'GET', `/api/v1/admin/sources/?org_id=${orgA.id}`)).statusCode).toBe(404);
    expect((await inject('alice', 'GET', '/api/v1/admin/sources/')).statusCode).toBe(403);
    expect((await inject('alice', 'PATCH', `/api/v1/admin/sources/${source.id}/`, { enabled: false })).statusCode).toBe(403);
    expect((await inject('alice', 'POST', '/api/v1/admin/sources/check/', { fhir_base_url: ehr.fhirBase })).statusCode).toBe(403);
    // Organisation B's patients are offered B's sources only (none); A's cannot be connected from B.
    expect((await sources('patientB')).sources).toEqual([]);
    expect((await inject('patientB', 'POST', '/api/v1/sources/connect/', { source_id: source.id })).statusCode).toBe(404);
  });
});

describe('connecting (standalone launch)', () => {
  let connectionId: number;

  it('sends the browser to the source with PKCE S256, state and aud', async () => {
    const res = await inject('alice', 'POST', '/api/v1/sources/connect/', { source_id: source.id });
    const url = new URL(res.json<{ authorize_url: string }>().authorize_url);
    expect(url.origin + url.pathname).toBe(ehr.authorizationEndpoint);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: redirectUri(orgA), code_challenge_method: 'S256', aud: ehr.fhirBase, scope: source.scopes });
    expect(url.searchParams.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  });

  it('a patient who denies consent connects nothing', async () => {
    const { params } = await connect('alice', 'alice', 'deny');
    expect(params.error).toBe('access_denied');
    const res = await inject('alice', 'POST', '/api/v1/sources/callback/', params);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'denied', detail: expect.stringContaining('Test EHR') });
    expect((await sources('alice')).connections).toEqual([]);
  });

  it('connects: the code traded with the verifier, the tokens sealed, the records brought in', async () => {
    const before = ehr.tokenRequests.length;
    const { params } = await connect('alice');
    // Someone else cannot finish another user's launch (nothing said about it).
    const stolen = await inject('other', 'POST', '/api/v1/sources/callback/', params);
    expect(stolen.json()).toMatchObject({ code: 'state' });
    // The launch was used up by that attempt: the state is single-use whoever posts it.
    expect((await inject('alice', 'POST', '/api/v1/sources/callback/', params)).json()).toMatchObject({ code: 'state' });
    expect(ehr.tokenRequests.length).toBe(before);

    const again = await connect('alice');
    // Many posts of one callback at once: one connection, the rest refused.
    const answers = await Promise.all(Array.from({ length: 8 }, () => inject('alice', 'POST', '/api/v1/sources/callback/', again.params)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    const connection = answers.find((a) => a.statusCode === 200)!.json<SourceConnection>();
    connectionId = connection.id;
    expect(ehr.tokenRequests.filter((r) => r.grantType === 'authorization_code').at(-1)).toMatchObject({ hasCodeVerifier: true, status: 200 });

    const row = await t.db.selectFrom('source_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
    expect(row.source_patient_id).toBe('alice-example');
    const tokenUsed = ehr.requests.find((r) => r.area === 'fhir' && r.token)?.token ?? '';
    expect(row.access_token_sealed).not.toContain(tokenUsed.slice(0, 12) || 'never');

    await t.app.sources.idle();
    const listed = (await sources('alice')).connections;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 'up_to_date', source_name: 'Test EHR', problem: null });
    expect(listed[0]!.records).toBeGreaterThan(10);
    expect(listed[0]!.last_run).toMatchObject({ full: true, refused: [] });
    expect(listed[0]!.last_run!.added).toBe(listed[0]!.records);
    // Every search asked for the token's patient, and pages were followed.
    const searches = ehr.requests.filter((r) => r.area === 'fhir' && r.token && r.path !== '/fhir/metadata' && !/^\/fhir\/(Patient|Binary)\//.test(r.path));
    expect(searches.filter((r) => r.query.patient !== 'alice-example' || r.status !== 200).map((r) => `${r.status} ${r.url}`)).toEqual([]);
    expect(searches.some((r) => r.query._offset)).toBe(true);

    // The documents' files are in the Document Center, in the source's folder: the PDF (a Binary);
    // the HTML note (by address on the source's origin) is not a type the Document Center keeps, and is said so.
    expect(listed[0]!.last_run!.documents).toBe(1);
    expect(listed[0]!.last_run!.skipped).toContainEqual({ type: 'DocumentReference', count: 1, reason: expect.stringContaining('PDF and images') });
    // Every reason is a sentence with its values in it, never a placeholder.
    expect(listed[0]!.last_run!.skipped).toContainEqual({ type: 'Observation', count: 1, reason: 'A measurement the health record does not keep.' });
    expect(listed[0]!.last_run!.skipped.filter((s) => s.reason.includes('{{'))).toEqual([]);
    expect(ehr.requests.some((r) => r.area === 'file' && r.status === 200)).toBe(true);
    const folders = (await inject('alice', 'GET', '/api/v1/documents/folders/')).json<Array<{ name: string; documents: number }>>();
    expect(folders.find((f) => f.name === 'Test EHR')?.documents).toBe(listed[0]!.last_run!.documents);

    const list = await conditions('alice');
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]!.provenance).toMatchObject({ source_name: 'Test EHR', resource: expect.stringMatching(/^Condition\//), deleted_at: null });
  });

  it('another patient’s data never mixes in, and others see nothing of the connection', async () => {
    const bobConditions = ehr.resourcesOf('bob-other', 'Condition') as Condition[];
    const names = new Set((await conditions('alice')).map((c) => c.name));
    for (const c of bobConditions) {
      const text = c.code?.text ?? c.code?.coding?.[0]?.display;
      const aliceHasIt = (ehr.resourcesOf('alice-example', 'Condition') as Condition[]).some((a) => (a.code?.text ?? a.code?.coding?.[0]?.display) === text);
      if (text && !aliceHasIt) expect(names.has(text)).toBe(false);
    }
    expect((await sources('other')).connections).toEqual([]);
    expect((await inject('other', 'POST', `/api/v1/sources/connections/${connectionId}/sync/`)).statusCode).toBe(404);
    expect((await inject('patientB', 'DELETE', `/api/v1/sources/connections/${connectionId}/`)).statusCode).toBe(404);
    // A read-only carer may not see or manage connections; a full-access one may.
    expect((await inject('carerRo', 'GET', `/api/v1/sources/?patient=${await alicePatientId()}`)).statusCode).toBe(403);
    expect((await sources('carerFull', await alicePatientId())).connections).toHaveLength(1);
  });

  it('syncs again without duplicates; a change updates in place, a deletion is marked', async () => {
    const unchanged = await syncAndWait('alice', connectionId);
    expect(unchanged.last_run).toMatchObject({ added: 0, updated: 0, deleted: 0, documents: 0 });
    const count = unchanged.records;

    const [first, second] = ehr.resourcesOf('alice-example', 'Condition') as Condition[];
    await ehr.update({ ...first!, code: { text: 'Renamed at the source' } });
    await ehr.remove('Condition', second!.id!);
    const after = await syncAndWait('alice', connectionId);
    expect(after.last_run).toMatchObject({ added: 0, updated: 1, deleted: 1 });
    expect(after.records).toBe(count);
    const list = await conditions('alice');
    const renamed = list.find((c) => c.provenance?.resource === `Condition/${first!.id}`)!;
    expect(renamed).toMatchObject({ name: 'Renamed at the source', version: 2 });
    expect(list.find((c) => c.provenance?.resource === `Condition/${second!.id}`)!.provenance!.deleted_at).not.toBeNull();
    const history = (await inject('alice', 'GET', `/api/v1/hr/condition/${renamed.id}/history/`)).json<Array<{ version: number }>>();
    expect(history.map((h) => h.version)).toEqual([2, 1]);
  });

  it('the daily sync asks only what changed (_lastUpdated), and finds a change', async () => {
    const [first] = ehr.resourcesOf('alice-example', 'Condition') as Condition[];
    await ehr.update({ ...first!, code: { text: 'Changed since the last sync' } });
    const since = ehr.requests.length;
    const run = await syncAndWait('alice', connectionId, false);
    expect(run.last_run).toMatchObject({ full: false, added: 0, updated: 1, deleted: 0 });
    const searches = ehr.requests.slice(since).filter((r) => r.area === 'fhir' && r.token && r.query.patient);
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.every((r) => r.query._lastUpdated?.startsWith('gt'))).toBe(true);
    expect((await conditions('alice')).some((c) => c.name === 'Changed since the last sync')).toBe(true);
  });

  it('a synced record is read-only but for the patient’s note and private mark', async () => {
    const [record] = (await conditions('alice')).filter((c) => !c.provenance?.deleted_at);
    const renamed = await inject('alice', 'PATCH', `/api/v1/hr/condition/${record!.id}/`, { name: 'My own name' });
    expect(renamed.statusCode).toBe(403);
    expect(renamed.json<{ detail: string }>().detail).toContain('Test EHR');
    const noted = await inject('alice', 'PATCH', `/api/v1/hr/condition/${record!.id}/`, { note: 'Asked Dr Grey about it' });
    expect(noted.statusCode, noted.body).toBe(200);
    expect((await inject('alice', 'DELETE', `/api/v1/hr/condition/${record!.id}/`)).statusCode).toBe(403);
    // The note survives the next sync.
    await syncAndWait('alice', connectionId);
    expect((await conditions('alice')).find((c) => c.id === record!.id)!.note).toBe('Asked Dr Grey about it');
  });

  it('goes on past a type the source refuses, retries 429 and 500, refreshes an expired token', async () => {
    ehr.fail({ area: 'fhir', type: 'Immunization', status: 403 });
    ehr.fail({ area: 'fhir', type: 'Procedure', status: 429, times: 1 });
    ehr.fail({ area: 'fhir', type: 'Encounter', status: 500, times: 1 });
    ehr.expireAccessTokens();
    const refreshes = ehr.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
    const run = await syncAndWait('alice', connectionId);
    ehr.clearFaults();
    expect(run.status).toBe('up_to_date');
    expect(run.last_run!.refused).toEqual([{ type: 'Immunization', status: 403 }]);
    expect(ehr.tokenRequests.filter((r) => r.grantType === 'refresh_token' && r.status === 200).length).toBe(refreshes + 1);
    // A full run that missed a type does not mark that type's records deleted.
    expect(run.last_run!.deleted).toBe(0);
  });

  it('a source down throughout fails the run, said to the patient; a revoked grant needs reconnecting', async () => {
    ehr.fail({ area: 'fhir', status: 503 });
    const failed = await syncAndWait('alice', connectionId);
    ehr.clearFaults();
    expect(failed).toMatchObject({ status: 'failed', problem: expect.stringContaining('Test EHR') });

    ehr.revokeTokens();
    const revoked = await syncAndWait('alice', connectionId);
    expect(revoked).toMatchObject({ status: 'needs_reconnect', problem: expect.stringContaining('Connect again') });
    expect((await inject('alice', 'POST', `/api/v1/sources/connections/${connectionId}/sync/`)).statusCode).toBe(409);

    // Reconnecting the same source finds its records again: none added twice.
    const records = revoked.records;
    const { params } = await connect('alice');
    expect((await inject('alice', 'POST', '/api/v1/sources/callback/', params)).statusCode).toBe(200);
    await t.app.sources.idle();
    const back = (await sources('alice')).connections[0]!;
    expect(back).toMatchObject({ id: connectionId, status: 'up_to_date' });
    expect(back.records).toBe(records);
    expect(back.last_run!.added).toBe(0);
  });

  it('disconnects: tokens deleted, records kept; then removed when asked', async () => {
    const before = (await conditions('alice')).length;
    const revocations = ehr.requests.filter((r) => r.path === '/auth/revoke').length;
    expect((await inject('alice', 'DELETE', `/api/v1/sources/connections/${connectionId}/`)).statusCode).toBe(204);
    // The grant ends at the source too (RFC 7009), not only here.
    expect(ehr.requests.filter((r) => r.path === '/auth/revoke' && r.status === 200).length).toBe(revocations + 1);
    const row = await t.db.selectFrom('source_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'disconnected', access_token_sealed: null, refresh_token_sealed: null });
    expect((await sources('alice')).connections).toEqual([]);
    expect((await conditions('alice')).length).toBe(before);

    const { params } = await connect('alice');
    const again = (await inject('alice', 'POST', '/api/v1/sources/callback/', params)).json<SourceConnection>();
    await t.app.sources.idle();
    expect((await inject('alice', 'DELETE', `/api/v1/sources/connections/${again.id}/?remove_records=true`)).statusCode).toBe(204);
    expect((await conditions('alice')).filter((c) => c.provenance)).toEqual([]);
  });
});

describe('the audit trail', () => {
  it('records the connection, the syncs and the disconnection in the patient’s trail', async () => {
    const rows = await t.db.selectFrom('audit_log').select(['action']).where('subject', '=', `patient:${await alicePatientId()}`).execute();
    const actions = new Set(rows.map((r) => r.action));
    for (const action of ['source_connect', 'source_sync', 'source_disconnect', 'connection_read']) expect(actions.has(action), action).toBe(true);
  });
});

async function alicePatientId(): Promise<number> {
  const row = await t.db.selectFrom('patients').select('id').where('user_id', '=', users.alice.id).executeTakeFirstOrThrow();
  return row.id;
}
