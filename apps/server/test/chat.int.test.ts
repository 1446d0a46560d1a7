// On PostgreSQL too (vitest.config.ts): a patient and a coach on two processes sharing one database.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_CLOSE,
  CHAT_FILE_MAX_BYTES,
  CHAT_GREETING_MARKER,
  CHAT_SLICE_CHARS,
  patientSocketQuery,
  type ChatConversation,
  type ChatDetails,
  type ChatTicket,
  type ChatTranscript,
  type QueueEntry,
} from '@healthbook/shared';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { redisReachable } from './redis';
import { TestChatSocket } from './chat-client';
import { bearer, buildGrant, buildOrganization, buildUser, PNG_1X1, signIn, type BuiltUser } from './factories';

/**
 * Live chat (issue 11) with real WebSocket clients: tickets, the query's checks, the queue and
 * its positions, taking a patient, the greeting, messages both ways (stored before they are
 * acknowledged), the exit notice, inline and sliced files, every refused frame, reconnecting
 * without loss or repetition, the sweep, the history and its files, and (on PostgreSQL with
 * Redis) a patient and a coach on two server processes.
 */

let t: TestApp;
let base: string;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};
const patients: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp({ perIpLimitFloor: 10_000 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const org = await buildOrganization(t.app, { name: 'chat-org' });
  const other = await buildOrganization(t.app, { name: 'chat-other' });
  const make = async (name: string, o: { id: number }, roles: string[], first: string) => {
    people[name] = await buildUser(t.app, { org: o, roles, first_name: first, last_name: 'Tester', dob: '1980-01-01' });
    tokens[name] = (await signIn(t.app, { email: people[name].email, password: people[name].password, org_id: people[name].org_id })).access;
    const patient = await t.db.selectFrom('patients').select('id').where('user_id', '=', people[name].id).executeTakeFirst();
    if (patient) patients[name] = patient.id;
  };
  for (const n of ['ann', 'ben', 'cat', 'dan', 'eve']) await make(n, org, ['patient'], n[0]!.toUpperCase() + n.slice(1));
  await make('coach', org, ['professional', 'coach'], 'Sofia');
  await make('coach2', org, ['professional', 'coach'], 'Maria');
  await make('doctor', org, ['professional', 'provider'], 'Nikos');
  await make('stranger', other, ['patient'], 'Stan');
  await make('otherCoach', other, ['professional', 'coach'], 'Olga');
  await t.db.updateTable('users').set({ credential: 'MSc' }).where('id', '=', people.coach!.id).execute();
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });

async function ticket(who: string): Promise<string> {
  const res = await call(who, 'POST', '/api/v1/chat/ticket/');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChatTicket>().ticket;
}

async function join(who: string, providerType = 'coach', reason = 'stress'): Promise<ChatDetails> {
  const res = await call(who, 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: providerType, reason });
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json<ChatDetails>();
}

const patientQuery = (details: ChatDetails, extra: Record<string, string | number> = {}) => ({ ...patientSocketQuery(details), ...extra });

async function patientSocket(who: string, details: ChatDetails, extra: Record<string, string | number> = {}): Promise<TestChatSocket> {
  const s = TestChatSocket.open(base, { ticket: await ticket(who), ...patientQuery(details, extra) });
  await s.opened;
  await s.next('welcome');
  return s;
}

async function staffSocket(who: string, extra: Record<string, string | number> = {}): Promise<TestChatSocket> {
  const s = TestChatSocket.open(base, { ticket: await ticket(who), userId: people[who]!.id, isPatient: false, orgName: 'chat-org', ...extra });
  await s.opened;
  await s.next('welcome');
  return s;
}

async function endAll() {
  await t.db.updateTable('chat_conversations').set({ status: 'ended', ended_at: sql`now()`, end_reason: 'timeout' }).where('status', '<>', 'ended').execute();
}

