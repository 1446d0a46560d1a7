// On PostgreSQL too (vitest.config.ts): invitations and acceptances sent at once.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientSocketQuery, type AccessLogPage, type AppointmentDetail, type CareAccepted, type CareInvitationPreview, type CareMember, type CaringFor, type ChatDetails, type ProviderAvailability } from '@healthbook/shared';
import { sha256 } from '../src/lib/crypto';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { TestChatSocket } from './chat-client';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink';

/**
 * The care network's server (issue 13, item 1): inviting, the e-mail and its link, previewing,
 * the sign-up code, accepting (once, under parallel requests), declining, changing access and
 * removing (effective on the very next request), leaving, resending, "who saw my record", acting
 * for the patient (booking as "Anna Smith for John Doe"), and every refusal: clear 4xx, nothing
 * changed, audited.
 */

const PUBLIC_URL = 'https://hb.example';
let sink: SmtpSink;
let t: TestApp;
let orgA: { id: number; name: string };
let orgB: { id: number; name: string };
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};
const patientIds: Record<string, number> = {};

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  orgA = await buildOrganization(t.app, { name: 'care-a', org_name: 'Care Clinic' });
  orgB = await buildOrganization(t.app, { name: 'care-b', org_name: 'Other Clinic' });
  people.john = await buildUser(t.app, { org: orgA, first_name: 'John', last_name: 'Doe', dob: '1950-04-02', email: 'john@care.test' });
  people.anna = await buildUser(t.app, { org: orgA, first_name: 'Anna', last_name: 'Smith', email: 'anna@care.test' });
  people.bob = await buildUser(t.app, { org: orgA, first_name: 'Bob', last_name: 'Brown', email: 'bob@care.test' });
  people.dora = await buildUser(t.app, { org: orgA, first_name: 'Dora', last_name: 'Green', email: 'dora@care.test' });
  people.greek = await buildUser(t.app, { org: orgA, first_name: 'Ελένη', last_name: 'Νικολάου', email: 'eleni@care.test' });
  // Another organisation's account with Anna's very address.
  people.eve = await buildUser(t.app, { org: orgB, first_name: 'Eve', last_name: 'Smith', email: 'anna@care.test' });
  people.admin = await buildUser(t.app, { org: orgA, roles: ['org_admin'], email: 'admin@care.test' });
  people.coach = await buildUser(t.app, { org: orgA, first_name: 'Sofia', last_name: 'Coach', roles: ['professional', 'coach'], email: 'coach@care.test' });
  people.doctor = await buildUser(t.app, { org: orgA, first_name: 'Nora', last_name: 'Doctor', roles: ['professional', 'provider'], email: 'doctor@care.test' });
  await t.db.updateTable('users').set({ settings: JSON.stringify({ language: 'el' }) }).where('id', '=', people.greek.id).execute();
  for (const [name, user] of Object.entries(people)) {
    tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    patientIds[name] = (await t.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
  }
  const schedule = { slot_minutes: 30, timezone: 'UTC', weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '00:00', end: '23:30' })), exceptions: [] };
  expect((await call('doctor', 'PUT', '/api/v1/provider/me/schedule/', schedule)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string | null, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(who ? bearer(tokens[who]!) : {}), 'accept-language': 'en', ...headers }, ...(payload ? { payload } : {}) });
/** A request made while viewing John's record (the header the web app sends). */
const asCarer = (who: string, method: Method, url: string, payload?: object) => call(who, method, url, payload, { 'x-patient-id': String(patientIds.john) });

const invite = (who: string, body: object) => call(who, 'POST', '/api/v1/care-network/', body);
const members = async (who = 'john') => (await call(who, 'GET', '/api/v1/care-network/')).json<CareMember[]>();
const preview = (token: string) => call(null, 'POST', '/api/v1/care-network/invitations/preview/', { token });
const accept = (who: string, token: string) => call(who, 'POST', '/api/v1/care-network/invitations/accept/', { token });
const grantRows = () => t.db.selectFrom('patient_grants').selectAll().orderBy('id').execute();

/** The newest mail to an address whose subject matches (waiting for it if needed). */
async function mailTo(to: string, subject: RegExp): Promise<ReceivedMail> {
  await t.app.backgroundMail.drain();
  const found = [...sink.messages].reverse().find((m) => m.envelope.to.includes(to) && subject.test(m.subject));
  return found ?? sink.waitForMail(to, { subject, timeoutMs: 5000 });
}
const mailCount = async (to: string, subject: RegExp) => {
  await t.app.backgroundMail.drain();
  return sink.messages.filter((m) => m.envelope.to.includes(to) && subject.test(m.subject)).length;
};

