// On PostgreSQL too (vitest.config.ts): sign-ups with one code or address sent at once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildInvitation, buildOrganization, buildUser, signIn } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const PUBLIC_URL = 'https://hb.example';
const PASSWORD = 'New-Patient#2024';

let sink: SmtpSink;
let t: TestApp;
let orgA: { id: number; name: string; org_name: string };
let orgB: { id: number; name: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL } });
  orgA = await buildOrganization(t.app, { name: 'signup-a', org_name: 'Signup Clinic A' });
  orgB = await buildOrganization(t.app, { name: 'signup-b' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const validate = (payload: Record<string, unknown>, headers?: Record<string, string>) => post('/api/v1/users/validate/', payload, headers);
const register = (payload: Record<string, unknown>, headers?: Record<string, string>) => post('/api/v1/users/register/', payload, headers);
const confirm = (payload: Record<string, unknown>, headers?: Record<string, string>) => post('/api/v1/users/confirm_email/', payload, headers);
const login = (email: string, password: string, org: number | string) => post('/api/v1/login/', { email, password, org });

let seq = 0;
const address = (label: string) => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** The sign-up form as the web app sends it, for an invitation. */
const form = (inv: { code: string; first_name: string; last_name: string; dob: string; gender: string }, over: Record<string, unknown> = {}) => ({
  user_id: null,
  first_name: inv.first_name,
  last_name: inv.last_name,
  sex: inv.gender,
  dob: inv.dob,
  email: address('patient'),
  password: PASSWORD,
  signup_code: inv.code,
  is_terms_privacy_policy_accepted: true,
  org_id: orgA.id,
  ...over,
});

const usersNamed = (email: string) =>
  t.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email.toLowerCase()).execute();
const invitationRow = (id: number) => t.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('GET /api/v1/users/options/', () => {
  it('answers the gender and sex choices in the reader language', async () => {
    const en = await t.app.inject({ method: 'GET', url: '/api/v1/users/options/' });
    expect(en.statusCode).toBe(200);
    const choices = [
      { key: 'male', value: 'Male' },
      { key: 'female', value: 'Female' },
      { key: 'other', value: 'Other' },
      { key: 'undisclosed', value: 'Prefer not to say' },
    ];
    expect(en.json()).toEqual({ gender: choices, sex: choices });

    const el = await t.app.inject({ method: 'GET', url: '/api/v1/users/options/', headers: { 'accept-language': 'el' } });
    expect(el.json().gender).toContainEqual({ key: 'female', value: 'Γυναίκα' });
    expect(el.json().sex).toContainEqual({ key: 'male', value: 'Άνδρας' });
    expect(el.headers.vary).toMatch(/accept-language/i);
  });
});

describe('POST /api/v1/users/validate/', () => {
  it('answers the invitation behind a pending code (case, spaces and dashes do not matter)', async () => {
    const inv = await buildInvitation(t.app, { org: orgA, first_name: 'Maria', last_name: 'Papadopoulou', dob: '1985-04-12', gender: 'female' });
    const typed = `${inv.code.slice(0, 5).toLowerCase()}-${inv.code.slice(5)} `;
    const res = await validate({ org_id: orgA.name, signup_code: typed });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user_id: null,
      first_name: 'Maria',
      last_name: 'Papadopoulou',
      dob: '1985-04-12',
      gender: { key: 'female', value: 'Female' },
      email: inv.email,
      signup_code: typed.trim(),
      org_id: orgA.id,
    });
    expect(res.body).not.toMatch(/code_hash/);
    // By id as well, and in Greek.
    const el = await validate({ org_id: orgA.id, signup_code: inv.code }, { 'accept-language': 'el' });
    expect(el.json().gender).toEqual({ key: 'female', value: 'Γυναίκα' });
  });

  it('gives the same 400 for an unknown, used, expired or other organisation’s code, and an unknown organisation', async () => {
    const used = await buildInvitation(t.app, { org: orgA, used_at: new Date() });
    const expired = await buildInvitation(t.app, { org: orgA, expires_at: new Date(Date.now() - 1000) });
    const otherOrg = await buildInvitation(t.app, { org: orgB });
    const answers = await Promise.all([
      validate({ org_id: orgA.id, signup_code: 'ABCDEFGHJK' }),
      validate({ org_id: orgA.id, signup_code: used.code }),
      validate({ org_id: orgA.id, signup_code: expired.code }),
      validate({ org_id: orgA.id, signup_code: otherOrg.code }),
      validate({ org_id: 'no-such-org', signup_code: otherOrg.code }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ signup_code: ['Access code is invalid'] });
    }
    // The other organisation's code is fine in its own organisation.
    expect((await validate({ org_id: orgB.id, signup_code: otherOrg.code })).statusCode).toBe(200);

    const el = await validate({ org_id: orgA.id, signup_code: 'ABCDEFGHJK' }, { 'accept-language': 'el' });
    expect(el.json()).toEqual({ signup_code: ['Ο κωδικός πρόσβασης δεν είναι έγκυρος'] });
  });

  it('requires the code and the organisation', async () => {
    const res = await validate({ org_id: orgA.id, signup_code: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ signup_code: ['Access code is required'] });
    const el = await validate({ org_id: orgA.id, signup_code: '' }, { 'accept-language': 'el' });
    expect(el.json()).toEqual({ signup_code: ['Ο κωδικός πρόσβασης είναι υποχρεωτικός'] });
    expect((await validate({ signup_code: 'ABCDEFGHJK' })).json()).toHaveProperty('org_id');
  });

  it('audits each attempt, never the code', async () => {
    const inv = await buildInvitation(t.app, { org: orgA });
    await validate({ org_id: orgA.id, signup_code: inv.code });
    const rows = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'invitation_validate').execute();
    expect(rows.some((r) => r.outcome === 'success' && r.detail.invitation === inv.id)).toBe(true);
    expect(rows.some((r) => r.outcome === 'failure')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(inv.code);
  });
});