const messageCount = async () => Number((await t.db.selectFrom('chat_messages').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

describe('joining and the ticket', () => {
  it('lists the reasons per provider type, in the asked language', async () => {
    const res = await call('ann', 'GET', '/api/v1/peercoaching/providertypereasons/', undefined, 'el');
    expect(res.statusCode).toBe(200);
    const list = res.json<Array<{ provider_type: string; provider_type_name: string; reasons: Array<{ value: string; name: string }> }>>();
    expect(list.map((l) => l.provider_type)).toEqual(['coach', 'provider']);
    expect(list[0]!.provider_type_name).toBe('Σύμβουλος ομοτίμων');
    expect(list[0]!.reasons.find((r) => r.value === 'stress')!.name).toBe('Άγχος ή στρες');
  });

  it('refuses an unknown provider type or reason, and answers the open chat when joining twice', async () => {
    expect((await call('ann', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'wizard', reason: 'stress' })).statusCode).toBe(400);
    const bad = await call('ann', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'symptoms' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ reason: ['This reason is not offered for this kind of chat.'] });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('ann', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress' })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.json<ChatDetails>().conversation_id)).size).toBe(1);
    const details = answers[0]!.json<ChatDetails>();
    expect(details).toMatchObject({ status: 'queued', patient_id: patients.ann, provider_type: 'coach', reason_for_visit: 'Stress or anxiety', org_name: 'chat-org', credential_id: '' });
    expect((await call('ann', 'GET', '/api/v1/chat/current/')).json()).toMatchObject({ chat: { conversation_id: details.conversation_id } });
    expect((await call('ann', 'POST', '/api/v1/peercoaching/endchat/', {})).statusCode).toBe(200);
    expect((await call('ann', 'GET', '/api/v1/chat/current/')).json()).toEqual({ chat: null });
    expect((await call('ann', 'POST', '/api/v1/peercoaching/endchat/', {})).statusCode).toBe(404);
  });

  it('the open chat is found again from the server, e.g. after signing in anew: by the one who joined it, with its coach', async () => {
    const details = await join('eve');
    const socket = await patientSocket('eve', details);
    const taken = await call('coach', 'POST', '/api/v1/chat/queue/take/', { conversation_id: details.conversation_id });
    expect(taken.statusCode, taken.body).toBe(200);
    // Signed out and in again: a new session, nothing kept by the client.
    const again = await signIn(t.app, { email: people.eve!.email, password: people.eve!.password, org_id: people.eve!.org_id });
    const current = await t.app.inject({ method: 'GET', url: '/api/v1/chat/current/', headers: bearer(again.access) });
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json()).toMatchObject({ chat: { conversation_id: details.conversation_id, status: 'active', provider_name: 'Sofia Tester', patient_id: patients.eve, user_id: people.eve!.id } });
    expect((await call('eve', 'GET', `/api/v1/chat/current/?patient=${patients.eve}`)).json()).toMatchObject({ chat: { conversation_id: details.conversation_id } });
    // Nobody else is put into it: another patient, the coach (no chat of their own), a carer viewing Eve's record
    // (they did not join it), someone of another organisation asking for her record.
    await buildGrant(t, { patient: { id: patients.eve!, org_id: people.eve!.org_id }, grantee: people.ben!, access: 'full' });
    expect((await call('ann', 'GET', '/api/v1/chat/current/')).json()).toEqual({ chat: null });
    expect((await call('coach', 'GET', '/api/v1/chat/current/')).json()).toEqual({ chat: null });
    const carer = await t.app.inject({ method: 'GET', url: '/api/v1/chat/current/', headers: { ...bearer(tokens.ben!), 'x-patient-id': String(patients.eve) } });
    expect(carer.statusCode, carer.body).toBe(200);
    expect(carer.json()).toEqual({ chat: null });
    expect((await call('stranger', 'GET', `/api/v1/chat/current/?patient=${patients.eve}`)).statusCode).toBe(404);
    socket.close();
    await endAll();
  });

  it('a ticket opens one socket, once, within 30 seconds; a missing or unknown one is refused with 4401', async () => {
    const details = await join('ben');
    const query = patientQuery(details);
    expect((await TestChatSocket.open(base, query).closed).code).toBe(CHAT_CLOSE.ticket);
    expect((await TestChatSocket.open(base, { ...query, ticket: 'x'.repeat(43) }).closed).code).toBe(CHAT_CLOSE.ticket);
    // Twenty sockets at once with one ticket: exactly one opens.
    const one = await ticket('ben');
    const sockets = Array.from({ length: 20 }, () => TestChatSocket.open(base, { ...query, ticket: one }));
    const outcomes = await Promise.all(sockets.map((s) => Promise.race([s.next('welcome').then(() => 'open'), s.closed.then((c) => c.code)])));
    expect(outcomes.filter((o) => o === 'open')).toHaveLength(1);
    expect(outcomes.filter((o) => o === CHAT_CLOSE.ticket)).toHaveLength(19);
    for (const s of sockets) s.close();
    // Expired.
    const old = await ticket('ben');
    await t.db.updateTable('chat_tickets').set({ expires_at: sql`now() - interval '1 second'` }).where('used_at', 'is', null).execute();
    expect((await TestChatSocket.open(base, { ...query, ticket: old }).closed).code).toBe(CHAT_CLOSE.ticket);
    await endAll();
  });

  it('closes with 4403 when a parameter is not the signed-in user’s, and refuses a foreign Origin', async () => {
    const details = await join('cat');
    const closes = async (extra: Record<string, string | number>) => (await TestChatSocket.open(base, { ticket: await ticket('cat'), ...patientQuery(details, extra) }).closed).code;
    expect(await closes({ userId: people.ann!.id })).toBe(CHAT_CLOSE.mismatch);
    expect(await closes({ patientId: patients.ann! })).toBe(CHAT_CLOSE.mismatch);
    expect(await closes({ patientId: patients.stranger! })).toBe(CHAT_CLOSE.mismatch);
    expect(await closes({ orgName: 'chat-other' })).toBe(CHAT_CLOSE.mismatch);
    expect(await closes({ credential: 'MD' })).toBe(CHAT_CLOSE.mismatch);
    expect(await closes({ providerType: 'provider' })).toBe(CHAT_CLOSE.mismatch);
    expect(await closes({ userId: 'abc' })).toBe(CHAT_CLOSE.mismatch);
    // A patient who is not staff cannot open the console's socket.
    expect((await TestChatSocket.open(base, { ticket: await ticket('cat'), userId: people.cat!.id, isPatient: false, orgName: 'chat-org' }).closed).code).toBe(CHAT_CLOSE.forbidden);
    // Staff of another organisation.
    expect((await TestChatSocket.open(base, { ticket: await ticket('otherCoach'), userId: people.otherCoach!.id, isPatient: false, orgName: 'chat-org' }).closed).code).toBe(CHAT_CLOSE.mismatch);
    const foreign = TestChatSocket.open(base, { ticket: await ticket('cat'), ...patientQuery(details) }, { origin: 'https://evil.example' });
    await expect(foreign.opened).rejects.toThrow();
    expect(foreign.refusedWith).toBe(403);
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'chat_socket').where('actor_user_id', '=', people.cat!.id).execute();
    expect(audit.length).toBeGreaterThanOrEqual(6);
    await endAll();
  });

  it('a patient of the original protocol joins by connecting with reason and providerType', async () => {
    const s = TestChatSocket.open(base, { ticket: await ticket('dan'), userId: people.dan!.id, isPatient: true, reason: 'loneliness', providerType: 'coach', patientId: patients.dan!, orgName: 'chat-org', credential: 'null' });
    const welcome = await s.next('welcome');
    expect(welcome.conversations[0]).toMatchObject({ status: 'queued', reason_for_visit: 'Feeling lonely' });
    expect((await s.next('position')).Position).toBe(1);
    s.close();
    await endAll();
  });
});

