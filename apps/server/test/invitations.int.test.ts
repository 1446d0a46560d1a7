import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { sha256, normalizeAccessCode } from '../src/lib/crypto';
import { runInviteCommand } from '../src/modules/invitations/invite.command';
import { buildTestApp, TEST_JWT_SECRET, type TestApp } from './build-app';
import { bearer, buildInvitation, buildOrganization, buildUser, signIn } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const PUBLIC_URL = 'https://hb.example';

let sink: SmtpSink;
let t: TestApp;
let orgA: { id: number; name: string; org_name: string };
let orgB: { id: number; name: string; org_name: string };
const tokens: Record<'adminA' | 'adminB' | 'patientA' | 'superB', string> = { adminA: '', adminB: '', patientA: '', superB: '' };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL } });
  orgA = await buildOrganization(t.app, { name: 'invite-a', org_name: 'Clinic Alpha' });
  orgB = await buildOrganization(t.app, { name: 'invite-b', org_name: 'Clinic Beta' });
  const people = {
    adminA: await buildUser(t.app, { org: orgA, roles: ['org_admin'] }),
    adminB: await buildUser(t.app, { org: orgB, roles: ['org_admin'] }),
    patientA: await buildUser(t.app, { org: orgA, roles: ['patient'] }),
    superB: await buildUser(t.app, { org: orgB, roles: [], is_superadmin: true }),
  };
  for (const [key, user] of Object.entries(people)) {
    tokens[key as keyof typeof tokens] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  }
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