describe('sign-up, confirmation and first sign-in', () => {
  it('invite → validate → register → (403 before confirming) → confirm → sign in', async () => {
    const admin = await buildUser(t.app, { org: orgA, roles: ['org_admin'] });
    const { access } = await signIn(t.app, { email: admin.email, password: admin.password, org_id: orgA.id });
    const invitedAt = address('invited');
    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/invitations/',
      headers: bearer(access),
      payload: { first_name: 'Nikos', last_name: 'Georgiou', dob: '03/21/1979', gender: 'male', email: invitedAt },
    });
    expect(invited.statusCode).toBe(201);
    const invitationMail = await sink.waitForMail(invitedAt);
    const code = /access code: ([A-Z0-9]+)/.exec(invitationMail.text ?? '')?.[1];
    expect(code).toBe(invited.json().signup_code);
    expect(invitationMail.text).toContain(`${PUBLIC_URL}/signup-a/access-code`);

    const details = await validate({ org_id: 'signup-a', signup_code: code });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({ first_name: 'Nikos', last_name: 'Georgiou', dob: '1979-03-21', gender: { key: 'male' }, email: invitedAt });

    // The form sends the pre-filled values back, the e-mail of the person's choice and a password.
    const email = address('Nikos.Georgiou'); // mixed case: kept in lower case
    const res = await register({
      user_id: null,
      first_name: 'Nikos',
      last_name: 'Georgiou',
      sex: details.json().gender,
      dob: '03/21/1979',
      email,
      password: PASSWORD,
      signup_code: code,
      is_terms_privacy_policy_accepted: true,
      org_id: orgA.id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ detail: 'Your account was created. Please check your e-mail to confirm it.' });

    const user = await t.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      org_id: orgA.id,
      first_name: 'Nikos',
      last_name: 'Georgiou',
      dob: '1979-03-21',
      gender: 'male',
      sex: 'male',
      roles: ['patient'],
      is_superadmin: false,
      email_confirmed_at: null,
    });
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    const invitation = await invitationRow(invited.json().id);
    expect(invitation.used_at).not.toBeNull();
    expect(invitation.user_id).toBe(user.id);

    const early = await login(email, PASSWORD, orgA.id);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ detail: 'Please confirm your e-mail address before signing in. We sent you a link when you signed up.' });

    const confirmMail = await sink.waitForMail(email.toLowerCase());
    expect(confirmMail.subject).toBe('Confirm your e-mail address for Signup Clinic A');
    const link = new RegExp(`${PUBLIC_URL}/signup-a/email/confirm/([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)`).exec(confirmMail.text ?? '');
    expect(link).not.toBeNull();
    const [, uid, token] = link!;
    expect(token!.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const stored = await t.db.selectFrom('user_tokens').selectAll().where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.purpose).toBe('confirm_email');
    expect(stored[0]!.token_hash).not.toBe(token);

    const confirmed = await confirm({ uid, token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ detail: 'Your e-mail address is confirmed. You can sign in now.' });

    const ok = await login(email, PASSWORD, 'signup-a');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ user_id: user.id, first_name: 'Nikos', roles: ['patient'], gender: { key: 'male', value: 'Male' } });

    // The link works once; the code too.
    const again = await confirm({ uid, token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'This confirmation link is invalid or has expired.' });
    expect((await validate({ org_id: orgA.id, signup_code: code })).statusCode).toBe(400);

    const audit = await t.db.selectFrom('audit_log').select(['action', 'outcome']).where('actor_user_id', '=', user.id).execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'invitation_use', outcome: 'success' },
        { action: 'register', outcome: 'success' },
        { action: 'email_confirm', outcome: 'success' },
      ]),
    );
  });

  it('takes the organisation from the invitation when the form names none', async () => {
    const inv = await buildInvitation(t.app, { org: orgB });
    const body = form(inv, { org_id: undefined });
    expect((await register(body)).statusCode).toBe(201);
    const user = await t.db.selectFrom('users').select('org_id').where('email', '=', body.email).executeTakeFirstOrThrow();
    expect(user.org_id).toBe(orgB.id);
  });

  it('refuses a confirmation link that is wrong, expired or of another user', async () => {
    const inv = await buildInvitation(t.app, { org: orgA });
    const body = form(inv);
    expect((await register(body)).statusCode).toBe(201);
    const mail = await sink.waitForMail(body.email);
    const [, uid, token] = /email\/confirm\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')!;

    const other = await buildUser(t.app, { org: orgA });
    const otherUid = Buffer.from(String(other.id)).toString('base64url');
    for (const payload of [{ uid, token: `${token}x` }, { uid: otherUid, token }, { uid: 'not-a-uid', token }, { uid: '', token }]) {
      const res = await confirm(payload);
      expect(res.statusCode).toBe(400);
    }
    expect((await confirm({ uid, token: 'wrong' }, { 'accept-language': 'el' })).json()).toEqual({
      detail: 'Αυτός ο σύνδεσμος επιβεβαίωσης δεν είναι έγκυρος ή έχει λήξει.',
    });

    await t.db.updateTable('user_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('purpose', '=', 'confirm_email').execute();
    expect((await confirm({ uid, token })).json()).toEqual({ detail: 'This confirmation link is invalid or has expired.' });
    const user = await t.db.selectFrom('users').select('email_confirmed_at').where('email', '=', body.email).executeTakeFirstOrThrow();
    expect(user.email_confirmed_at).toBeNull();
  });
});