describe('the queue, the console and a conversation', () => {
  it('positions follow joins and departures; the coach sees the queue; taking greets the patient', async () => {
    const coach = await staffSocket('coach', { credential: 'MSc' });
    expect((await coach.next('queue')).queue).toEqual([]);
    const sockets: Record<string, TestChatSocket> = {};
    const details: Record<string, ChatDetails> = {};
    for (const [i, who] of ['ann', 'ben', 'cat'].entries()) {
      details[who] = await join(who);
      sockets[who] = await patientSocket(who, details[who]!);
      expect((await sockets[who]!.next('position')).Position).toBe(i + 1);
      await coach.next('queue', (e) => e.queue.length === i + 1);
    }
    // Ben leaves: Cat moves up.
    expect((await call('ben', 'POST', '/api/v1/peercoaching/endchat/', {})).statusCode).toBe(200);
    expect((await sockets.ben!.closed).code).toBe(CHAT_CLOSE.ended);
    expect((await sockets.cat!.next('position', (e) => e.Position === 2)).Position).toBe(2);
    // (A queue of two sent before Ben left may still be waiting: the one without him is the answer.)
    const queue = (await coach.next('queue', (e) => e.queue.length === 2 && !e.queue.some((q: QueueEntry) => q.patient_name === 'Ben Tester'))).queue;
    expect(queue.map((q: QueueEntry) => [q.patient_name, q.position, q.reason_for_visit])).toEqual([
      ['Ann Tester', 1, 'Stress or anxiety'],
      ['Cat Tester', 2, 'Stress or anxiety'],
    ]);
    // A provider does not serve the coaches' queue; a patient cannot take anyone.
    expect((await call('doctor', 'GET', '/api/v1/chat/queue/')).json()).toEqual([]);
    expect((await call('doctor', 'POST', '/api/v1/chat/queue/take/', {})).statusCode).toBe(404);
    expect((await call('ann', 'POST', '/api/v1/chat/queue/take/', {})).statusCode).toBe(403);
    expect((await call('otherCoach', 'POST', '/api/v1/chat/queue/take/', { conversation_id: details.cat!.conversation_id })).statusCode).toBe(404);

    // The coach takes the next (Ann), then Cat by choice: two chats at once.
    const taken = await call('coach', 'POST', '/api/v1/chat/queue/take/', {});
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json<ChatConversation>()).toMatchObject({ conversation_id: details.ann!.conversation_id, status: 'active', provider_name: 'Sofia Tester' });
    const started = await sockets.ann!.next('started');
    expect(started).toMatchObject({ provider_name: 'Sofia Tester', provider_type: 'coach' });
    const greeting = await sockets.ann!.next('message', (m) => m.kind === 'greeting');
    expect(greeting.Message).toContain(CHAT_GREETING_MARKER);
    expect(greeting).toMatchObject({ SenderName: 'Sofia Tester', ProviderType: 'coach', me: false });
    expect((await sockets.cat!.next('position', (e) => e.Position === 1)).Position).toBe(1);
    await coach.next('started', (e) => e.conversationId === details.ann!.conversation_id);
    const again = await call('coach', 'POST', '/api/v1/chat/queue/take/', { conversation_id: details.ann!.conversation_id });
    expect(again.statusCode).toBe(409);
    // Twenty parallel takes of Cat: one wins.
    const takes = await Promise.all(Array.from({ length: 20 }, () => call('coach', 'POST', '/api/v1/chat/queue/take/', { conversation_id: details.cat!.conversation_id })));
    expect(takes.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(takes.filter((r) => r.statusCode === 409)).toHaveLength(19);
    await sockets.cat!.next('started');

    // Messages both ways: acknowledged once stored, relayed to the other side only.
    const before = await messageCount();
    sockets.ann!.send({ action: 'sendMessage', Msg: '  I feel anxious  ', contentType: 'text/plain', clientMessageId: 'ann-msg-0001' });
    const ack = await sockets.ann!.next('ack');
    expect(ack).toMatchObject({ received: 'ok', clientMessageId: 'ann-msg-0001', conversationId: details.ann!.conversation_id });
    const stored = await t.db.selectFrom('chat_messages').selectAll().where('id', '=', ack.id!).executeTakeFirstOrThrow();
    expect(stored.body).toBe('I feel anxious');
    const atCoach = await coach.next('message', (m) => m.id === ack.id);
    expect(atCoach).toMatchObject({ Message: 'I feel anxious', SenderName: 'Ann Tester', me: false, ProviderType: null });
    coach.send({ action: 'sendMessage', Msg: 'Tell me more', contentType: 'text/plain', conversationId: details.ann!.conversation_id, clientMessageId: 'coach-msg-01' });
    const atAnn = await sockets.ann!.next('message', (m) => m.Message === 'Tell me more');
    expect(atAnn).toMatchObject({ SenderName: 'Sofia Tester', ProviderType: 'coach', me: false });
    // The original's ReceiverId (the patient's user id) reaches the same conversation.
    coach.send({ action: 'sendMessage', Msg: 'Hello Cat', ReceiverId: String(people.cat!.id) });
    await sockets.cat!.next('message', (m) => m.Message === 'Hello Cat');
    expect(sockets.ann!.events.some((e) => e.type === 'message' && e.Message === 'Hello Cat')).toBe(false);
    expect(await messageCount()).toBe(before + 3);

    // Not in the conversation: refused, nothing stored.
    coach.send({ action: 'sendMessage', Msg: 'psst', conversationId: details.ben!.conversation_id });
    expect((await coach.next('error')).code).toBe('notInConversation');
    sockets.ann!.send({ action: 'sendMessage', Msg: 'to cat', conversationId: details.cat!.conversation_id });
    expect((await sockets.ann!.next('error')).code).toBe('notInConversation');
    sockets.ann!.send({ action: 'sendMessage', Msg: '   ' });
    expect((await sockets.ann!.next('error')).code).toBe('emptyMessage');
    expect(await messageCount()).toBe(before + 3);

    // The coach ends Ann's chat: Ann gets the exit notice and her socket closes; Cat's chat goes on.
    const ended = await call('coach', 'POST', '/api/v1/peercoaching/endchat/', { conversation_id: details.ann!.conversation_id });
    expect(ended.statusCode).toBe(200);
    const exit = await sockets.ann!.next('ended');
    expect(exit.Message).toMatch(/^Sofia Tester exited the chat session at \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(exit).toMatchObject({ SenderName: 'Sofia Tester', reason: 'provider' });
    expect((await sockets.ann!.closed).code).toBe(CHAT_CLOSE.ended);
    coach.send({ action: 'sendMessage', Msg: 'still there?', conversationId: details.ann!.conversation_id });
    expect((await coach.next('error')).code).toBe('notActive');

    // Cat ends by the socket: the coach gets the notice.
    sockets.cat!.send({ action: 'endChat' });
    const catExit = await coach.next('ended', (e) => e.conversationId === details.cat!.conversation_id);
    expect(catExit.Message).toContain('Cat Tester exited the chat session at');
    expect((await sockets.cat!.closed).code).toBe(CHAT_CLOSE.ended);

    // The history: the patient's own, the coach's, and nobody else's.
    const mine = (await call('ann', 'GET', '/api/v1/chat/conversations/')).json<ChatConversation[]>();
    expect(mine[0]).toMatchObject({ conversation_id: details.ann!.conversation_id, status: 'ended', end_reason: 'provider', message_count: 2 });
    const transcript = (await call('coach', 'GET', `/api/v1/chat/conversations/${details.ann!.conversation_id}/`)).json<ChatTranscript>();
    expect(transcript.messages.map((m) => [m.kind, m.me])).toEqual([
      ['greeting', true],
      ['text', false],
      ['text', true],
      ['exit', true],
    ]);
    const coachHistory = (await call('coach', 'GET', `/api/v1/chat/conversations/?patient=${patients.ann}`)).json<ChatConversation[]>();
    expect(coachHistory.map((c) => c.conversation_id)).toEqual([details.ann!.conversation_id]);
    expect((await call('ben', 'GET', `/api/v1/chat/conversations/${details.ann!.conversation_id}/`)).statusCode).toBe(404);
    expect((await call('doctor', 'GET', `/api/v1/chat/conversations/${details.ann!.conversation_id}/`)).statusCode).toBe(404);
    expect((await call('stranger', 'GET', `/api/v1/chat/conversations/${details.ann!.conversation_id}/`)).statusCode).toBe(404);
    const reads = await t.db.selectFrom('audit_log').select('subject').where('action', '=', 'chat_read').where('actor_user_id', '=', people.coach!.id).execute();
    expect(reads.map((r) => r.subject)).toContain(`patient:${patients.ann}`);

    // A colleague serving the same queue reaches none of it: a care-team scope is the staff member's own caseload.
    expect((await call('coach2', 'GET', `/api/v1/chat/conversations/${details.ann!.conversation_id}/`)).statusCode).toBe(404);
    expect((await call('coach2', 'GET', `/api/v1/chat/conversations/?patient=${patients.ann}`)).json()).toEqual([]);
    expect((await call('coach2', 'POST', '/api/v1/peercoaching/endchat/', { conversation_id: details.ann!.conversation_id })).statusCode).toBe(404);
    // The coach's whole history (no patient asked) is on the trail of each patient it shows, once each.
    const lastRow = await t.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const history = (await call('coach', 'GET', '/api/v1/chat/conversations/')).json<ChatConversation[]>();
    const trail = await t.db.selectFrom('audit_log').select(['subject', 'detail']).where('action', '=', 'chat_read').where('actor_user_id', '=', people.coach!.id).where('id', '>', lastRow.id).execute();
    expect(trail.map((r) => r.subject).sort()).toEqual([...new Set(history.map((c) => `patient:${c.patient_id}`))].sort());
    expect(trail.map((r) => r.subject)).toEqual(expect.arrayContaining([`patient:${patients.ann}`, `patient:${patients.cat}`]));
    coach.close();
  });
});

describe('files', () => {
  let coach: TestChatSocket;
  let patient: TestChatSocket;
  let conversationId: number;

  beforeAll(async () => {
    await endAll();
    coach = await staffSocket('coach');
    const details = await join('eve');
    conversationId = details.conversation_id;
    patient = await patientSocket('eve', details);
    expect((await call('coach', 'POST', '/api/v1/chat/queue/take/', { conversation_id: conversationId })).statusCode).toBe(200);
    await patient.next('started');
  });
  afterAll(() => {
    coach?.close();
    patient?.close();
  });

  /** Sends a file in 32,000-character slices, each after the previous one's acknowledgement. */
  async function sendSliced(s: TestChatSocket, data: Buffer, fileName: string, contentType: string, clientMessageId: string, conversation?: number) {
    const b64 = data.toString('base64');
    const count = Math.ceil(b64.length / CHAT_SLICE_CHARS);
    let last;
    for (let i = 0; i < count; i++) {
      const piece = b64.slice(i * CHAT_SLICE_CHARS, (i + 1) * CHAT_SLICE_CHARS);
      s.send({ action: 'sendMessage', chunkId: i, fileName, chunkSize: piece.length, isEOF: i === count - 1, Msg: piece, contentType, clientMessageId, ...(conversation ? { conversationId: conversation } : {}) });
      last = await s.next('ack', (a) => a.chunkId === i);
    }
    return last!;
  }

  it('an inline image reaches the other side as a download only the two can open', async () => {
    patient.send({ action: 'sendMessage', Msg: PNG_1X1.toString('base64'), contentType: 'image/png', fileName: 'rash.png', clientMessageId: 'eve-file-001' });
    const ack = await patient.next('ack');
    const atCoach = await coach.next('message', (m) => m.id === ack.id);
    expect(atCoach).toMatchObject({ kind: 'file', contentType: 'image/png', Message: 'rash.png', file: { name: 'rash.png', content_type: 'image/png' } });
    const res = await call('coach', 'GET', `/api/v1/chat/files/${ack.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    for (const who of ['ann', 'doctor', 'stranger']) expect((await call(who, 'GET', `/api/v1/chat/files/${ack.id}/`)).statusCode).toBe(404);
    // The patient saves it to the Document Center.
    const saved = await call('eve', 'POST', `/api/v1/chat/files/${ack.id}/save/`, {});
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({ file_name: 'rash.png', content_type: 'image/png' });
    expect((await call('coach', 'POST', `/api/v1/chat/files/${ack.id}/save/`, {})).statusCode).toBe(404);
  });

  it('a 5 MB file in slices arrives byte-identical', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(CHAT_FILE_MAX_BYTES - 9)]);
    const started = Date.now();
    const ack = await sendSliced(coach, pdf, 'care-plan.pdf', 'application/pdf', 'coach-file-01', conversationId);
    console.log(`[chat] 5,242,880 bytes in ${Math.ceil(pdf.toString('base64').length / CHAT_SLICE_CHARS)} slices stored in ${Date.now() - started} ms`);
    const message = await patient.next('message', (m) => m.id === ack.id, 15_000);
    expect(message.file).toMatchObject({ name: 'care-plan.pdf', size: CHAT_FILE_MAX_BYTES });
    const res = await call('eve', 'GET', `/api/v1/chat/files/${ack.id}/`);
    expect(res.rawPayload.equals(pdf)).toBe(true);
  });

  it('refuses slices out of order, damaged, too large, over 5 MB, and files of another type: nothing stored', async () => {
    const before = await messageCount();
    const piece = Buffer.alloc(24_000, 1).toString('base64');
    const slice = (chunkId: number, extra: Record<string, unknown> = {}) => ({ action: 'sendMessage', chunkId, fileName: 'x.pdf', chunkSize: piece.length, isEOF: false, Msg: piece, contentType: 'application/pdf', ...extra });
    patient.send(slice(0));
    await patient.next('ack', (a) => a.chunkId === 0);
    patient.send(slice(2));
    expect((await patient.next('error')).code).toBe('sliceOrder');
    patient.send(slice(5));
    expect((await patient.next('error')).code).toBe('sliceOrder');
    patient.send(slice(0, { Msg: `${piece.slice(0, -4)}!!!!` }));
    expect((await patient.next('error')).code).toBe('sliceInvalid');
    patient.send(slice(0, { chunkSize: 10 }));
    expect((await patient.next('error')).code).toBe('sliceInvalid');
    patient.send(slice(0, { Msg: `${piece}AAAA`, chunkSize: piece.length + 4 }));
    expect((await patient.next('error')).code).toBe('invalidMessage');
    expect(await messageCount()).toBe(before);
    // Over 5 MB: refused when the total passes the limit.
    const coachPieces = Buffer.alloc(CHAT_FILE_MAX_BYTES + 24_000, 7).toString('base64');
    let refused = null;
    for (let i = 0; refused === null; i++) {
      const p = coachPieces.slice(i * CHAT_SLICE_CHARS, (i + 1) * CHAT_SLICE_CHARS);
      coach.send({ action: 'sendMessage', chunkId: i, fileName: 'huge.pdf', chunkSize: p.length, isEOF: false, Msg: p, conversationId });
      const answer = await coach.nextOf(['ack', 'error']);
      if (answer.type === 'error') refused = answer;
    }
    expect(refused, JSON.stringify(refused)).toMatchObject({ code: 'fileTooLarge', Message: 'huge.pdf exceeds file size of 5MB' });
    // Not a PDF or an image (by its bytes, whatever it claims).
    coach.send({ action: 'sendMessage', Msg: Buffer.from('MZ this is an executable').toString('base64'), contentType: 'application/pdf', fileName: 'a.pdf', conversationId });
    expect((await coach.next('error')).code).toBe('fileType');
    expect(await messageCount()).toBe(before);
  });
});

describe('bad input on the socket', () => {
  it('malformed JSON, unknown actions, binary frames: errors, then a close; an oversized frame closes with 1009; others keep being served', async () => {
    await endAll();
    const details = await join('ann');
    const s = await patientSocket('ann', details);
    const bystanderDetails = await join('ben');
    const bystander = await patientSocket('ben', bystanderDetails);
    s.sendRaw('{nope');
    expect((await s.next('error')).code).toBe('invalidJson');
    s.send({ action: 'dance' });
    expect((await s.next('error')).code).toBe('invalidMessage');
    s.sendRaw(Buffer.from([1, 2, 3]));
    expect((await s.next('error')).code).toBe('invalidJson');
    for (let i = 0; i < 4; i++) s.send({ action: 'sendMessage', Msg: 5 });
    expect((await s.closed).code).toBe(CHAT_CLOSE.protocol);
    const big = await patientSocket('ann', details);
    big.sendRaw('x'.repeat(70 * 1024));
    expect((await big.closed).code).toBe(1009);
    bystander.send({ action: 'sendMessage', Msg: 'getPosition' });
    expect((await bystander.next('position')).Position).toBeGreaterThanOrEqual(1);
    bystander.close();
  });
});

describe('failures', () => {
  it('a text holding U+0000 is refused as invalidMessage; the server’s own failures never close the socket', async () => {
    await endAll();
    const details = await join('ann');
    const s = await patientSocket('ann', details);
    s.send({ action: 'sendMessage', Msg: 'hello\u0000world', clientMessageId: 'nul-msg-0001' });
    expect((await s.next('error')).code).toBe('invalidMessage');
    const store = t.app.chat.store;
    const insert = store.insertMessage.bind(store);
    store.insertMessage = async () => {
      throw new Error('timeout exceeded when trying to connect');
    };
    try {
      for (let i = 1; i <= 8; i++) s.send({ action: 'sendMessage', Msg: `try ${i}`, clientMessageId: `fail-msg-000${i}` });
      for (let i = 1; i <= 8; i++) expect((await s.next('error')).code).toBe('serverError');
    } finally {
      store.insertMessage = insert;
    }
    s.send({ action: 'sendMessage', Msg: 'try again', clientMessageId: 'fail-msg-0001' });
    expect((await s.next('ack')).clientMessageId).toBe('fail-msg-0001');
    s.close();
  });
});

describe('the socket’s language', () => {
  it('is the one the app asked for the ticket in, whatever the browser sends', async () => {
    await endAll();
    const details = await join('eve');
    const greek = (await call('eve', 'POST', '/api/v1/chat/ticket/', undefined, 'el')).json<ChatTicket>().ticket;
    const s = TestChatSocket.open(base, { ticket: greek, ...patientQuery(details) }, { 'accept-language': 'en' });
    await s.next('welcome');
    s.send({ action: 'sendMessage', Msg: '   ' });
    expect((await s.next('error')).Message).toBe('Ένα κενό μήνυμα δεν αποστέλλεται.');
    s.close();
  });
});

describe('reconnecting', () => {
  it('resumes after the last message it has: nothing lost, nothing repeated; a re-sent message is stored once', async () => {
    await endAll();
    const coach = await staffSocket('coach');
    const details = await join('cat');
    let s = await patientSocket('cat', details);
    await call('coach', 'POST', '/api/v1/chat/queue/take/', { conversation_id: details.conversation_id });
    const greeting = await s.next('message', (m) => m.kind === 'greeting');
    s.send({ action: 'sendMessage', Msg: 'first', clientMessageId: 'cat-resume-1' });
    const first = await s.next('ack');
    s.ws.terminate();
    await s.closed;
    for (const text of ['while away 1', 'while away 2']) {
      coach.send({ action: 'sendMessage', Msg: text, conversationId: details.conversation_id });
      await coach.next('ack');
    }
    s = TestChatSocket.open(base, { ticket: await ticket('cat'), ...patientQuery(details), lastMessageId: first.id! });
    await s.next('welcome');
    await s.next('started');
    const missed = [await s.next('message'), await s.next('message')];
    expect(missed.map((m) => m.Message)).toEqual(['while away 1', 'while away 2']);
    expect(s.events.filter((e) => e.type === 'message')).toEqual([]);
    expect(greeting.id).toBeLessThan(first.id!);
    // The client did not see the ack of "first" and sends it again: stored once, acknowledged with the same id, not relayed twice.
    coach.clear();
    s.send({ action: 'sendMessage', Msg: 'first', clientMessageId: 'cat-resume-1' });
    expect((await s.next('ack')).id).toBe(first.id);
    const count = await t.db.selectFrom('chat_messages').select(sql<string>`count(*)`.as('n')).where('client_message_id', '=', 'cat-resume-1').executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(coach.events.filter((e) => e.type === 'message')).toEqual([]);
    s.close();
    coach.close();
  });
});

describe('the session', () => {
  it('signing out closes the socket at once (4001)', async () => {
    await endAll();
    const session = await signIn(t.app, { email: people.dan!.email, password: people.dan!.password, org_id: people.dan!.org_id });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/chat/ticket/', headers: bearer(session.access) });
    const details = await join('dan');
    const s = TestChatSocket.open(base, { ticket: res.json<ChatTicket>().ticket, ...patientQuery(details) });
    await s.next('welcome');
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/logout/', payload: { refresh: session.refresh } })).statusCode).toBe(204);
    expect((await s.closed).code).toBe(CHAT_CLOSE.session);
  });

  it('deactivating the account closes its socket at once (4001); the others stay open', async () => {
    await endAll();
    const admin = await buildUser(t.app, { org: { id: people.coach!.org_id }, roles: ['org_admin'] });
    const adminToken = (await signIn(t.app, { email: admin.email, password: admin.password, org_id: admin.org_id })).access;
    const coach = await staffSocket('coach');
    const s = await patientSocket('cat', await join('cat'));
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/admin/people/${people.cat!.id}/deactivate/`, headers: bearer(adminToken) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await s.closed).code).toBe(CHAT_CLOSE.session);
    // The coach's socket is not theirs: still open.
    expect(coach.ws.readyState).toBe(coach.ws.OPEN);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/admin/people/${people.cat!.id}/reactivate/`, headers: bearer(adminToken) })).statusCode).toBe(200);
    tokens.cat = (await signIn(t.app, { email: people.cat!.email, password: people.cat!.password, org_id: people.cat!.org_id })).access;
    coach.close();
  });

  it('deactivating the organisation closes every socket of its people at once (4001)', async () => {
    const { org, patientToken, coachToken, coachId, superToken } = await closingOrganisation(t);
    const details = (await t.app.inject({ method: 'POST', url: '/api/v1/peercoaching/sendmessagetoqueue/', headers: bearer(patientToken), payload: { provider_type: 'coach', reason: 'stress' } })).json<ChatDetails>();
    const ticketOf = async (token: string) => (await t.app.inject({ method: 'POST', url: '/api/v1/chat/ticket/', headers: bearer(token) })).json<ChatTicket>().ticket;
    const patient = TestChatSocket.open(base, { ticket: await ticketOf(patientToken), ...patientQuery(details) });
    await patient.next('welcome');
    const coach = TestChatSocket.open(base, { ticket: await ticketOf(coachToken), userId: coachId, isPatient: false, orgName: org.name });
    await coach.next('welcome');
    // Someone of another organisation keeps theirs.
    const bystander = await staffSocket('coach');
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/admin/organizations/${org.id}/deactivate/`, headers: bearer(superToken) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await patient.closed).code).toBe(CHAT_CLOSE.session);
    expect((await coach.closed).code).toBe(CHAT_CLOSE.session);
    expect(bystander.ws.readyState).toBe(bystander.ws.OPEN);
    bystander.close();
  });
});