let seq = 0;
const address = (label: string) => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;
const person = (over: Record<string, unknown> = {}) => ({
  first_name: 'Sofia',
  last_name: 'Ioannou',
  dob: '1992-07-15',
  gender: 'female',
  email: address('sofia'),
  ...over,
});
const invite = (token: string | null, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/admin/invitations/', payload, headers: { ...(token ? bearer(token) : {}), ...headers } });
const list = (token: string, query = '') => t.app.inject({ method: 'GET', url: `/api/v1/admin/invitations/${query}`, headers: bearer(token) });
const validate = (org: number | string, code: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/users/validate/', payload: { org_id: org, signup_code: code } });

describe('POST /api/v1/admin/invitations/', () => {
  it('lets an organisation admin invite: 201 with the code once, only its hash stored, the code e-mailed', async () => {
    const body = person({ email: address('Sofia.Ioannou'), dob: '07/15/1992' });
    const res = await invite(tokens.adminA, body);
    expect(res.statusCode).toBe(201);
    const invitation = res.json();
    const in30Days = Date.now() + 30 * 24 * 60 * 60 * 1000;
    expect(invitation).toEqual({
      id: expect.any(Number),
      org_id: orgA.id,
      first_name: 'Sofia',
      last_name: 'Ioannou',
      dob: '1992-07-15',
      gender: { key: 'female', value: 'Female' },
      email: body.email.toLowerCase(),
      signup_code: expect.stringMatching(/^[A-Z2-9]{10}$/),
      status: 'pending',
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    expect(Math.abs(Date.parse(invitation.expires_at) - in30Days)).toBeLessThan(60_000);

    const row = await t.db.selectFrom('invitations').selectAll().where('id', '=', invitation.id).executeTakeFirstOrThrow();
    expect(row.code_hash).toBe(sha256(normalizeAccessCode(invitation.signup_code)));
    expect(JSON.stringify(row)).not.toContain(invitation.signup_code);

    const mail = await sink.waitForMail(body.email.toLowerCase());
    expect(mail.subject).toBe('You are invited to Clinic Alpha');
    expect(mail.text).toContain('Hello Sofia,');
    expect(mail.text).toContain(`open\n\n${PUBLIC_URL}/invite-a/access-code\n\nand enter your access code: ${invitation.signup_code}.`);
    const expires = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(invitation.expires_at));
    expect(mail.text).toContain(`valid until ${expires}`);

    // The code works for that organisation.
    expect((await validate(orgA.id, invitation.signup_code)).statusCode).toBe(200);

    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'invitation_create').where('outcome', '=', 'success').execute();
    expect(audit.some((a) => a.detail.invitation === invitation.id && a.org_id === orgA.id)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(invitation.signup_code);
  });

  it('writes the mail in the administrator’s language, with the date as Greek readers write it', async () => {
    const body = person();
    const res = await invite(tokens.adminA, body, { 'accept-language': 'el' });
    expect(res.statusCode).toBe(201);
    expect(res.json().gender).toEqual({ key: 'female', value: 'Γυναίκα' });
    const mail = await sink.waitForMail(body.email);
    expect(mail.subject).toBe('Πρόσκληση στο Clinic Alpha');
    const expires = new Intl.DateTimeFormat('el-GR', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(res.json().expires_at));
    expect(mail.text).toContain(`Ο κωδικός ισχύει έως ${expires}`);
  });

  it('refuses an address that already has an account in that organisation', async () => {
    const existing = await buildUser(t.app, { org: orgA, email: address('member') });
    const res = await invite(tokens.adminA, person({ email: existing.email.toUpperCase() }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['An account with this e-mail already exists in this organisation.'] });
    expect((await invite(tokens.adminA, person({ email: existing.email }), { 'accept-language': 'el' })).json()).toEqual({
      email: ['Υπάρχει ήδη λογαριασμός με αυτό το e-mail σε αυτόν τον οργανισμό.'],
    });
    // Another organisation may invite that address.
    expect((await invite(tokens.adminB, person({ email: existing.email }))).statusCode).toBe(201);
  });

  it('answers each invalid field with its message (en and el)', async () => {
    const res = await invite(tokens.adminA, { first_name: ' ', last_name: '', dob: '02/30/1990', gender: 'robot', email: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      first_name: ['First name is required'],
      last_name: ['Last name is required'],
      dob: ['Invalid date format'],
      gender: ['Choose one of the options.'],
      email: ['E-mail must be valid'],
    });
    const el = await invite(tokens.adminA, person({ dob: '', email: '' }), { 'accept-language': 'el' });
    expect(el.json()).toEqual({ dob: ['Η ημερομηνία γέννησης είναι υποχρεωτική'], email: ['Το e-mail είναι υποχρεωτικό'] });
    const future = await invite(tokens.adminA, person({ dob: '2099-01-01' }));
    expect(future.json()).toEqual({ dob: ['The date of birth cannot be in the future'] });
  });

  it('needs a signed-in administrator: 401 without a token, 403 for a patient', async () => {
    const anonymous = await invite(null, person());
    expect(anonymous.statusCode).toBe(401);
    const patient = await invite(tokens.patientA, person());
    expect(patient.statusCode).toBe(403);
    expect(patient.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    const el = await invite(tokens.patientA, person(), { 'accept-language': 'el' });
    expect(el.json()).toEqual({ detail: 'Δεν έχετε δικαίωμα να εκτελέσετε αυτή την ενέργεια.' });
    expect((await list(tokens.patientA)).statusCode).toBe(403);
  });

  it('keeps an organisation admin to their own organisation', async () => {
    const body = person();
    for (const org of [orgA.id, orgA.name, 'no-such-org']) {
      const res = await invite(tokens.adminB, { ...body, org_id: org });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    }
    expect((await list(tokens.adminB, `?org_id=${orgA.id}`)).statusCode).toBe(403);
    expect(sink.messages.some((m) => m.envelope.to.includes(body.email))).toBe(false);
    const created = await t.db.selectFrom('invitations').select('id').where('email', '=', body.email).execute();
    expect(created).toEqual([]);
    // Naming their own organisation is fine.
    expect((await invite(tokens.adminB, { ...person(), org_id: orgB.name })).json()).toMatchObject({ org_id: orgB.id });
    const denied = await t.db.selectFrom('audit_log').select('outcome').where('action', '=', 'invitation_create').where('outcome', '=', 'denied').execute();
    expect(denied.length).toBeGreaterThanOrEqual(3);
  });

  it('lets a super admin invite into any organisation, named by id or client id', async () => {
    const byName = await invite(tokens.superB, person({ org_id: 'INVITE-A' }));
    expect(byName.statusCode).toBe(201);
    expect(byName.json().org_id).toBe(orgA.id);
    const byId = await invite(tokens.superB, person({ org_id: orgA.id }));
    expect(byId.json().org_id).toBe(orgA.id);
    // The code belongs to that organisation, not the super admin's own.
    expect((await validate(orgA.id, byName.json().signup_code)).statusCode).toBe(200);
    expect((await validate(orgB.id, byName.json().signup_code)).statusCode).toBe(400);
    const unknown = await invite(tokens.superB, person({ org_id: 'no-such-org' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ org_id: ['Organization not found'] });
  });
});

describe('GET /api/v1/admin/invitations/', () => {
  it("lists the organisation's invitations with their status, never a code", async () => {
    const org = await buildOrganization(t.app);
    const admin = await buildUser(t.app, { org, roles: ['org_admin'] });
    const { access } = await signIn(t.app, { email: admin.email, password: admin.password, org_id: org.id });
    await buildInvitation(t.app, { org, first_name: 'Used', used_at: new Date() });
    await buildInvitation(t.app, { org, first_name: 'Expired', expires_at: new Date(Date.now() - 1000) });
    const created = await invite(access, person({ first_name: 'Fresh' }));
    expect(created.statusCode).toBe(201);
    await buildInvitation(t.app, { org: orgA, first_name: 'Elsewhere' });

    const res = await list(access);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.first_name, r.status])).toEqual([
      ['Fresh', 'pending'],
      ['Expired', 'expired'],
      ['Used', 'used'],
    ]);
    for (const r of rows) expect(r).not.toHaveProperty('signup_code');
    expect(res.body).not.toContain(created.json().signup_code);

    // A super admin names the organisation; an org admin sees only their own.
    const asSuper = await list(tokens.superB, `?org_id=${org.name}`);
    expect(asSuper.json()).toHaveLength(3);
    expect((await list(tokens.adminA)).json().every((r: { org_id: number }) => r.org_id === orgA.id)).toBe(true);
  });
});

describe('npm run cli -- invite', () => {
  const cliArgs = (email: string, over: string[] = []) => [
    '--org',
    orgA.name,
    '--first-name',
    'Petros',
    '--last-name',
    'Alexiou',
    '--dob',
    '1970-01-31',
    '--gender',
    'male',
    '--email',
    email,
    ...over,
  ];
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runInviteCommand(argv, { db: t.db, mailer: t.app.mailer, publicUrl: PUBLIC_URL, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('creates the same invitation through the same service, mails it and prints a working code', async () => {
    const email = address('petros');
    const res = await run(cliArgs(email, ['--lang', 'el']));
    expect(res.code).toBe(0);
    const code = /Access code: ([A-Z0-9]+)/.exec(res.out)?.[1];
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    const mail = await sink.waitForMail(email);
    expect(mail.subject).toBe('Πρόσκληση στο Clinic Alpha');
    expect(mail.text).toContain(code);
    const details = await validate(orgA.name, code!);
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({ first_name: 'Petros', last_name: 'Alexiou', dob: '1970-01-31', email });
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'invitation_create').where('actor_user_id', 'is', null).execute();
    expect(audit.some((a) => a.detail.via === 'cli')).toBe(true);
  });

  it('prints each problem and exits 2', async () => {
    const bad = await run(['--org', orgA.name, '--first-name', 'P', '--last-name', 'A', '--dob', '31/01/1970', '--gender', 'robot', '--email', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--dob: Invalid date format');
    expect(bad.err).toContain('--gender: Choose one of the options.');
    expect(bad.err).toContain('--email: E-mail must be valid');
    expect(bad.out).toBe('');

    const missing = await run(['--org', orgA.name]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--first-name is required');
    expect(missing.err).toContain('--email is required');

    expect((await run(cliArgs(address('x'), ['--org', 'no-such-org']))).err).toContain('--org: Organization not found');
    expect((await run([...cliArgs(address('x')), '--bogus'])).code).toBe(2);
    const member = await buildUser(t.app, { org: orgA, email: address('member') });
    const taken = await run(cliArgs(member.email));
    expect(taken.code).toBe(2);
    expect(taken.err).toContain('--email: An account with this e-mail already exists in this organisation.');
  });

  it('runs as an operator command against DATA_DIR (child process)', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hb-cli-'));
    const serverRoot = path.resolve(import.meta.dirname, '..');
    const cli = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
        const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', PUBLIC_URL };
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverRoot, 'src/cli.ts'), ...args], { cwd: serverRoot, env });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, out, err }));
      });
    try {
      const invalid = await cli(['invite', '--org', 'healthbook', '--first-name', 'Zoe', '--last-name', 'Lee', '--dob', 'yesterday', '--gender', 'female', '--email', 'zoe@example.test']);
      expect(invalid.code).toBe(2);
      expect(invalid.err).toContain('--dob: Invalid date format');

      // The invalid run brought the schema up to date; add an organisation to invite into.
      const setup = await openDatabase({ kind: 'pglite', dataDir });
      await buildOrganization({ db: setup, storage: t.app.storage }, { name: 'healthbook' });
      await setup.destroy();

      const ok = await cli(['invite', '--org', 'healthbook', '--first-name', 'Zoe', '--last-name', 'Lee', '--dob', '2001-05-06', '--gender', 'female', '--email', 'zoe@example.test']);
      expect(ok.err).toBe('');
      expect(ok.code).toBe(0);
      const code = /Access code: ([A-Z0-9]+)/.exec(ok.out)?.[1];
      expect(code).toBeDefined();
      expect(ok.out).toContain('kept in the outbox');

      // The server over that DATA_DIR accepts the code, and the mail is in its outbox.
      const db = await openDatabase({ kind: 'pglite', dataDir });
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, { jwtSecret: TEST_JWT_SECRET, webDist: undefined });
      const app = await buildApp(config, { db });
      try {
        const res = await app.inject({ method: 'POST', url: '/api/v1/users/validate/', payload: { org_id: 'healthbook', signup_code: code } });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ first_name: 'Zoe', email: 'zoe@example.test' });
        const outbox = await app.inject({ method: 'GET', url: '/dev/mailbox/messages?to=zoe@example.test' });
        expect(outbox.json()[0].text).toContain(code);
      } finally {
        await app.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