/** The token of an invitation e-mail: in the link's fragment, never in a query string or path. */
function tokenOf(mail: ReceivedMail): string {
  const link = new RegExp(`${PUBLIC_URL}/care-a/caring-person-info#token=([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
  expect(link, mail.text).not.toBeNull();
  return link![1]!;
}

/** Invites an address into John's record and answers the member and the token from the e-mail. */
async function invited(email: string, body: object = {}): Promise<{ member: CareMember; token: string }> {
  const before = await mailCount(email, /invites you into their care network/);
  const res = await invite('john', { name: 'Someone', email, access: 'read-only', ...body });
  expect(res.statusCode, res.body).toBe(201);
  await t.app.backgroundMail.drain();
  await expect.poll(() => mailCount(email, /invites you into their care network/)).toBe(before + 1);
  return { member: res.json<CareMember>(), token: tokenOf(await mailTo(email, /invites you into their care network/)) };
}

const records = (who: string) => asCarer(who, 'GET', '/api/v1/hr/condition/');
const addRecord = (who: string) => asCarer(who, 'POST', '/api/v1/hr/condition/', { name: 'Hypertension' });

describe('inviting', () => {
  let annaToken = '';

  it('invites a person by name and e-mail: 201 pending, the token stored hashed, e-mailed in a link fragment, audited', async () => {
    const res = await invite('john', { name: '  Anna Smith ', email: 'Anna@Care.test', access: 'read-only' });
    expect(res.statusCode, res.body).toBe(201);
    const member = res.json<CareMember>();
    expect(member).toMatchObject({ name: 'Anna Smith', email: 'anna@care.test', access: 'read-only', categories: null, status: 'pending', kind: 'invitation', account_name: null, accepted_at: null });
    const days = (new Date(member.expires_at!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const mail = await mailTo('anna@care.test', /invites you into their care network/);
    expect(mail.subject).toBe('John Doe invites you into their care network');
    expect(mail.text).toContain('Hello Anna Smith,');
    expect(mail.text).toContain('with read-only access to their health record (the whole record)');
    expect(mail.text).toContain('The Care Clinic team');
    annaToken = tokenOf(mail);
    expect(annaToken.length).toBeGreaterThanOrEqual(43); // 256 bits
    // The token travels in the fragment only: no query string, no path carries it.
    expect(mail.text).not.toMatch(/\?[^\s]*token=/);
    expect(mail.text?.match(new RegExp(annaToken, 'g'))?.length).toBe(1);
    const [row] = (await grantRows()).filter((r) => r.id === member.id);
    expect(row!.token_hash).toBe(sha256(annaToken));
    expect(JSON.stringify(await grantRows())).not.toContain(annaToken);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'care_invite').where('outcome', '=', 'success').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_user_id: people.john!.id, subject: `patient:${patientIds.john}` });
    expect(JSON.stringify(audit)).not.toContain(annaToken);
  });

  it('e-mails in the patient’s language, naming the categories', async () => {
    const res = await call('greek', 'POST', '/api/v1/care-network/', { name: 'Bob Brown', email: 'bob@care.test', access: 'full', categories: ['medication', 'allergy'] });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await mailTo('bob@care.test', /δίκτυο φροντίδας/);
    expect(mail.subject).toBe('Ο/Η Ελένη Νικολάου σας προσκαλεί στο δίκτυο φροντίδας του/της');
    expect(mail.text).toContain('πλήρη πρόσβαση');
    expect(mail.text).toContain('μόνο: Φάρμακα, Αλλεργίες');
    expect(res.json<CareMember>().categories).toEqual(['medication', 'allergy']);
    expect((await call('greek', 'DELETE', `/api/v1/care-network/${res.json<CareMember>().id}/`)).statusCode).toBe(204);
  });

  it('refuses yourself, an address already invited, unknown access or categories: 400 naming the field, nothing stored, audited', async () => {
    const before = (await grantRows()).length;
    const self = await invite('john', { name: 'Me', email: 'JOHN@care.test', access: 'full' });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ email: ['You cannot invite yourself.'] });
    const again = await invite('john', { name: 'Anna again', email: 'anna@care.test', access: 'full' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ email: ['This person is already in your care network or has an invitation waiting.'] });
    const access = await invite('john', { name: 'X', email: 'x@care.test', access: 'admin' });
    expect(access.json()).toEqual({ access: ['Choose full or read-only access.'] });
    const category = await invite('john', { name: 'X', email: 'x@care.test', access: 'full', categories: ['medication', 'horoscope'] });
    expect(category.statusCode).toBe(400);
    expect(Object.keys(category.json())).toEqual(['categories.1']);
    const empty = await invite('john', { name: 'X', email: 'x@care.test', access: 'full', categories: [] });
    expect(empty.json()).toEqual({ categories: ['Choose at least one category, or give access to the whole record.'] });
    const repeated = await invite('john', { name: 'X', email: 'x@care.test', access: 'full', categories: ['allergy', 'allergy'] });
    expect(repeated.json()).toEqual({ categories: ['Each category can be chosen once.'] });
    const noName = await invite('john', { name: '  ', email: 'x@care.test', access: 'full' });
    expect(noName.json()).toEqual({ name: ["Enter the person's name."] });
    const greek = await call('john', 'POST', '/api/v1/care-network/', { name: 'X', email: 'john@care.test', access: 'full' }, { 'accept-language': 'el' });
    expect(greek.json()).toEqual({ email: ['Δεν μπορείτε να προσκαλέσετε τον εαυτό σας.'] });
    expect((await grantRows()).length).toBe(before);
    const denied = await t.db.selectFrom('audit_log').select('detail').where('action', '=', 'care_invite').where('outcome', '=', 'denied').execute();
    expect(denied.map((d) => (d.detail as { reason: string }).reason).sort()).toEqual(['already_invited', 'self', 'self']);
  });

  it('parallel invitations of one address: one 201, the others 400 careAlreadyInvited', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => invite('john', { name: 'Carol', email: 'carol@care.test', access: 'read-only' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.statusCode === 400)) expect(a.json()).toEqual({ email: ['This person is already in your care network or has an invitation waiting.'] });
    expect((await members()).filter((m) => m.email === 'carol@care.test')).toHaveLength(1);
  });

  it('previews an invitation publicly; an unknown or malformed token is 404 / 400', async () => {
    const res = await preview(annaToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json<CareInvitationPreview>()).toMatchObject({
      patient_name: 'John Doe',
      inviter_name: 'John Doe',
      organization: { client_id: 'care-a', name: 'Care Clinic' },
      email: 'anna@care.test',
      access: 'read-only',
      categories: null,
      status: 'pending',
      has_account: true,
    });
    expect((await preview('A'.repeat(43))).statusCode).toBe(404);
    const short = await preview('short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ token: ['This invitation link is not valid. Open the link from the e-mail again.'] });
  });

  describe('accepting', () => {
    it('refuses another account (403), your own record (400), another organisation (404), an expired invitation (410): nothing changed, audited', async () => {
      const other = await accept('bob', annaToken);
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({ detail: 'This invitation was sent to another e-mail address. Sign in with the account of the address it was sent to.' });
      const own = await accept('john', annaToken);
      expect(own.statusCode).toBe(400);
      expect(own.json()).toEqual({ detail: 'You cannot accept an invitation to your own record.' });
      // Eve has Anna's address, in another organisation: the token is looked up in hers only.
      const elsewhere = await accept('eve', annaToken);
      expect(elsewhere.statusCode).toBe(404);
      expect(elsewhere.json()).toEqual({ detail: 'This invitation is not valid any more: it may have been used, withdrawn or declined.' });
      expect((await accept('anna', 'B'.repeat(43))).statusCode).toBe(404);

      await t.db.updateTable('patient_grants').set({ expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', sha256(annaToken)).execute();
      const expired = await accept('anna', annaToken);
      expect(expired.statusCode).toBe(410);
      expect(expired.json()).toEqual({ detail: 'This invitation has expired. Ask the person who invited you to send it again.' });
      expect((await members()).find((m) => m.email === 'anna@care.test')!.status).toBe('expired');
      expect((await preview(annaToken)).json<CareInvitationPreview>().status).toBe('expired');
      await t.db.updateTable('patient_grants').set({ expires_at: new Date(Date.now() + 86_400_000) }).where('token_hash', '=', sha256(annaToken)).execute();

      const row = (await grantRows()).find((r) => r.token_hash === sha256(annaToken))!;
      expect(row).toMatchObject({ status: 'pending', grantee_user_id: null, accepted_at: null });
      const denied = await t.db.selectFrom('audit_log').select(['actor_user_id', 'detail']).where('action', '=', 'care_accept').where('outcome', '=', 'denied').orderBy('id').execute();
      expect(denied.map((d) => [d.actor_user_id, (d.detail as { reason: string }).reason])).toEqual([
        [people.bob!.id, 'careInvitationOtherAccount'],
        [people.john!.id, 'careInvitationOwnRecord'],
        [people.eve!.id, 'careInvitationNotFound'],
        [people.anna!.id, 'careInvitationNotFound'],
        [people.anna!.id, 'careInvitationExpired'],
      ]);
    });

    it('is single use under parallel requests: one 200, nine 4xx; the patient is told', async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => accept('anna', annaToken)));
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c >= 400 && c < 500)).toHaveLength(9);
      expect(answers.find((a) => a.statusCode === 200)!.json<CareAccepted>()).toEqual({ patient_id: patientIds.john, patient_name: 'John Doe', access: 'read-only' });
      const member = (await members()).find((m) => m.email === 'anna@care.test')!;
      expect(member).toMatchObject({ status: 'active', account_name: 'Anna Smith', expires_at: null, accepted_at: expect.any(String) });
      const row = (await grantRows()).find((r) => r.id === member.id)!;
      expect(row).toMatchObject({ status: 'active', grantee_user_id: people.anna!.id, token_hash: null });
      const told = await mailTo('john@care.test', /accepted your invitation/);
      expect(told.subject).toBe('Anna Smith accepted your invitation');
      expect(told.text).toContain('now has read-only access to your health record');
      expect(told.text).toContain(`${PUBLIC_URL}/care-a/careclub`);
      // Used: the token opens nothing any more.
      expect((await preview(annaToken)).statusCode).toBe(404);
      expect((await accept('anna', annaToken)).statusCode).toBe(404);
      const caring = (await call('anna', 'GET', '/api/v1/care-network/caring-for/')).json<CaringFor[]>();
      expect(caring).toEqual([{ patient_id: patientIds.john, patient_name: 'John Doe', access: 'read-only', categories: null, kind: 'invitation', since: expect.any(String) }]);
    });
  });

  describe('read-only, then full, then removed', () => {
    it('read-only: reads the record; writes, booking and chat are refused (403), nothing changed', async () => {
      expect((await records('anna')).statusCode).toBe(200);
      const write = await addRecord('anna');
      expect(write.statusCode).toBe(403);
      expect(write.json()).toEqual({ detail: 'Only people with full access can change this record: yours is read-only.', code: 'record_access_refused', area: 'records' });
      const slots = (await asCarer('anna', 'GET', `/api/v1/provider/${people.doctor!.id}/availability/?start=${day(1)}&end=${day(2)}`)).json<ProviderAvailability>().slots;
      const book = await asCarer('anna', 'POST', '/api/v1/provider/book_appointment/', { provider_id: people.doctor!.id, availability_det_id: slots[0]!.availability_det_id, reason_for_visit: 'Check-up' });
      expect(book.statusCode).toBe(403);
      const chat = await call('anna', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress', patient_id: patientIds.john });
      expect(chat.statusCode).toBe(403);
      expect(await t.db.selectFrom('appointments').select('id').execute()).toHaveLength(0);
      expect(await t.db.selectFrom('chat_conversations').select('id').execute()).toHaveLength(0);
      expect(await t.db.selectFrom('health_records').select('id').where('patient_id', '=', patientIds.john!).execute()).toHaveLength(0);
      // A caring person does not manage the patient's network.
      const manage = await asCarer('anna', 'POST', '/api/v1/care-network/', { name: 'Z', email: 'z@care.test', access: 'full' });
      expect(manage.statusCode).toBe(403);
      expect(manage.json()).toEqual({ detail: 'Only the person whose record it is can manage its care network.' });
      expect((await asCarer('anna', 'GET', '/api/v1/care-network/access-log/')).statusCode).toBe(403);
    });

    it('changed to full: writes at once; books "for" the patient (the provider sees Anna Smith for John Doe); chats', async () => {
      const id = (await members()).find((m) => m.email === 'anna@care.test')!.id;
      expect((await call('john', 'PATCH', `/api/v1/care-network/${id}/`, {})).json()).toEqual({ non_field_errors: ['Nothing to change: give at least one field.'] });
      const changed = await call('john', 'PATCH', `/api/v1/care-network/${id}/`, { access: 'full' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json<CareMember>()).toMatchObject({ access: 'full', status: 'active' });
      expect((await addRecord('anna')).statusCode).toBe(201);

      const slots = (await asCarer('anna', 'GET', `/api/v1/provider/${people.doctor!.id}/availability/?start=${day(1)}&end=${day(2)}`)).json<ProviderAvailability>().slots;
      const booked = await asCarer('anna', 'POST', '/api/v1/provider/book_appointment/', { provider_id: people.doctor!.id, availability_det_id: slots[0]!.availability_det_id, reason_for_visit: 'Check-up' });
      expect(booked.statusCode, booked.body).toBe(201);
      expect(booked.json<AppointmentDetail>()).toMatchObject({ patient_id: patientIds.john, patient_name: 'John Doe', booked_by_name: 'Anna Smith', cancelled_by_name: null });
      const toDoctor = await mailTo('doctor@care.test', /New booking/);
      expect(toDoctor.subject).toContain('New booking: Anna Smith for John Doe');
      expect(toDoctor.text).toContain('Anna Smith for John Doe has booked an appointment with you');
      const toJohn = await mailTo('john@care.test', /is booked/);
      expect(toJohn.text).toContain('Anna Smith, of your care network, booked it for you.');
      const mine = (await call('john', 'GET', '/api/v1/appointments/')).json<AppointmentDetail[]>();
      expect(mine[0]).toMatchObject({ booked_by_name: 'Anna Smith' });

      const chat = await call('anna', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress', patient_id: patientIds.john });
      expect([200, 201], chat.body).toContain(chat.statusCode);
      // Limited to some categories, at once: conditions are no longer theirs to see.
      expect((await call('john', 'PATCH', `/api/v1/care-network/${id}/`, { categories: ['allergy'] })).json<CareMember>().categories).toEqual(['allergy']);
      expect((await records('anna')).json<{ count: number }>().count).toBe(0);
      expect((await call('john', 'GET', '/api/v1/hr/condition/')).json<{ count: number }>().count).toBe(1);
      expect((await asCarer('anna', 'GET', '/api/v1/hr/allergy/')).statusCode).toBe(200);
      expect((await call('john', 'PATCH', `/api/v1/care-network/${id}/`, { categories: null })).json<CareMember>().categories).toBeNull();
      expect((await records('anna')).json<{ count: number }>().count).toBe(1);
    });

    it('who saw my record: the caring person’s accesses with their name, in the reader’s language; the patient’s own never', async () => {
      expect((await call('john', 'GET', '/api/v1/hr/condition/')).statusCode).toBe(200);
      const log = await call('john', 'GET', '/api/v1/care-network/access-log/');
      expect(log.statusCode, log.body).toBe(200);
      const page = log.json<AccessLogPage>();
      expect(page.count).toBe(page.results.length);
      expect(page.results.length).toBeGreaterThan(3);
      expect(page.results.every((e) => e.who !== 'John Doe')).toBe(true);
      const read = page.results.find((e) => e.action === 'record_read' && e.detail === 'Conditions')!;
      expect(read).toMatchObject({ who: 'Anna Smith', via: 'care-network', outcome: 'success', text: expect.stringMatching(/^Anna Smith viewed your health records( \d+ times)?$/) });
      // Reads alike on one day are one line: no two lines say the same.
      const keys = page.results.map((e) => `${e.who}|${e.action}|${e.outcome}|${e.detail}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(page.results.reduce((n, e) => n + e.count, 0)).toBeGreaterThan(page.results.length - 1);
      // Every line is a sentence, never a raw key.
      for (const e of page.results) expect(e.text, e.action).not.toMatch(/_/);
      expect(page.results.find((e) => e.action === 'record_create')).toMatchObject({ who: 'Anna Smith', detail: 'Conditions' });
      expect(page.results.find((e) => e.action === 'appointment_book')).toMatchObject({ who: 'Anna Smith', detail: 'Appointments' });
      expect(page.results.find((e) => e.action === 'patient_access')).toMatchObject({ who: 'Anna Smith', outcome: 'denied', detail: 'Access refused' });
      // Newest first.
      const times = page.results.map((e) => e.at);
      expect([...times].sort().reverse()).toEqual(times);
      const greek = (await call('john', 'GET', '/api/v1/care-network/access-log/', undefined, { 'accept-language': 'el' })).json<AccessLogPage>();
      expect(greek.results.find((e) => e.action === 'record_read' && e.via === 'care-network')!.detail).toBe('Παθήσεις');
      expect((await call('john', 'GET', '/api/v1/care-network/access-log/?page=2')).json<AccessLogPage>().results).toEqual([]);
      expect((await call('john', 'GET', '/api/v1/care-network/access-log/?page=x')).statusCode).toBe(400);
    });

    it('who saw my record: share recipients’ openings appear too, named as the patient named them', async () => {
      const created = await call('john', 'POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['condition'], method: 'qr', expires_in: '1h' });
      expect(created.statusCode, created.body).toBe(201);
      const { url, passcode } = created.json<{ url: string; passcode: string }>();
      const parts = new URL(url).pathname.split('/');
      const link = { uid: parts.at(-2)!, token: parts.at(-1)! };
      const wrong = passcode === '000000' ? '111111' : '000000';
      expect((await call(null, 'POST', '/api/v1/sharing/public/verify/', { ...link, code: wrong })).statusCode).toBe(400);
      const verified = await call(null, 'POST', '/api/v1/sharing/public/verify/', { ...link, code: passcode });
      expect(verified.statusCode, verified.body).toBe(200);
      // Opened twice: the sharing page lists both openings, and so does "who saw my record" (one line, twice).
      for (let i = 0; i < 2; i++) {
        const shown = await call(null, 'GET', '/api/v1/sharing/public/content/', undefined, { 'x-share-session': verified.json<{ session: string }>().session });
        expect(shown.statusCode).toBe(200);
      }
      const shareId = created.json<{ id: number }>().id;
      const openings = (await call('john', 'GET', `/api/v1/sharing/${shareId}/accesses/`)).json<Array<{ action: string }>>();
      expect(openings.filter((o) => o.action === 'viewed')).toHaveLength(2);
      const page = (await call('john', 'GET', '/api/v1/care-network/access-log/?tz=Europe/Athens')).json<AccessLogPage>();
      const viaShare = page.results.filter((e) => e.via === 'share');
      expect(viaShare.map((e) => [e.who, e.action, e.outcome, e.count, e.detail, e.text])).toEqual([
        ['Dr Grey', 'share_read', 'success', 2, 'Shared records viewed', 'Dr Grey opened your shared link and viewed the records 2 times'],
        ['Dr Grey', 'share_verify', 'success', 1, 'Share code entered', 'Dr Grey entered the code of your shared link'],
        ['Dr Grey', 'share_verify', 'denied', 1, 'Share code entered', 'Dr Grey entered a wrong code for your shared link'],
      ]);
      const greek = (await call('john', 'GET', '/api/v1/care-network/access-log/', undefined, { 'accept-language': 'el' })).json<AccessLogPage>();
      expect(greek.results.find((e) => e.action === 'share_read')!.text).toBe('Dr Grey άνοιξε τον σύνδεσμο που κοινοποιήσατε και είδε τις καταχωρίσεις 2 φορές');
      expect((await call('john', 'GET', '/api/v1/care-network/access-log/?tz=Mars/Olympus')).statusCode).toBe(400);
      // Making the share was John's own doing: not in his log.
      expect(page.results.find((e) => e.action === 'share_create')).toBeUndefined();
    });

    it('removed: the very next request of the removed person is 404; both are told; the row stays as revoked', async () => {
      const id = (await members()).find((m) => m.email === 'anna@care.test')!.id;
      expect((await records('anna')).statusCode).toBe(200);
      const removed = await call('john', 'DELETE', `/api/v1/care-network/${id}/`);
      expect(removed.statusCode).toBe(204);
      expect((await records('anna')).statusCode).toBe(404);
      expect((await asCarer('anna', 'GET', '/api/v1/journal/')).statusCode).toBe(404);
      expect((await call('anna', 'GET', '/api/v1/care-network/caring-for/')).json()).toEqual([]);
      expect((await members()).find((m) => m.id === id)).toBeUndefined();
      expect((await grantRows()).find((r) => r.id === id)).toMatchObject({ status: 'revoked', token_hash: null, ended_at: expect.any(Date) });
      const toJohn = await mailTo('john@care.test', /You removed/);
      expect(toJohn.subject).toBe('You removed Anna Smith from your care network');
      expect(toJohn.text).toContain('They no longer see your record.');
      const toAnna = await mailTo('anna@care.test', /removed you/);
      expect(toAnna.subject).toBe('John Doe removed you from their care network');
      expect((await call('john', 'DELETE', `/api/v1/care-network/${id}/`)).statusCode).toBe(404);
      expect((await call('john', 'PATCH', `/api/v1/care-network/${id}/`, { access: 'full' })).statusCode).toBe(404);
    });
  });
});