/** An organisation of its own (a patient and a peer coach, signed in) and a super admin elsewhere who may deactivate it. */
async function closingOrganisation(app: TestApp) {
  const org = await buildOrganization(app.app, { name: `chat-closing-${randomBytes(3).toString('hex')}` });
  const elsewhere = await buildOrganization(app.app, { name: `chat-super-${randomBytes(3).toString('hex')}` });
  const patient = await buildUser(app.app, { org, first_name: 'Pia', last_name: 'Tester', dob: '1980-01-01' });
  const coach = await buildUser(app.app, { org, roles: ['professional', 'coach'], first_name: 'Kostas', last_name: 'Tester' });
  const superadmin = await buildUser(app.app, { org: elsewhere, roles: ['org_admin'], is_superadmin: true });
  const token = async (u: BuiltUser) => (await signIn(app.app, { email: u.email, password: u.password, org_id: u.org_id })).access;
  return { org, patientToken: await token(patient), coachToken: await token(coach), coachId: coach.id, superToken: await token(superadmin) };
}

describe('the sweep', () => {
  it('ends a queued chat whose patient is gone and tells the queue', async () => {
    await endAll();
    const coach = await staffSocket('coach');
    const gone = await join('dan');
    const details = await join('eve');
    const s = await patientSocket('eve', details);
    await t.db.updateTable('chat_conversations').set({ patient_seen_at: sql`now() - interval '5 minutes'` }).where('id', '=', gone.conversation_id).execute();
    expect((await t.app.chat.sweep()).ended).toBe(1);
    expect((await s.next('position', (p) => p.Position === 1)).Position).toBe(1);
    await coach.next('queue', (q) => q.queue.length === 1 && q.queue[0]!.conversation_id === details.conversation_id);
    const row = await t.db.selectFrom('chat_conversations').selectAll().where('id', '=', gone.conversation_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ended', end_reason: 'abandoned' });
    s.close();
    coach.close();
  });
});

describe.runIf(testDbKind() === 'postgres')('two server processes on one PostgreSQL and one Redis', () => {
  it('deactivating an account, then its organisation, through one process closes their sockets on the other at once', async (ctx) => {
    if (!(await redisReachable())) ctx.skip();
    const redisA = new Redis({ host: '127.0.0.1', port: 6379 });
    const redisB = new Redis({ host: '127.0.0.1', port: 6379 });
    const a = await buildTestApp({ databaseUrl: t.databaseUrl!, redis: redisA, storage: t.app.storage, perIpLimitFloor: 10_000 });
    const b = await buildTestApp({ databaseUrl: t.databaseUrl!, redis: redisB, storage: t.app.storage, perIpLimitFloor: 10_000 });
    try {
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const urlB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
      const { org, patientToken, coachToken, coachId, superToken } = await closingOrganisation(a);
      const ticketOf = async (token: string) => (await b.app.inject({ method: 'POST', url: '/api/v1/chat/ticket/', headers: bearer(token) })).json<ChatTicket>().ticket;
      const details = (await b.app.inject({ method: 'POST', url: '/api/v1/peercoaching/sendmessagetoqueue/', headers: bearer(patientToken), payload: { provider_type: 'coach', reason: 'stress' } })).json<ChatDetails>();
      const patient = TestChatSocket.open(urlB, { ticket: await ticketOf(patientToken), ...patientQuery(details) });
      await patient.next('welcome');
      const coach = TestChatSocket.open(urlB, { ticket: await ticketOf(coachToken), userId: coachId, isPatient: false, orgName: org.name });
      await coach.next('welcome');
      // An account deactivated through A: its socket on B closes, the others stay.
      const account = await a.app.inject({ method: 'POST', url: `/api/v1/admin/people/${coachId}/deactivate/`, headers: bearer(superToken) });
      expect(account.statusCode, account.body).toBe(200);
      expect((await coach.closed).code).toBe(CHAT_CLOSE.session);
      expect(patient.ws.readyState).toBe(patient.ws.OPEN);
      // The organisation deactivated through A: every socket of its people on B closes.
      const res = await a.app.inject({ method: 'POST', url: `/api/v1/admin/organizations/${org.id}/deactivate/`, headers: bearer(superToken) });
      expect(res.statusCode, res.body).toBe(200);
      expect((await patient.closed).code).toBe(CHAT_CLOSE.session);
    } finally {
      await a.close();
      await b.close();
      redisA.disconnect();
      redisB.disconnect();
    }
  });

  it('a patient on one and the coach on the other: queue, greeting, messages and a file', async (ctx) => {
    if (!(await redisReachable())) ctx.skip();
    await endAll();
    const redisA = new Redis({ host: '127.0.0.1', port: 6379 });
    const redisB = new Redis({ host: '127.0.0.1', port: 6379 });
    // One database, one Redis, one file store (S3 in production): two processes.
    const a = await buildTestApp({ databaseUrl: t.databaseUrl!, redis: redisA, storage: t.app.storage, perIpLimitFloor: 10_000 });
    const b = await buildTestApp({ databaseUrl: t.databaseUrl!, redis: redisB, storage: t.app.storage, perIpLimitFloor: 10_000 });
    try {
      await a.app.listen({ port: 0, host: '127.0.0.1' });
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const urlA = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
      const urlB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
      const injectTicket = async (app: TestApp, who: string) => (await app.app.inject({ method: 'POST', url: '/api/v1/chat/ticket/', headers: bearer(tokens[who]!) })).json<ChatTicket>().ticket;
      const coach = TestChatSocket.open(urlB, { ticket: await injectTicket(b, 'coach'), userId: people.coach!.id, isPatient: false, orgName: 'chat-org' });
      await coach.next('welcome');
      const details = (await a.app.inject({ method: 'POST', url: '/api/v1/peercoaching/sendmessagetoqueue/', headers: bearer(tokens.ann!), payload: { provider_type: 'coach', reason: 'stress' } })).json<ChatDetails>();
      const patient = TestChatSocket.open(urlA, { ticket: await injectTicket(a, 'ann'), ...patientQuery(details) });
      expect((await patient.next('position')).Position).toBe(1);
      await coach.next('queue', (q) => q.queue.some((e) => e.conversation_id === details.conversation_id));
      // A second patient on process B sees their place change when the coach (through B) takes Ann.
      const benDetails = (await b.app.inject({ method: 'POST', url: '/api/v1/peercoaching/sendmessagetoqueue/', headers: bearer(tokens.ben!), payload: { provider_type: 'coach', reason: 'stress' } })).json<ChatDetails>();
      const ben = TestChatSocket.open(urlB, { ticket: await injectTicket(b, 'ben'), ...patientQuery(benDetails) });
      expect((await ben.next('position')).Position).toBe(2);
      expect((await b.app.inject({ method: 'POST', url: '/api/v1/chat/queue/take/', headers: bearer(tokens.coach!), payload: { conversation_id: details.conversation_id } })).statusCode).toBe(200);
      expect((await patient.next('message', (m) => m.kind === 'greeting')).Message).toContain(CHAT_GREETING_MARKER);
      expect((await ben.next('position', (p) => p.Position === 1)).Position).toBe(1);
      const started = Date.now();
      patient.send({ action: 'sendMessage', Msg: 'across processes' });
      await coach.next('message', (m) => m.Message === 'across processes');
      console.log(`[chat] a message from process A to process B through Redis in ${Date.now() - started} ms`);
      coach.send({ action: 'sendMessage', Msg: PNG_1X1.toString('base64'), contentType: 'image/png', fileName: 'b.png', conversationId: details.conversation_id });
      const file = await patient.next('message', (m) => m.kind === 'file');
      expect((await a.app.inject({ method: 'GET', url: `/api/v1/chat/files/${file.id}/`, headers: bearer(tokens.ann!) })).rawPayload.equals(PNG_1X1)).toBe(true);
      // Process B dies with Ben's socket and the coach's: the queue stays consistent.
      ben.ws.terminate();
      await b.app.close();
      await t.db.updateTable('chat_conversations').set({ patient_seen_at: sql`now() - interval '5 minutes'` }).where('id', '=', benDetails.conversation_id).execute();
      await a.app.chat.sweep();
      expect((await a.app.inject({ method: 'GET', url: '/api/v1/chat/queue/', headers: bearer(tokens.coach!) })).json()).toEqual([]);
      patient.close();
    } finally {
      await a.close();
      await b.close();
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});
