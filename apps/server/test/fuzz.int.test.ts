import { describe, expect, it } from 'vitest';
import { useTestApp, testDbKind } from './build-app';
import { bearer, buildOrganization, buildUser, signIn } from './factories';
import { concreteUrl } from './routes';

/**
 * No 500 for bad input, anywhere: every route of the OpenAPI document (so a new route is
 * fuzzed without anyone listing it) gets hostile values in each of its body fields, query
 * parameters and path parameters, as a signed-out client and as a signed-in super admin.
 * Every answer must be a 4xx (or a success) with a bounded JSON body; the server must still
 * answer afterwards.
 */

const t = useTestApp();

const LONG = 'x'.repeat(20_000);
/** Values that broke or could break a server: NUL, huge and negative numbers, wrong types, odd Unicode. */
const VALUES: unknown[] = [
  '\u0000',
  'ab\u0000cd',
  '\u200B\u200C\uFEFF',
  '   ',
  '',
  LONG,
  '\uD800',
  '\u202Egnp.exe',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '😀'.repeat(50),
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53 + 2,
  -1,
  0,
  1.5,
  1e308,
  '99999999999',
  '-1',
  null,
  true,
  [],
  [1, 2, 3],
  {},
  { key: '\u0000' },
  Array.from({ length: 2000 }, (_, i) => i),
  // 70,000 keys where a record of answers or settings is expected (produced a 3.3 MB error body).
  Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [String(i + 1), 'v'])),
];
/** Path segments: NUL, overlong, traversal, bad percent-encoding, numbers out of range. */
const SEGMENTS = ['%00', 'a%00b', '%FF%FE', '..%2F..%2Fetc', 'x'.repeat(600), '99999999999', '-1', '0', '%E2%80%8B', 'null', '1e999'];
/** Whole bodies of the wrong kind, and 70,000 unknown keys. */
const BODIES: unknown[] = [[], 'text', 42, null, Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, 'v']))];

/**
 * A well-formed body for the operations that have one, so that a hostile value in one field
 * reaches the code behind validation of the others (a route without an entry is still fuzzed
 * field by field).
 */
function validBodies(org: { id: number }, admin: { email: string; password: string }): Record<string, Record<string, unknown>> {
  const person = { first_name: 'Fuzz', last_name: 'Person', dob: '1990-01-01', gender: 'female', email: 'fuzz.person@example.test' };
  return {
    'POST /api/v1/login/': { email: admin.email, password: 'Wrong#Password1', org: org.id },
    'POST /api/v1/refresh/': { refresh: 'not-a-token' },
    'POST /api/v1/logout/': { refresh: 'not-a-token' },
    'POST /api/v1/verify/': { code: '123456' },
    'POST /api/v1/users/validate/': { org_id: org.id, signup_code: 'ABCDEFGHJK' },
    'POST /api/v1/users/register/': { ...person, signup_code: 'ABCDEFGHJK', password: 'Good#Password1', is_terms_privacy_policy_accepted: true, org_id: org.id },
    'POST /api/v1/users/confirm_email/': { uid: 'MQ', token: 'abc' },
    'POST /api/v1/users/confirm_email_change/': { uid: 'MQ', token: 'abc' },
    'POST /api/v1/reset_password/': { org_id: org.id, email: 'someone@example.test' },
    'POST /api/v1/reset_password/confirm/': { uid: 'MQ', token: 'abc', password: 'Good#Password1' },
    'POST /api/v1/users/coderetrieval/': { org_id: org.id, first_name: 'Fuzz', last_name: 'Person', DOB: '01/01/1990' },
    'POST /api/v1/admin/invitations/': { ...person, org_id: org.id },
    'PUT /api/v1/me/': { first_name: 'Fuzz', city: 'Athens', settings: { dark: true } },
    'PUT /api/v1/users/:id': { first_name: 'Fuzz', city: 'Athens' },
    'PUT /api/v1/me/password/': { current_password: 'Wrong#Password1', password: 'Good#Password1' },
    'POST /api/v1/me/email/': { email: 'new.address@example.test', password: 'Wrong#Password1' },
    'POST /api/v1/mfa/register/hotp/': { device_type: 'email', password: 'Wrong#Password1' },
    'POST /api/v1/mfa/register/totp/': { device_type: 'google', password: 'Wrong#Password1' },
    'DELETE /api/v1/mfa/:uuid': { password: 'Wrong#Password1' },
    'POST /api/v1/users/profile_answers/': { answers: { '1': 'A+' } },
    'POST /api/v1/wizard/': { model_name: 'profile' },
  };
}

interface Operation {
  method: string;
  path: string;
  bodyFields: string[];
  queryFields: string[];
  pathParams: string[];
}