describe('registration refusals create nothing', () => {
  const expectNothingCreated = async (email: string, invitationId: number) => {
    expect(await usersNamed(email)).toEqual([]);
    expect((await invitationRow(invitationId)).used_at).toBeNull();
  };

  it('an unknown, used, expired or other organisation’s code', async () => {
    const used = await buildInvitation(t.app, { org: orgA, used_at: new Date() });
    const expired = await buildInvitation(t.app, { org: orgA, expires_at: new Date(Date.now() - 1000) });
    const otherOrg = await buildInvitation(t.app, { org: orgB });
    for (const [inv, over] of [
      [used, {}],
      [expired, {}],
      [otherOrg, { org_id: orgA.id }],
      [otherOrg, { org_id: 'no-such-org' }],
      [{ ...otherOrg, code: 'ABCDEFGHJK' }, { org_id: orgB.id }],
    ] as const) {
      const body = form(inv, over);
      const res = await register(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ signup_code: ['Access code is invalid'] });
      expect(await usersNamed(body.email)).toEqual([]);
    }
    expect((await invitationRow(otherOrg.id)).used_at).toBeNull();
  });

  it('names, date of birth or sex that differ from the invitation', async () => {
    const inv = await buildInvitation(t.app, { org: orgA, first_name: 'Anna', last_name: 'Kara', dob: '1990-01-02', gender: 'female' });
    // Case and spaces do not matter; the date may be typed as MM/DD/YYYY.
    const fine = form(inv, { first_name: ' anna ', last_name: 'KARA', dob: '01/02/1990', sex: { key: 'female', value: 'Female' } });
    const body = form(inv, { first_name: 'Hanna', last_name: 'Kar', dob: '1990-02-01', sex: 'male' });
    const res = await register(body);
    expect(res.statusCode).toBe(400);
    const mismatch = ['This does not match your invitation.'];
    expect(res.json()).toEqual({ first_name: mismatch, last_name: mismatch, dob: mismatch, sex: mismatch });
    const el = await register({ ...body, first_name: 'Anna' }, { 'accept-language': 'el' });
    expect(el.json().sex).toEqual(['Δεν αντιστοιχεί στα στοιχεία της πρόσκλησής σας.']);
    expect((await register(form(inv, { dob: '13/45/1990' }))).json()).toEqual({ dob: ['Invalid date format'] });
    await expectNothingCreated(body.email, inv.id);
    expect((await register(fine)).statusCode).toBe(201);
  });

  it('an e-mail address that already has an account: the same answer as a new one, nothing created, the owner told by mail', async () => {
    const existing = await buildUser(t.app, { org: orgA, email: address('taken') });
    const inv = await buildInvitation(t.app, { org: orgA });
    const fresh = await buildInvitation(t.app, { org: orgA });
    const body = form(inv, { email: existing.email.toUpperCase() });
    const res = await register(body);
    const other = await register(form(fresh));
    // Neither the status nor the body tells the two apart.
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe(other.body);
    expect(await usersNamed(existing.email)).toHaveLength(1);
    // The invitation stays usable, for an address of the invitee's own.
    expect((await invitationRow(inv.id)).used_at).toBeNull();
    const notice = await sink.waitForMail(existing.email, { subject: /already have/ });
    expect(notice.text).toContain('/forgotpassword');

    // The same address in another organisation is a different account.
    const elsewhere = await buildInvitation(t.app, { org: orgB });
    expect((await register(form(elsewhere, { email: existing.email, org_id: orgB.id }))).statusCode).toBe(201);
  });

  it('a weak password, terms not accepted, an invalid e-mail or a missing code', async () => {
    const inv = await buildInvitation(t.app, { org: orgA });
    const weak = form(inv, { password: 'password' });
    const res = await register(weak);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ password: ['Passwords does not meet requirements'] });
    expect((await register(weak, { 'accept-language': 'el' })).json()).toEqual({ password: ['Το συνθηματικό δεν πληροί τις απαιτήσεις'] });
    for (const password of ['Short#1', 'No-digits#here', 'nouppercase#1', 'NOLOWERCASE#1', 'NoSpecial123', 'With space#1A']) {
      expect((await register(form(inv, { password }))).json()).toEqual({ password: ['Passwords does not meet requirements'] });
    }

    expect((await register(form(inv, { is_terms_privacy_policy_accepted: false }))).json()).toEqual({
      is_terms_privacy_policy_accepted: ['You must accept the Terms of Service and the Privacy Policy'],
    });
    const noTerms = form(inv);
    delete (noTerms as Record<string, unknown>).is_terms_privacy_policy_accepted;
    expect((await register(noTerms)).json()).toHaveProperty('is_terms_privacy_policy_accepted');
    expect((await register(form(inv, { email: 'not-an-address' }))).json()).toEqual({ email: ['E-mail must be valid'] });
    expect((await register(form(inv, { email: '' }))).json()).toEqual({ email: ['E-mail is required'] });
    expect((await register(form(inv, { signup_code: '' }))).json()).toEqual({ signup_code: ['Access code is required'] });
    await expectNothingCreated(weak.email, inv.id);
  });
});

