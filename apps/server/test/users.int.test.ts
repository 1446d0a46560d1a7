import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserDto } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { bearer, buildMfaDevice, buildOrganization, buildUser, PNG_1X1, signIn, type BuiltUser } from './factories';

const t = useTestApp({ config: { authRateLimit: 1000 } });

type Org = { id: number; name: string; org_name: string };
let orgA: Org;
let orgB: Org;

beforeAll(async () => {
  orgA = await buildOrganization(t.app, { name: 'users-a', org_name: 'Clinic A' });
  orgB = await buildOrganization(t.app, { name: 'users-b', org_name: 'Clinic B' });
});

const newUser = (opts: Partial<Parameters<typeof buildUser>[1]> = {}) => buildUser(t.app, { org: orgA, ...opts });
const tokenOf = async (u: BuiltUser) => (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access;
const as = async (opts: Partial<Parameters<typeof buildUser>[1]> = {}) => {
  const user = await newUser(opts);
  return { user, token: await tokenOf(user) };
};

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), ...headers }, ...(payload ? { payload } : {}) });

const auditRows = (action: string) =>
  t.db.selectFrom('audit_log').select(['actor_user_id', 'org_id', 'subject', 'outcome', 'detail']).where('action', '=', action).orderBy('id').execute();

/** A multipart/form-data body with one file part. */
function multipart(data: Buffer, opts: { field?: string; filename?: string; type?: string } = {}) {
  const boundary = `----hbtest${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'avatar.png'}"\r\n` +
      `Content-Type: ${opts.type ?? 'image/png'}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const upload = (token: string, data: Buffer, opts: Parameters<typeof multipart>[1] = {}) => {
  const body = multipart(data, opts);
  return t.app.inject({ method: 'POST', url: '/api/v1/users/avatar/', headers: { ...bearer(token), ...body.headers }, payload: body.payload });
};
/** A tiny but valid GIF (1x1, transparent). */
const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe('PUT /api/v1/me/', () => {
  it('changes the fields sent and answers the user as stored', async () => {
    const { user, token } = await as({ first_name: 'Maria' });
    const res = await call('PUT', '/api/v1/me/', token, {
      last_name: '  Papadopoulou ',
      gender: 'female',
      sex: { key: 'female', value: 'whatever the client shows' },
      dob: '04/02/1980',
      zip: '10558',
      city: 'Athens',
      phone_number: '+30 210 000 0000',
      imperial_units: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user_id: user.id,
      first_name: 'Maria',
      last_name: 'Papadopoulou',
      gender: { key: 'female', value: 'Female' },
      sex: { key: 'female', value: 'Female' },
      dob: '1980-04-02',
      zip_code: '10558',
      city: 'Athens',
      phone_number: '+30 210 000 0000',
      imperial_units: true,
    });
    // GET /me/ sees the same record.
    expect((await call('GET', '/api/v1/me/', token)).json()).toEqual(res.json());
  });

  it('keeps names in any script, without invisible characters around them', async () => {
    const { token } = await as();
    const res = await call('PUT', '/api/v1/me/', token, { first_name: '\u200BΕλένη\u200B ', last_name: 'Παπαδοπούλου-Σμιθ' });
    expect(res.json()).toMatchObject({ first_name: 'Ελένη', last_name: 'Παπαδοπούλου-Σμιθ' });
  });

  it('takes zip_code and ISO dates, clears optional text sent empty and leaves the rest alone', async () => {
    const { token } = await as();
    await call('PUT', '/api/v1/me/', token, { city: 'Patras', address: '1 Main St', zip_code: '26221', dob: '1990-12-31' });
    const res = await call('PUT', '/api/v1/me/', token, { city: '', address: null, dob: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ city: null, address: null, dob: null, zip_code: '26221' });
  });

  it('merges settings into the stored ones', async () => {
    const { token } = await as();
    expect((await call('PUT', '/api/v1/me/', token, { settings: { dark: true } })).json().settings).toEqual({ dark: true });
    const res = await call('PUT', '/api/v1/me/', token, { settings: { language: 'el', isWizardMinimized: true } });
    expect(res.json().settings).toEqual({ dark: true, language: 'el', isWizardMinimized: true });
    const bad = await call('PUT', '/api/v1/me/', token, { settings: { language: 'fr', theme: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(expect.arrayContaining(['settings.language']));
  });

  it('accepts the same e-mail back (any case) but refuses to change it, with a localised field error', async () => {
    const { user, token } = await as();
    expect((await call('PUT', '/api/v1/me/', token, { email: user.email.toUpperCase(), city: 'Volos' })).statusCode).toBe(200);
    const res = await call('PUT', '/api/v1/me/', token, { email: 'someone-else@example.test', city: 'Larissa' }, { 'accept-language': 'el' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['Χρησιμοποιήστε την «Αλλαγή e-mail» για να αλλάξετε τη διεύθυνση σύνδεσής σας.'] });
    // Nothing of a refused request is written.
    const me = (await call('GET', '/api/v1/me/', token)).json<UserDto>();
    expect(me).toMatchObject({ email: user.email, city: 'Volos' });
  });

  it('ignores has_mfa_enabled (it follows the confirmed devices)', async () => {
    const { token } = await as();
    const res = await call('PUT', '/api/v1/me/', token, { has_mfa_enabled: true, credential: 'MD' });
    expect(res.json()).toMatchObject({ has_mfa_enabled: false, mfa_devices: [], credential: 'MD' });
  });

  it.each([
    [{ dob: '13/01/1980' }, { dob: ['Invalid date format'] }],
    [{ dob: `${new Date().getUTCFullYear() + 1}-01-01` }, { dob: ['The date of birth cannot be in the future'] }],
    [{ first_name: '   ' }, { first_name: ['First name is required'] }],
    [{ first_name: '\u200B \u200C\uFEFF' }, { first_name: ['First name is required'] }],
    [{ last_name: '1984' }, { last_name: ['A name needs at least one letter.'] }],
    [{ first_name: 'Ma\nria' }, { first_name: ['This field cannot contain control characters or line breaks.'] }],
    [{ city: 'Ath\u0000ens' }, { city: ['Null characters are not allowed.'] }],
    [{ gender: { key: 'robot', value: 'Robot' } }, { gender: ['Choose one of the options.'] }],
  ])('refuses %j with field errors', async (payload, expected) => {
    const { token } = await as();
    const res = await call('PUT', '/api/v1/me/', token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expected);
  });

  it('needs a signed-in user', async () => {
    expect((await call('PUT', '/api/v1/me/', undefined, { city: 'x' })).statusCode).toBe(401);
  });
});

describe('GET and PUT /api/v1/users/{id}', () => {
  let patient: BuiltUser;
  let patientToken: string;
  let neighbourToken: string;
  let adminA: { user: BuiltUser; token: string };
  let adminB: { user: BuiltUser; token: string };
  let superadmin: { user: BuiltUser; token: string };

  beforeAll(async () => {
    ({ user: patient, token: patientToken } = await as({ first_name: 'Pat' }));
    ({ token: neighbourToken } = await as());
    adminA = await as({ roles: ['org_admin'] });
    adminB = await as({ org: orgB, roles: ['org_admin'] });
    superadmin = await as({ org: orgB, roles: ['org_admin'], is_superadmin: true });
  });

  it('answers one’s own record, without an audit entry', async () => {
    const before = (await auditRows('user_read')).length;
    const res = await call('GET', `/api/v1/users/${patient.id}`, patientToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user_id: patient.id, first_name: 'Pat', email: patient.email });
    expect(await auditRows('user_read')).toHaveLength(before);
    const put = await call('PUT', `/api/v1/users/${patient.id}`, patientToken, { state: 'Attica' });
    expect(put.json()).toMatchObject({ user_id: patient.id, state: 'Attica' });
  });

  it('answers 404 to another patient, for reading and changing, and changes nothing', async () => {
    const read = await call('GET', `/api/v1/users/${patient.id}`, neighbourToken);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ detail: 'Not found.' });
    const write = await call('PUT', `/api/v1/users/${patient.id}`, neighbourToken, { first_name: 'Mallory' });
    expect(write.statusCode).toBe(404);
    const row = await t.db.selectFrom('users').select('first_name').where('id', '=', patient.id).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Pat');
    // The same answer as for a user that does not exist.
    expect((await call('GET', '/api/v1/users/2147483000', neighbourToken)).json()).toEqual(read.json());
  });

  it('answers 404 to an admin of another organisation', async () => {
    expect((await call('GET', `/api/v1/users/${patient.id}`, adminB.token)).statusCode).toBe(404);
    expect((await call('PUT', `/api/v1/users/${patient.id}`, adminB.token, { first_name: 'Mallory' })).statusCode).toBe(404);
    const row = await t.db.selectFrom('users').select('first_name').where('id', '=', patient.id).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Pat');
  });

  it('lets an admin of the same organisation read and change the user, audited', async () => {
    const read = await call('GET', `/api/v1/users/${patient.id}`, adminA.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ user_id: patient.id, email: patient.email });
    const write = await call('PUT', `/api/v1/users/${patient.id}`, adminA.token, { phone_number: '+30 2310 000000', email: patient.email });
    expect(write.statusCode).toBe(200);
    expect(write.json()).toMatchObject({ user_id: patient.id, phone_number: '+30 2310 000000' });
    expect((await auditRows('user_read')).filter((r) => r.actor_user_id === adminA.user.id)).toEqual([
      expect.objectContaining({ org_id: orgA.id, subject: `user:${patient.id}`, outcome: 'success' }),
    ]);
    expect((await auditRows('user_update')).filter((r) => r.actor_user_id === adminA.user.id)).toEqual([
      expect.objectContaining({ org_id: orgA.id, subject: `user:${patient.id}`, outcome: 'success', detail: expect.objectContaining({ fields: 'phone_number' }) }),
    ]);
    // Even an admin cannot change the sign-in e-mail here.
    const email = await call('PUT', `/api/v1/users/${patient.id}`, adminA.token, { email: 'new@example.test' });
    expect(email.statusCode).toBe(400);
    expect(Object.keys(email.json())).toEqual(['email']);
  });

  it('lets a super admin read and change a user of any organisation, audited in that organisation', async () => {
    const read = await call('GET', `/api/v1/users/${patient.id}`, superadmin.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ user_id: patient.id, user_org_details: [{ org: orgA.id, org_name: 'Clinic A', name: 'users-a' }] });
    const write = await call('PUT', `/api/v1/users/${patient.id}`, superadmin.token, { credential: 'RN' });
    expect(write.statusCode).toBe(200);
    expect(write.json()).toMatchObject({ credential: 'RN' });
    const rows = (await auditRows('user_update')).filter((r) => r.actor_user_id === superadmin.user.id);
    expect(rows).toEqual([expect.objectContaining({ org_id: orgA.id, subject: `user:${patient.id}`, detail: expect.objectContaining({ actor_org: orgB.id }) })]);
  });

  it('refuses an id that is not a number', async () => {
    expect((await call('GET', '/api/v1/users/abc', patientToken)).statusCode).toBe(400);
  });
});

describe('a sign-in waiting for its second factor', () => {
  it('gets 403 on every profile route', async () => {
    const user = await newUser();
    await buildMfaDevice(t.app, { user });
    const limited = await tokenOf(user);
    const routes: Array<[Method, string, object?]> = [
      ['GET', '/api/v1/me/'],
      ['PUT', '/api/v1/me/', { city: 'x' }],
      ['PUT', '/api/v1/me/password/', { current_password: user.password, password: 'Another#Pass1' }],
      ['GET', `/api/v1/users/${user.id}`],
      ['PUT', `/api/v1/users/${user.id}`, { city: 'x' }],
      ['DELETE', '/api/v1/users/avatar/'],
    ];
    for (const [method, url, payload] of routes) {
      const res = await call(method, url, limited, payload);
      expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 403 });
    }
    expect((await upload(limited, PNG_1X1)).statusCode).toBe(403);
  });
});

describe('avatar', () => {
  it('stores a PNG, serves it by an unguessable address without a token, and replaces it', async () => {
    const { user, token } = await as();
    const res = await upload(token, PNG_1X1);
    expect(res.statusCode).toBe(200);
    const url = res.json<UserDto>().profile_picture!;
    expect(url).toMatch(new RegExp(`^/api/v1/users/avatar/${user.id}-[A-Za-z0-9_-]{24}\\.png$`));
    expect((await call('GET', '/api/v1/me/', token)).json().profile_picture).toBe(url);

    const image = await t.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('private, max-age=86400');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(image.rawPayload.equals(PNG_1X1)).toBe(true);

    const oldKey = (await t.db.selectFrom('users').select('avatar_key').where('id', '=', user.id).executeTakeFirstOrThrow()).avatar_key!;
    // A GIF declared as PNG is stored as what it is.
    const second = await upload(token, GIF_1X1, { filename: 'me.png', type: 'image/png' });
    expect(second.statusCode).toBe(200);
    const next = second.json<UserDto>().profile_picture!;
    expect(next).toMatch(/\.gif$/);
    expect((await t.app.inject({ method: 'GET', url: next })).headers['content-type']).toBe('image/gif');
    // The old address and file are gone.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect(await t.app.storage.get(oldKey)).toBeNull();
  });

  it('refuses what is not an image, even declared as image/png, and keeps the current avatar', async () => {
    const { user, token } = await as();
    const first = (await upload(token, PNG_1X1)).json<UserDto>().profile_picture;
    for (const [data, type] of [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/png'],
      [Buffer.from('%PDF-1.7\n%...'), 'image/png'],
      [PNG_1X1, 'text/html'],
    ] as const) {
      const res = await upload(token, data, { type });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ file: ['The file is not a PNG, JPEG, GIF or WebP image.'] });
    }
    expect((await call('GET', '/api/v1/me/', token)).json().profile_picture).toBe(first);
    const files = await t.db.selectFrom('users').select('avatar_key').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(files.avatar_key).toMatch(/\.png$/);
  });

  it('refuses an image over 5 MB with a localised field error', async () => {
    const { token } = await as();
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(5 * 1024 * 1024 + 1 - PNG_1X1.length)]);
    const body = multipart(big);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/avatar/',
      headers: { ...bearer(token), ...body.headers, 'accept-language': 'el' },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ file: ['Η εικόνα πρέπει να είναι έως 5 MB.'] });
    expect((await call('GET', '/api/v1/me/', token)).json().profile_picture).toBeNull();
  });

  it('asks for a file when there is none', async () => {
    const { token } = await as();
    const json = await call('POST', '/api/v1/users/avatar/', token, { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ file: ['Choose an image file (PNG, JPEG, GIF or WebP).'] });
    expect((await upload(token, PNG_1X1, { field: 'picture' })).statusCode).toBe(400);
    expect((await upload(token, Buffer.alloc(0))).statusCode).toBe(400);
  });

  it('removes the avatar: profile_picture null, the address answers 404', async () => {
    const { token } = await as();
    const url = (await upload(token, PNG_1X1)).json<UserDto>().profile_picture!;
    const res = await call('DELETE', '/api/v1/users/avatar/', token);
    expect(res.statusCode).toBe(200);
    expect(res.json().profile_picture).toBeNull();
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    // Removing again is harmless.
    expect((await call('DELETE', '/api/v1/users/avatar/', token)).statusCode).toBe(200);
  });

  it('answers 404 for a well-formed address that is nobody’s avatar', async () => {
    const { user, token } = await as();
    const url = (await upload(token, PNG_1X1)).json<UserDto>().profile_picture!;
    const other = await newUser();
    // Another user's id with this file's random part, and a made-up random part.
    expect((await t.app.inject({ method: 'GET', url: url.replace(`/${user.id}-`, `/${other.id}-`) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/users/avatar/${user.id}-${'A'.repeat(24)}.png` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/avatar/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(400);
  });

  it('needs a full sign-in to upload or remove', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/avatar/', ...multipart(PNG_1X1) })).statusCode).toBe(401);
    expect((await call('DELETE', '/api/v1/users/avatar/')).statusCode).toBe(401);
  });
});