/** The operations of the OpenAPI document (JSON bodies; multipart is fuzzed on its own). */
function operations(doc: { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: object } }> }; parameters?: Array<{ in: string; name: string }> }>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.startsWith('/api/docs') || path.startsWith('/dev/')) continue;
    // Every health-record category's routes come from one mechanism: three categories (each
    // kind of field among them) stand for all fifteen, so the run stays within its time.
    const category = /^\/api\/v1\/hr\/([a-z]+)\//.exec(path)?.[1];
    if (category && !['summary', 'attachment', 'allergy', 'biometrics', 'travelhistory'].includes(category) && !path.includes('{id}/attachment')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const json = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path: path.replace(/\{([^}]+)\}/g, ':$1'),
        // A read-only field (contracts/round-trip.ts) is accepted whatever its value and dropped before anything reads it.
        bodyFields: Object.entries(json?.properties ?? {})
          .filter(([, field]) => !(field as { readOnly?: boolean }).readOnly)
          .map(([name]) => name),
        queryFields: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      });
    }
  }
  return ops;
}

describe('fuzzing every route', () => {
  it('never answers 5xx, and error bodies stay small', async () => {
    const org = await buildOrganization(t.app, { name: 'fuzz-clinic' });
    const admin = await buildUser(t.app, { org, is_superadmin: true, roles: ['org_admin'] });
    const { access } = await signIn(t.app, { email: admin.email, password: admin.password, org_id: org.id });
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(25);
    const bases = validBodies(org, admin);

    const serverErrors: string[] = [];
    let requests = 0;
    let largest = 0;
    const send = async (method: string, url: string, payload: unknown, token?: string) => {
      requests++;
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) } }),
        ...(payload === undefined && token ? { headers: bearer(token) } : {}),
      });
      largest = Math.max(largest, res.body.length);
      if (res.statusCode >= 500) serverErrors.push(`${method} ${url.slice(0, 120)} ${JSON.stringify(payload)?.slice(0, 80)} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
      return res;
    };

    for (const token of [undefined, access]) {
      for (const op of ops) {
        const url = concreteUrl(op.path);
        const hasBody = !['GET', 'HEAD', 'DELETE'].includes(op.method) || op.bodyFields.length > 0;
        const base = bases[`${op.method} ${op.path}`] ?? {};
        for (const field of op.bodyFields) {
          for (const value of VALUES) await send(op.method, url, { ...base, [field]: value }, token);
        }
        if (hasBody) for (const body of BODIES) await send(op.method, url, body, token);
        for (const field of op.queryFields) {
          for (const value of SEGMENTS) await send(op.method, `${url}?${field}=${value}`, hasBody ? {} : undefined, token);
        }
        for (const param of op.pathParams) {
          for (const value of SEGMENTS) {
            await send(op.method, op.path.replace(new RegExp(`:${param}\\b`), value).replace(/:[A-Za-z_]+/g, '1'), hasBody ? {} : undefined, token);
          }
        }
      }
    }
    console.log(`[fuzz:${testDbKind()}] ${requests} requests over ${ops.length} operations: ${serverErrors.length} answered 5xx; largest body ${largest} bytes`);
    expect(serverErrors).toEqual([]);
    // 70,000 unknown keys or 2,000 bad items still get a bounded answer.
    expect(largest).toBeLessThan(64 * 1024);
    expect((await t.app.inject({ method: 'HEAD', url: '/api/ping' })).statusCode).toBe(200);
    // Thousands of requests over every route: about a minute on an idle machine, over two while
    // other work shares its two cores. The bound is for a hang, not a timing.
  }, 360_000);

  it('multipart that is malformed, truncated or without a boundary is a 4xx', async () => {
    const org = await buildOrganization(t.app);
    const user = await buildUser(t.app, { org });
    const { access } = await signIn(t.app, { email: user.email, password: user.password, org_id: org.id });
    const boundary = '----fuzzboundary';
    const cases: Array<[string, string | Buffer]> = [
      ['multipart/form-data', 'whatever'],
      [`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG`],
      [`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${boundary}--\r\n`],
      [`multipart/form-data; boundary=${boundary}`, 'garbage without any boundary line'],
      [`multipart/form-data; boundary=${boundary}`, Buffer.alloc(0)],
      ['multipart/form-data; boundary=', `--\r\n`],
      ['multipart/mixed; boundary=x', `--x\r\n\r\nhello\r\n--x--`],
    ];
    const statuses: number[] = [];
    for (const [type, body] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/users/avatar/', headers: { ...bearer(access), 'content-type': type }, payload: body });
      statuses.push(res.statusCode);
      expect(res.statusCode, `${type}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${type}: ${res.body}`).toBeLessThan(500);
      expect(res.json()).toBeTypeOf('object');
    }
    console.log(`[fuzz:${testDbKind()}] multipart statuses: ${statuses.join(', ')}`);
  });
});