describe('one code, many registrations', () => {
  it('lets exactly one of several concurrent registrations use a code', async () => {
    const inv = await buildInvitation(t.app, { org: orgA });
    const bodies = Array.from({ length: 4 }, (_, i) => form(inv, { email: address(`race${i}`) }));
    const answers = await Promise.all(bodies.map((b) => register(b)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 400, 400, 400]);
    for (const r of answers.filter((a) => a.statusCode === 400)) expect(r.json()).toEqual({ signup_code: ['Access code is invalid'] });

    const created = await t.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where(
        'email',
        'in',
        bodies.map((b) => b.email),
      )
      .execute();
    expect(created).toHaveLength(1);
    const winner = bodies[answers.findIndex((a) => a.statusCode === 201)]!;
    expect(created[0]!.email).toBe(winner.email);
    expect((await invitationRow(inv.id)).user_id).toBe(created[0]!.id);
    const tokens = await t.db.selectFrom('user_tokens').select('user_id').where('purpose', '=', 'confirm_email').where('user_id', '=', created[0]!.id).execute();
    expect(tokens).toHaveLength(1);
  });

  it('lets one of two concurrent registrations with the same e-mail and the same code win, with nothing half-made', async () => {
    const inv = await buildInvitation(t.app, { org: orgA });
    const body = form(inv);
    const answers = await Promise.all([register(body), register(body)]);
    // One creates the account; the other either lost the code (400 signup_code) or found the
    // address taken (201, as for any taken address): never two accounts, never half of one.
    expect(answers.map((r) => r.statusCode)).toContain(201);
    for (const answer of answers) if (answer.statusCode === 400) expect(answer.json()).toHaveProperty('signup_code');
    expect(await usersNamed(body.email)).toHaveLength(1);
    expect((await invitationRow(inv.id)).used_at).not.toBeNull();
  });
});