describe('PUT /api/v1/me/password/', () => {
  const NEW_PASSWORD = 'Brand-New#Pass9';

  it('refuses a wrong current password and a new one equal to it, with field errors', async () => {
    const { user, token } = await as();
    const wrong = await call('PUT', '/api/v1/me/password/', token, { current_password: 'Nope#Nope1', password: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ current_password: ['The current password is not correct.'] });
    const same = await call('PUT', '/api/v1/me/password/', token, { current_password: user.password, password: user.password });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ password: ['The new password must differ from the current one.'] });
    const weak = await call('PUT', '/api/v1/me/password/', token, { current_password: user.password, password: 'short' });
    expect(weak.json()).toEqual({ password: ['Passwords does not meet requirements'] });
    const failures = (await auditRows('password_change')).filter((r) => r.actor_user_id === user.id);
    expect(failures.map((r) => r.outcome)).toEqual(['failure', 'failure']);
  });

  it('changes the password, ends every other session but this one, and tells the user by e-mail', async () => {
    const user = await newUser();
    const creds = { email: user.email, password: user.password, org_id: user.org_id };
    const current = await signIn(t.app, creds);
    const other = await signIn(t.app, creds);

    const res = await call('PUT', '/api/v1/me/password/', current.access, { current_password: user.password, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Your password was changed.' });

    // The other session is over: its refresh and its access token answer 401.
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh: other.refresh } })).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/me/', other.access)).statusCode).toBe(401);
    // This one goes on.
    expect((await call('GET', '/api/v1/me/', current.access)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh: current.refresh } })).statusCode).toBe(200);

    // Only the new password signs in now.
    const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { email: user.email, password, org: user.org_id } });
    expect((await login(user.password)).statusCode).toBe(401);
    expect((await login(NEW_PASSWORD)).statusCode).toBe(200);

    const row = await t.db.selectFrom('users').select('password_changed_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_changed_at).not.toBeNull();
    const mail = await t.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', user.email).execute();
    expect(mail).toEqual([expect.objectContaining({ subject: `Your ${orgA.org_name} password was changed` })]);
    expect((await auditRows('password_change')).filter((r) => r.actor_user_id === user.id).map((r) => r.outcome)).toEqual(['success']);
  });
});
