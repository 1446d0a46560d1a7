// On PostgreSQL too (vitest.config.ts): one set-password link used by 20 requests at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../src/db/client';
import { migrateToLatest } from '../src/db/migrations';
import { OutboxMailer, type Mailer } from '../src/plugins/mail';
import { runCommand } from '../src/operator/commands';
import { firstStartHint } from '../src/operator/first-start';
import { buildTestApp, openFreshDatabase, type TestApp } from './build-app';
import { buildOrganization, buildUser } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * The first start of a real installation: the operator's create-organisation and create-admin
 * commands (the same modules the CLI and the server's operator channel run), and the
 * set-password link they send (POST /api/v1/account_setup/check/ and /api/v1/account_setup/).
 */

const PUBLIC_URL = 'https://hb.example';
const PASSWORD = 'First-Pass#2026';

let sink: SmtpSink;
let t: TestApp;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

let seq = 0;
const address = (label: string) => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;
const outbox = (db: Db): Mailer => new OutboxMailer(db, 'HealthBook <no-reply@hb.example>', { info: () => undefined });

/** Runs one command line as the CLI would; answers its exit code and what it printed. */
async function cli(argv: string[], opts: { db?: Db; mailer?: Mailer } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const db = opts.db ?? t.db;
  const code = await runCommand(argv, {
    db,
    mailer: opts.mailer ?? t.app.mailer,
    storage: t.app.storage,
    publicUrl: PUBLIC_URL,
    organizations: opts.db ? undefined : t.app.organizations,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const LINK = new RegExp(`${PUBLIC_URL}/([a-z0-9-]+)/password/set/([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)`);
function linkIn(text: string) {
  const m = LINK.exec(text);
  if (!m) throw new Error(`no set-password link in: ${text}`);
  return { org: m[1]!, uid: m[2]!, token: m[3]! };
}
const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload, headers });
const check = (link: { uid: string; token: string }, headers?: Record<string, string>) => post('/api/v1/account_setup/check/', { uid: link.uid, token: link.token }, headers);
const setPassword = (link: { uid: string; token: string }, password = PASSWORD, headers?: Record<string, string>) =>
  post('/api/v1/account_setup/', { uid: link.uid, token: link.token, password }, headers);
const login = (email: string, password: string, org: string) => post('/api/v1/login/', { email, password, org });
const userRow = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
const tokenRows = (userId: number) => t.db.selectFrom('user_tokens').selectAll().where('user_id', '=', userId).where('purpose', '=', 'account_setup').execute();

/** A super admin made by create-admin (through the SMTP sink), and the link of its mail. */
async function madeAdmin(org: string) {
  const email = address('admin');
  const res = await cli(['create-admin', '--email', email, '--first-name', 'Ada', '--last-name', 'Operator', '--org', org]);
  expect(res.code, res.err).toBe(0);
  const mail = await sink.waitForMail(email);
  return { email, link: linkIn(mail.text ?? ''), mail, res };
}

describe('create-organisation', () => {
  it('makes an organisation reachable by its client id, audited; its branding is served at once', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/v1/organization_detail_by_name/st-lukes' });
    expect(before.json()).toMatchObject({ org: 'Organization not found' });
    const res = await cli(['create-organisation', '--client-id', 'st-lukes', '--name', "  St Luke's Clinic ", '--color', '#00695C']);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain(`${PUBLIC_URL}/st-lukes/login`);
    const org = await t.db.selectFrom('organizations').selectAll().where('name', '=', 'st-lukes').executeTakeFirstOrThrow();
    expect(org).toMatchObject({ org_name: "St Luke's Clinic", org_short_name: "St Luke's Clinic", primary_color: '#00695c', logo_key: null });
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/organization_detail_by_name/st-lukes' });
    expect(after.json()).toMatchObject({ org: org.id, org_name: "St Luke's Clinic", primary_color: '#00695c', logo_url: null });
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'organization_create').where('org_id', '=', org.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toMatchObject({ via: 'cli' });
  });

  it.each([
    [['--client-id', 'login', '--name', 'X'], '--client-id: This word is used by the application’s own addresses'],
    [['--client-id', 'api', '--name', 'X'], '--client-id: This word is used'],
    [['--client-id', 'Acme', '--name', 'X'], '--client-id: A client id has only lower-case letters'],
    [['--client-id', 'acme_health', '--name', 'X'], '--client-id: A client id has only lower-case letters'],
    [['--client-id', '123', '--name', 'X'], '--client-id: A client id has only lower-case letters'],
    [['--client-id', 'fine', '--name', '   '], '--name: The organisation’s name is required.'],
    [['--client-id', 'fine', '--name', 'Fine', '--color', 'blue'], '--color: '],
    [['--name', 'Fine'], '--client-id is required'],
    [['--client-id', 'fine', '--name', 'Fine', '--admin-email', 'a@b.example'], '--admin-first-name is required with the other --admin-* options'],
    [['--client-id', 'fine', '--name', 'Fine', '--admin-email', 'nope', '--admin-first-name', 'A', '--admin-last-name', 'B'], '--admin-email: E-mail must be valid'],
    [['--client-id', 'fine', '--name', 'Fine', '--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j with the option named, exit 2, nothing written', async (args, message) => {
    const orgs = await t.db.selectFrom('organizations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const res = await cli(['create-organisation', ...args]);
    expect(res.code).toBe(2);
    expect(res.err).toContain(message);
    expect(res.err).toContain('Usage: npm run cli -- create-organisation');
    expect(await t.db.selectFrom('organizations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).toEqual(orgs);
  });

  it('refuses a client id that is taken (exit 2, nothing written), also when two commands race for it', async () => {
    const runs = await Promise.all(Array.from({ length: 5 }, (_, i) => cli(['create-organisation', '--client-id', 'racer', '--name', `Racer ${i}`, '--admin-email', address('racer'), '--admin-first-name', 'R', '--admin-last-name', 'Acer'])));
    expect(runs.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of runs.filter((x) => x.code !== 0)) {
      expect(r.code).toBe(2);
      expect(r.err).toContain('--client-id: An organisation with this client id already exists.');
    }
    const org = await t.db.selectFrom('organizations').select('id').where('name', '=', 'racer').executeTakeFirstOrThrow();
    // Only the winner's admin exists: the losers' transactions left nothing.
    const users = await t.db.selectFrom('users').select('email').where('org_id', '=', org.id).execute();
    expect(users).toHaveLength(1);
  });

  it("with --admin-*, makes the organisation's first admin without a password and e-mails the link (never printed with SMTP)", async () => {
    const email = address('boss');
    const res = await cli(['create-organisation', '--client-id', 'acme', '--name', 'Acme Health', '--short-name', 'Acme', '--admin-email', email.toUpperCase(), '--admin-first-name', 'Bo', '--admin-last-name', 'Boss', '--lang', 'el']);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain(`was e-mailed to ${email}`);
    expect(res.out).not.toMatch(/password\/set/);
    const user = await userRow(email);
    expect(user).toMatchObject({ roles: ['org_admin'], is_superadmin: false, password_hash: null, email_confirmed_at: null, is_active: true });
    const mail = await sink.waitForMail(email);
    expect(mail.subject).toBe('Ο λογαριασμός σας στο Acme Health: επιλέξτε συνθηματικό');
    expect(mail.text).toContain('24 ώρες');
    const link = linkIn(mail.text ?? '');
    expect(link.org).toBe('acme');
    expect((await setPassword(link)).statusCode).toBe(200);
    const signedIn = await login(email, PASSWORD, 'acme');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user).toMatchObject({ email });
  });
});

describe('create-admin', () => {
  it('makes a super admin with no password; without SMTP_URL the link is printed once and is the one in the outbox', async () => {
    const org = await buildOrganization(t.app, { name: 'outbox-org' });
    const email = address('first');
    const res = await cli(['create-admin', '--email', email, '--first-name', 'Ada', '--last-name', 'Lovelace', '--org', org.name], { mailer: outbox(t.db) });
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain(`Super admin Ada Lovelace <${email}> created in`);
    expect(res.out).toContain('SMTP_URL is not set');
    expect(res.out.match(/password\/set\//g)).toHaveLength(1);
    const printed = linkIn(res.out);
    const kept = await t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).execute();
    expect(kept).toHaveLength(1);
    expect(linkIn(kept[0]!.text_body)).toEqual(printed);
    const user = await userRow(email);
    expect(user).toMatchObject({ is_superadmin: true, roles: ['org_admin'], password_hash: null });
    // No password means no sign-in, whatever is typed.
    for (const password of ['x', PASSWORD, 'Healthbook#2026']) expect((await login(email, password, org.name)).statusCode).toBe(401);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('subject', '=', `user:${user.id}`).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['account_create', 'account_setup_link']);
    expect(JSON.stringify(audit)).not.toContain(printed.token);
  });

  it('chooses the organisation an operator expects: --org, else "healthbook", else the only one; refuses otherwise', async () => {
    const fresh = await openFreshDatabase();
    try {
      await migrateToLatest(fresh.db);
      const args = (email: string, more: string[] = []) => ['create-admin', '--email', email, '--first-name', 'Ada', '--last-name', 'Op', ...more];
      const none = await cli(args(address('a')), { db: fresh.db, mailer: outbox(fresh.db) });
      expect(none.code).toBe(1);
      expect(none.err).toContain('There is no organisation yet: make one first with npm run cli -- create-organisation');
      expect(await firstStartHint(fresh.db)).toMatch(/no organisation and no administrator yet\. Next, while it runs: npm run cli -- create-organisation --client-id <id> --name "<name>", then npm run cli -- create-admin/);

      expect((await cli(['create-organisation', '--client-id', 'solo', '--name', 'Solo'], { db: fresh.db, mailer: outbox(fresh.db) })).code).toBe(0);
      expect(await firstStartHint(fresh.db)).toMatch(/^This installation has no super admin yet\. Next, while it runs: npm run cli -- create-admin/);
      const only = await cli(args(address('b')), { db: fresh.db, mailer: outbox(fresh.db) });
      expect(only.code, only.err).toBe(0);
      expect(only.out).toContain('created in Solo (solo)');
      expect(await firstStartHint(fresh.db)).toBeNull();

      expect((await cli(['create-organisation', '--client-id', 'other', '--name', 'Other'], { db: fresh.db, mailer: outbox(fresh.db) })).code).toBe(0);
      const several = await cli(args(address('c')), { db: fresh.db, mailer: outbox(fresh.db) });
      expect(several.code).toBe(1);
      expect(several.err).toContain('--org is required: there are 2 organisations (other, solo)');
      const unknown = await cli(args(address('d'), ['--org', 'nope']), { db: fresh.db, mailer: outbox(fresh.db) });
      expect(unknown.code).toBe(2);
      expect((await cli(args(address('e'), ['--org', 'other']), { db: fresh.db, mailer: outbox(fresh.db) })).code).toBe(0);

      expect((await cli(['create-organisation', '--client-id', 'healthbook', '--name', 'HealthBook'], { db: fresh.db, mailer: outbox(fresh.db) })).code).toBe(0);
      const byDefault = await cli(args(address('f')), { db: fresh.db, mailer: outbox(fresh.db) });
      expect(byDefault.code, byDefault.err).toBe(0);
      expect(byDefault.out).toContain('created in HealthBook (healthbook)');
    } finally {
      await fresh.db.destroy();
      await fresh.drop();
    }
  });

  it('run again for an address still waiting: a new link, the earlier one reads as expired; an account with a password is left alone', async () => {
    const org = await buildOrganization(t.app, { name: 'again-org' });
    const first = await madeAdmin(org.name);
    const again = await cli(['create-admin', '--email', first.email, '--first-name', 'Ada', '--last-name', 'Operator', '--org', org.name]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('still waiting for a password: a new link replaces the earlier one');
    const mails = sink.messages.filter((m) => m.envelope.to.includes(first.email));
    expect(mails).toHaveLength(2);
    const second = linkIn(mails[1]!.text ?? '');
    expect(second.token).not.toBe(first.link.token);
    const old = await check(first.link);
    expect(old.statusCode).toBe(410);
    expect(old.json()).toMatchObject({ reason: 'expired' });
    expect((await setPassword(second)).statusCode).toBe(200);

    const withPassword = await cli(['create-admin', '--email', first.email, '--first-name', 'Ada', '--last-name', 'Operator', '--org', org.name]);
    expect(withPassword.code).toBe(1);
    expect(withPassword.err).toContain('already has an account in');
    expect(withPassword.err).toContain('with a password');
    const patient = await buildUser(t.app, { org, email: address('patient') });
    const notAdmin = await cli(['create-admin', '--email', patient.email, '--first-name', 'P', '--last-name', 'Q', '--org', org.name]);
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.err).toContain(`${patient.email} already has an account in`);
    expect(notAdmin.err).toContain('Nothing was changed.');
    expect((await userRow(patient.email)).is_superadmin).toBe(false);
  });

  it('refuses bad input with the option named (exit 2), nothing written', async () => {
    const email = address('bad');
    for (const [args, message] of [
      [['--email', email, '--first-name', 'A'], '--last-name is required'],
      [['--email', 'not-an-address', '--first-name', 'A', '--last-name', 'B'], '--email: E-mail must be valid'],
      [['--email', email, '--first-name', '1234', '--last-name', 'B'], '--first-name: '],
      [['--email', email, '--first-name', 'A', '--last-name', 'B', '--lang', 'fr'], '--lang must be en or el'],
    ] as const) {
      const res = await cli(['create-admin', ...args]);
      expect(res.code).toBe(2);
      expect(res.err).toContain(message);
    }
    expect(await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('--help prints the usage; an unknown command says so', async () => {
    const help = await cli(['create-admin', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: npm run cli -- create-admin --email <address> --first-name <name> --last-name <name>');
    const unknown = await cli(['make-me-admin']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown command: make-me-admin');
  });
});

describe('the set-password link (POST /api/v1/account_setup/check/ and /api/v1/account_setup/)', () => {
  let orgName: string;
  beforeAll(async () => {
    orgName = (await buildOrganization(t.app, { name: 'setup-org', org_name: 'Setup Clinic' })).name;
  });

  it('check answers whose account a live link sets up, and changes nothing', async () => {
    const { email, link } = await madeAdmin(orgName);
    const res = await check(link);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email, first_name: 'Ada', org_name: 'Setup Clinic', client_id: orgName });
    expect((await tokenRows((await userRow(email)).id))[0]!.used_at).toBeNull();
  });

  it('of 20 parallel uses of one link exactly one sets the password; the others are told it was used', async () => {
    const { email, link } = await madeAdmin(orgName);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => setPassword(link, `Parallel#${i}Pass`)));
    const won = answers.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    expect(won[0]!.json()).toEqual({ detail: 'Your password is set. Sign in with your e-mail address and your new password.', email, client_id: orgName });
    for (const r of answers.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(410);
      expect(r.json()).toEqual({ detail: 'This set-password link has already been used. Sign in with the password you chose.', reason: 'used' });
    }
    const i = answers.indexOf(won[0]!);
    expect((await login(email, `Parallel#${i}Pass`, orgName)).statusCode).toBe(200);
    const user = await userRow(email);
    expect(user.email_confirmed_at).not.toBeNull();
    expect(user.password_changed_at).not.toBeNull();
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'account_setup').where('actor_user_id', '=', user.id).execute();
    expect(audit.filter((a) => a.outcome === 'success')).toHaveLength(1);
    expect(audit.filter((a) => a.outcome === 'failure')).toHaveLength(19);
  });

  it('a used link is refused with its own message, on check and on use, in both languages', async () => {
    const { link } = await madeAdmin(orgName);
    expect((await setPassword(link)).statusCode).toBe(200);
    const again = await setPassword(link, 'Another#Pass1');
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ reason: 'used' });
    const el = await check(link, { 'accept-language': 'el' });
    expect(el.statusCode).toBe(410);
    expect(el.json()).toEqual({ detail: 'Αυτός ο σύνδεσμος ορισμού συνθηματικού έχει ήδη χρησιμοποιηθεί. Συνδεθείτε με το συνθηματικό που επιλέξατε.', reason: 'used' });
  });

  it('an expired link (24 hours) is refused with its own message and sets nothing', async () => {
    const { email, link } = await madeAdmin(orgName);
    const user = await userRow(email);
    const [token] = await tokenRows(user.id);
    // Issued for 24 hours.
    const ttl = new Date(token!.expires_at).getTime() - new Date(token!.created_at).getTime();
    expect(Math.abs(ttl - 24 * 3600 * 1000)).toBeLessThan(60_000);
    await t.db.updateTable('user_tokens').set({ expires_at: sql`now() - interval '1 second'` }).where('id', '=', token!.id).execute();
    for (const res of [await check(link), await setPassword(link)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json()).toEqual({
        detail: 'This set-password link has expired: a link is valid for 24 hours. Ask your administrator for a new one, or use “Forgot password?” on the sign-in page.',
        reason: 'expired',
      });
    }
    expect((await userRow(email)).password_hash).toBeNull();
  });

  it('a weak password is 400 naming the field, and nothing is written (the link still works)', async () => {
    const { email, link } = await madeAdmin(orgName);
    for (const weak of ['Sh0rt!a', 'alllowercase#1', 'NoDigits#here', 'No Spaces#1a', 'nospecial1A', '']) {
      const res = await setPassword(link, weak);
      expect(res.statusCode, weak).toBe(400);
      expect(Object.keys(res.json())).toEqual(['password']);
    }
    const el = await setPassword(link, 'weak', { 'accept-language': 'el' });
    expect(el.json()).toEqual({ password: ['Το συνθηματικό δεν πληροί τις απαιτήσεις'] });
    const user = await userRow(email);
    expect(user.password_hash).toBeNull();
    expect((await tokenRows(user.id))[0]!.used_at).toBeNull();
    expect((await setPassword(link)).statusCode).toBe(200);
  });

  it('unknown, malformed, foreign-purpose or inactive-account links are 400 with one message', async () => {
    const { email, link } = await madeAdmin(orgName);
    const bodies = [
      { uid: link.uid, token: 'x'.repeat(43) },
      { uid: 'MTIzNDU2Nzg5', token: link.token },
      { uid: '!!', token: link.token },
    ];
    for (const body of bodies) {
      const res = await check(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'This set-password link is not valid. Check that you opened the whole address from the e-mail.' });
    }
    expect((await post('/api/v1/account_setup/', { uid: link.uid })).statusCode).toBe(400);
    // A password-reset token is not a set-password link.
    const patient = await buildUser(t.app, { org: { id: (await userRow(email)).org_id }, email: address('reset') });
    const reset = await post('/api/v1/reset_password/', { org_id: orgName, email: patient.email });
    expect(reset.statusCode).toBe(200);
    const resetMail = await sink.waitForMail(patient.email);
    const m = /password\/reset\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)/.exec(resetMail.text ?? '')!;
    expect((await setPassword({ uid: m[1]!, token: m[2]! })).statusCode).toBe(400);
    // A deactivated account's link does nothing.
    await t.db.updateTable('users').set({ is_active: false }).where('email', '=', email).execute();
    expect((await setPassword(link)).statusCode).toBe(400);
    expect((await userRow(email)).password_hash).toBeNull();
  });
});