describe('resending, declining, leaving, signing up', () => {
  it('resends a pending invitation with a new token (the old one stops working), 3 an hour; not an accepted one', async () => {
    const { member, token } = await invited('fay@care.test');
    const res = await call('john', 'POST', `/api/v1/care-network/${member.id}/resend/`);
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(() => mailCount('fay@care.test', /invites you/)).toBe(2);
    const fresh = tokenOf(await mailTo('fay@care.test', /invites you/));
    expect(fresh).not.toBe(token);
    expect((await preview(token)).statusCode).toBe(404);
    expect((await preview(fresh)).statusCode).toBe(200);
    // An expired invitation may be sent again (and is pending again).
    await t.db.updateTable('patient_grants').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', member.id).execute();
    const renewed = await call('john', 'POST', `/api/v1/care-network/${member.id}/resend/`);
    expect(renewed.json<CareMember>().status).toBe('pending');
    expect((await call('john', 'POST', `/api/v1/care-network/${member.id}/resend/`)).statusCode).toBe(200);
    const throttled = await call('john', 'POST', `/api/v1/care-network/${member.id}/resend/`);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();
    expect((await call('bob', 'POST', `/api/v1/care-network/${member.id}/resend/`)).statusCode).toBe(404);
  });

  it('an expired invitation does not block inviting the address again', async () => {
    const { member } = await invited('gus@care.test');
    await t.db.updateTable('patient_grants').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', member.id).execute();
    const again = await invite('john', { name: 'Gus', email: 'gus@care.test', access: 'full' });
    expect(again.statusCode, again.body).toBe(201);
    expect((await grantRows()).find((r) => r.id === member.id)!.status).toBe('revoked');
  });

  it('declines: 204, the invitation ends; another account may not decline it', async () => {
    const { member, token } = await invited('dora@care.test');
    expect((await call('bob', 'POST', '/api/v1/care-network/invitations/decline/', { token })).statusCode).toBe(403);
    const res = await call('dora', 'POST', '/api/v1/care-network/invitations/decline/', { token });
    expect(res.statusCode).toBe(204);
    expect((await grantRows()).find((r) => r.id === member.id)).toMatchObject({ status: 'declined', token_hash: null });
    expect((await members()).find((m) => m.id === member.id)).toBeUndefined();
    expect((await accept('dora', token)).statusCode).toBe(404);
    expect((await call('dora', 'POST', '/api/v1/care-network/invitations/decline/', { token })).statusCode).toBe(404);
  });

  it('leaving: the person ends their own access (204), the patient is told, and the next request is 404', async () => {
    const { token } = await invited('dora@care.test', { access: 'full' });
    expect((await accept('dora', token)).statusCode).toBe(200);
    expect((await records('dora')).statusCode).toBe(200);
    expect((await call('dora', 'DELETE', `/api/v1/care-network/caring-for/${patientIds.bob}/`)).statusCode).toBe(404);
    expect((await call('dora', 'DELETE', `/api/v1/care-network/caring-for/${patientIds.john}/`)).statusCode).toBe(204);
    expect((await records('dora')).statusCode).toBe(404);
    const told = await mailTo('john@care.test', /left your care network/);
    expect(told.subject).toBe('Dora Green left your care network');
    expect((await call('dora', 'DELETE', `/api/v1/care-network/caring-for/${patientIds.john}/`)).statusCode).toBe(404);
  });

  it('without an account: a sign-up code for the invited address, the usual sign-up, then accepting', async () => {
    const { token } = await invited('newbie@care.test');
    expect((await preview(token)).json<CareInvitationPreview>().has_account).toBe(false);
    const person = { first_name: 'Nina', last_name: 'New', dob: '1990-05-01', gender: 'female' };
    const bad = await call(null, 'POST', '/api/v1/care-network/invitations/signup-code/', { token, ...person, dob: '2990-01-01' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['dob']);
    const res = await call(null, 'POST', '/api/v1/care-network/invitations/signup-code/', { token, ...person });
    expect(res.statusCode, res.body).toBe(200);
    const code = res.json<{ signup_code: string }>().signup_code;
    const invitation = await t.db.selectFrom('invitations').selectAll().where('email', '=', 'newbie@care.test').executeTakeFirstOrThrow();
    expect(invitation).toMatchObject({ org_id: orgA.id, created_by: people.john!.id, first_name: 'Nina', dob: '1990-05-01', used_at: null });
    expect(invitation.code_hash).not.toBe(code);
    // The code is answered, not e-mailed.
    expect(await mailCount('newbie@care.test', /You are invited/)).toBe(0);
    expect((await call(null, 'POST', '/api/v1/users/validate/', { org_id: orgA.id, signup_code: code })).statusCode).toBe(200);
    const registered = await call(null, 'POST', '/api/v1/users/register/', {
      user_id: null,
      first_name: 'Nina',
      last_name: 'New',
      sex: 'female',
      dob: '05/01/1990',
      email: 'newbie@care.test',
      password: 'Correct-Horse-42',
      signup_code: code,
      is_terms_privacy_policy_accepted: true,
      org_id: orgA.id,
    });
    expect(registered.statusCode, registered.body).toBe(201);
    await t.db.updateTable('users').set({ email_confirmed_at: new Date() }).where('email', '=', 'newbie@care.test').execute();
    tokens.nina = (await signIn(t.app, { email: 'newbie@care.test', password: 'Correct-Horse-42', org_id: orgA.id })).access;
    // Now the address has an account: sign in instead.
    const twice = await call(null, 'POST', '/api/v1/care-network/invitations/signup-code/', { token, ...person });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ detail: 'An account with this e-mail address already exists: sign in to accept the invitation.' });
    expect((await accept('nina', token)).json<CareAccepted>()).toMatchObject({ patient_id: patientIds.john, access: 'read-only' });
    expect((await records('nina')).statusCode).toBe(200);
  });

  it('a sign-up code for an expired or unknown invitation: 410 / 404', async () => {
    const { member, token } = await invited('late@care.test');
    await t.db.updateTable('patient_grants').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', member.id).execute();
    const person = { first_name: 'Leo', last_name: 'Late', dob: '1990-05-01', gender: 'male' };
    expect((await call(null, 'POST', '/api/v1/care-network/invitations/signup-code/', { token, ...person })).statusCode).toBe(410);
    expect((await call(null, 'POST', '/api/v1/care-network/invitations/signup-code/', { token: 'C'.repeat(43), ...person })).statusCode).toBe(404);
  });
});

describe('chatting for the patient on an open socket', () => {
  it('a full-access person chats as "Bob Brown for John Doe", audited; changed to read-only, their next message is refused', async () => {
    await t.db.updateTable('chat_conversations').set({ status: 'ended', ended_at: new Date(), end_reason: 'timeout' }).where('status', '<>', 'ended').execute();
    const { member, token } = await invited('bob@care.test', { access: 'full' });
    expect((await accept('bob', token)).statusCode).toBe(200);
    const joined = await call('bob', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress', patient_id: patientIds.john });
    expect([200, 201], joined.body).toContain(joined.statusCode);
    const details = joined.json<ChatDetails>();
    expect(details).toMatchObject({ patient_id: patientIds.john, user_id: people.bob!.id });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const ticket = (await call('bob', 'POST', '/api/v1/chat/ticket/')).json<{ ticket: string }>().ticket;
    const socket = TestChatSocket.open(base, { ticket, ...patientSocketQuery(details) });
    try {
      await socket.opened;
      await socket.next('welcome');
      expect((await call('coach', 'POST', '/api/v1/chat/queue/take/', { conversation_id: details.conversation_id })).statusCode).toBe(200);
      socket.send({ action: 'sendMessage', Msg: 'Hello, I write for my father', contentType: 'text/plain', clientMessageId: 'bob-msg-0001' });
      expect((await socket.next('ack')).clientMessageId).toBe('bob-msg-0001');
      const stored = await t.db.selectFrom('chat_messages').select(['sender_name', 'sender_user_id']).where('client_message_id', '=', 'bob-msg-0001').executeTakeFirstOrThrow();
      expect(stored).toEqual({ sender_name: 'Bob Brown for John Doe', sender_user_id: people.bob!.id });
      const audited = await t.db.selectFrom('audit_log').select(['actor_user_id', 'subject']).where('action', '=', 'chat_message').execute();
      expect(audited).toEqual([{ actor_user_id: people.bob!.id, subject: `patient:${patientIds.john}` }]);

      expect((await call('john', 'PATCH', `/api/v1/care-network/${member.id}/`, { access: 'read-only' })).statusCode).toBe(200);
      socket.send({ action: 'sendMessage', Msg: 'Still here?', contentType: 'text/plain', clientMessageId: 'bob-msg-0002' });
      const refused = await socket.nextOf(['error', 'ack']);
      expect(refused.type).toBe('error');
      expect(await t.db.selectFrom('chat_messages').select('id').where('client_message_id', '=', 'bob-msg-0002').execute()).toEqual([]);
      // Ending the patient's chat is asked again too (the socket keeps no earlier answer): refused, the chat goes on.
      socket.send({ action: 'endChat' });
      expect((await socket.nextOf(['error', 'ended'])).type).toBe('error');
      const still = await t.db.selectFrom('chat_conversations').select('status').where('id', '=', details.conversation_id).executeTakeFirstOrThrow();
      expect(still.status).toBe('active');
    } finally {
      socket.close();
      await call('john', 'DELETE', `/api/v1/care-network/${member.id}/`);
    }
  });
});

describe('the network’s limits and the other kinds', () => {
  it('at most 20 people pending or active: then 409', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({
      org_id: orgA.id,
      patient_id: patientIds.bob!,
      name: `P${i}`,
      email: `p${i}@care.test`,
      access: 'read-only' as const,
      status: 'pending' as const,
      expires_at: new Date(Date.now() + 86_400_000),
      token_hash: sha256(`bob-${i}`),
    }));
    await t.db.insertInto('patient_grants').values(rows).execute();
    const full = await invite('bob', { name: 'One more', email: 'more@care.test', access: 'full' });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ detail: 'Your care network is full (20 people). Remove someone before inviting another person.' });
    expect(await members('bob')).toHaveLength(20);
  });

  it('a manager of a family member without an account cannot leave it (409); another organisation sees nothing', async () => {
    const child = await t.db.insertInto('patients').values({ org_id: orgA.id, user_id: null, first_name: 'Kid', last_name: 'Green', dob: '2015-01-01', gender: 'male' }).returning('id').executeTakeFirstOrThrow();
    await t.db
      .insertInto('patient_grants')
      .values({ org_id: orgA.id, patient_id: child.id, kind: 'dependant', grantee_user_id: people.dora!.id, name: 'Kid Green', email: null, access: 'full', status: 'active' })
      .execute();
    expect((await call('dora', 'GET', '/api/v1/care-network/caring-for/')).json<CaringFor[]>()).toEqual([
      { patient_id: child.id, patient_name: 'Kid Green', access: 'full', categories: null, kind: 'dependant', since: expect.any(String) },
    ]);
    const leave = await call('dora', 'DELETE', `/api/v1/care-network/caring-for/${child.id}/`);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().detail).toContain('family member');
    expect((await call('dora', 'GET', `/api/v1/hr/condition/?patient=${child.id}`)).statusCode).toBe(200);
    // The managed record has no owner to manage its network.
    expect((await call('dora', 'GET', '/api/v1/care-network/', undefined, { 'x-patient-id': String(child.id) })).statusCode).toBe(403);

    const johnsGrant = (await members()).find((m) => m.email === 'newbie@care.test')!;
    expect((await call('eve', 'PATCH', `/api/v1/care-network/${johnsGrant.id}/`, { access: 'full' })).statusCode).toBe(404);
    expect((await call('eve', 'DELETE', `/api/v1/care-network/${johnsGrant.id}/`)).statusCode).toBe(404);
    expect((await call('eve', 'GET', '/api/v1/care-network/')).json()).toEqual([]);
    expect((await call('eve', 'GET', '/api/v1/care-network/', undefined, { 'x-patient-id': String(patientIds.john) })).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/v1/care-network/')).statusCode).toBe(401);
  });

  it('a dependant-kind manager shows on the list of a dependant who has an account, and may be removed', async () => {
    await t.db
      .insertInto('patient_grants')
      .values({ org_id: orgA.id, patient_id: patientIds.greek!, kind: 'dependant', grantee_user_id: people.dora!.id, name: 'Dora Green', email: null, access: 'full', status: 'active' })
      .execute();
    const [manager] = (await members('greek')).filter((m) => m.kind === 'dependant');
    expect(manager).toMatchObject({ name: 'Dora Green', email: 'dora@care.test', account_name: 'Dora Green', status: 'active' });
    expect((await call('greek', 'DELETE', `/api/v1/care-network/${manager!.id}/`)).statusCode).toBe(204);
    expect((await call('dora', 'GET', `/api/v1/hr/condition/?patient=${patientIds.greek}`)).statusCode).toBe(404);
  });

  it('the feature turned off: 403 on the signed-in routes, 404 on the public ones', async () => {
    const { token } = await invited('hal@care.test');
    const feature = await t.db.selectFrom('features').select('id').where('key', '=', 'careclub').executeTakeFirstOrThrow();
    const set = (status: string) => call('admin', 'PUT', `/api/v1/features/${feature.id}/`, { organization_id: orgA.id, feature_status: status });
    expect((await set('disabled')).statusCode).toBe(200);
    try {
      expect((await call('john', 'GET', '/api/v1/care-network/')).statusCode).toBe(403);
      expect((await accept('bob', token)).statusCode).toBe(403);
      expect((await preview(token)).statusCode).toBe(404);
    } finally {
      expect((await set('active')).statusCode).toBe(200);
    }
    expect((await preview(token)).statusCode).toBe(200);
  });
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
