// On PostgreSQL too (vitest.config.ts): five starts of one visit sent at once make one chat.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHAT_CLOSE, type ChatConversation, type ChatTicket, type ChatTranscript, type QueueEntry, type Visit } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { TestChatSocket } from './chat-client';
import { bearer } from './factories';
import { bookVisit, buildVisitCast, type VisitCast, type VisitCastMember } from './visit-fixtures';

/**
 * The chat of a video visit (issue 29: "the chat of the visit beside the video, the existing chat,
 * kept with the appointment"): a chat conversation tied to the appointment, made active between
 * the patient and the provider when the provider starts the visit (once, however many starts
 * arrive at once), used over the existing chat socket by the appointment's two participants only
 * (the appointment's access rule), never in live help's queue or its one-open-chat rule, ended
 * with the visit and readable by both afterwards.
 */

const t = useTestApp();
let base: string;

type Who = VisitCastMember;
let cast: VisitCast;
let users: VisitCast['users'];
let orgId: number;
let patientId: number;

const appointment = (minutes: number) => bookVisit(t, cast, minutes);

const call = (who: Who, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { ...bearer(cast.tokens[who]), 'accept-language': 'en' }, ...(payload ? { payload } : {}) });

async function started(slot: number): Promise<Visit> {
  const res = await call('doctor', 'POST', `/api/v1/appointments/${slot}/visit/start/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Visit>();
}

async function ticket(who: Who): Promise<string> {
  const res = await call(who, 'POST', '/api/v1/chat/ticket/');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChatTicket>().ticket;
}

/** The visit's chat socket, as the visit page opens it: the chat's ticket, the user, the side, the conversation. */
async function chatSocket(who: Who, conversationId: number, isPatient = who !== 'doctor' && who !== 'otherDoctor' && who !== 'foreignDoctor' && who !== 'coach'): Promise<TestChatSocket> {
  return TestChatSocket.open(base, { ticket: await ticket(who), userId: users[who].id, isPatient, conversationId });
}

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  cast = await buildVisitCast(t.app, 'visit-chat-org');
  ({ orgId, patientId, users } = cast);
});

describe('the visit’s chat is made when the provider starts the visit', () => {
  it('none before; five starts at once make one, active between the patient and the provider, and every answer names it', async () => {
    const slot = await appointment(3);
    expect((await call('patient', 'GET', `/api/v1/appointments/${slot}/visit/`)).json<Visit>().chat_conversation_id).toBeNull();
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('doctor', 'POST', `/api/v1/appointments/${slot}/visit/start/`)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const ids = new Set(answers.map((a) => a.json<Visit>().chat_conversation_id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(id).toEqual(expect.any(Number));
    const { id: appointmentId } = await t.db.selectFrom('appointments').select('id').where('slot_id', '=', slot).executeTakeFirstOrThrow();
    const rows = await t.db.selectFrom('chat_conversations').selectAll().where('appointment_id', '=', appointmentId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, status: 'active', patient_id: patientId, patient_user_id: users.patient.id, provider_user_id: users.doctor.id, provider_type: 'provider', reason: 'video-visit' });
    // Both sides (and a full-access carer) find it on the visit.
    for (const who of ['patient', 'doctor', 'full'] as const) expect((await call(who, 'GET', `/api/v1/appointments/${slot}/visit/`)).json<Visit>().chat_conversation_id, who).toBe(id);
  });
});

describe('over the chat socket', () => {
  it('the patient, a full-access carer and the provider write and read each other, stored before acknowledged', async () => {
    const slot = await appointment(4);
    const id = (await started(slot)).chat_conversation_id!;
    const doctor = await chatSocket('doctor', id);
    const welcome = await doctor.next('welcome');
    expect(welcome).toMatchObject({ role: 'staff', userId: users.doctor.id });
    expect(welcome.conversations).toEqual([expect.objectContaining({ conversation_id: id, status: 'active', patient_name: 'Vera Patient', provider_name: 'Daphne Doctor', reason_for_visit: 'Video visit' })]);
    const patient = await chatSocket('patient', id);
    expect(await patient.next('welcome')).toMatchObject({ role: 'patient', conversations: [expect.objectContaining({ conversation_id: id })] });
    expect(await patient.next('started')).toMatchObject({ conversationId: id, provider_name: 'Daphne Doctor' });

    patient.send({ action: 'sendMessage', Msg: 'Can you hear me?', conversationId: id, clientMessageId: 'visit-chat-0001' });
    expect(await patient.next('ack')).toMatchObject({ conversationId: id, clientMessageId: 'visit-chat-0001', id: expect.any(Number) });
    expect(await doctor.next('message')).toMatchObject({ conversationId: id, Message: 'Can you hear me?', SenderName: 'Vera Patient', me: false });
    // No conversationId: the socket's one conversation.
    doctor.send({ action: 'sendMessage', Msg: 'Yes, loud and clear.' });
    expect(await doctor.next('ack')).toMatchObject({ conversationId: id });
    expect(await patient.next('message')).toMatchObject({ Message: 'Yes, loud and clear.', SenderName: 'Daphne Doctor', ProviderType: 'provider', me: false });

    const carer = await chatSocket('full', id);
    await carer.next('welcome');
    carer.send({ action: 'sendMessage', Msg: 'I am here too.', conversationId: id });
    expect(await doctor.next('message', (m) => m.Message === 'I am here too.')).toMatchObject({ SenderName: 'Fay Full for Vera Patient' });
    // Another conversation is not this socket's.
    doctor.send({ action: 'sendMessage', Msg: 'elsewhere', conversationId: id + 1000 });
    expect(await doctor.next('error')).toMatchObject({ code: 'notInConversation' });
    // The chat ends with the visit, not on its own.
    patient.send({ action: 'endChat', conversationId: id });
    expect(await patient.next('error')).toMatchObject({ code: 'endsWithVisit', Message: 'This chat ends with the video visit.' });
    for (const s of [doctor, patient, carer]) s.close();
  });

  it('refuses a third patient, another provider, another organisation and a read-only carer (4409), and a side that is not theirs (4403)', async () => {
    const slot = await appointment(5);
    const id = (await started(slot)).chat_conversation_id!;
    for (const who of ['stranger', 'otherDoctor', 'foreignDoctor', 'readOnly', 'coach'] as const) {
      const s = await chatSocket(who, id);
      expect((await s.closed).code, who).toBe(CHAT_CLOSE.forbidden);
      expect(s.events.filter((e) => e.type === 'welcome'), who).toEqual([]);
    }
    expect((await (await chatSocket('doctor', id, true)).closed).code).toBe(CHAT_CLOSE.mismatch);
    expect((await (await chatSocket('patient', id, false)).closed).code).toBe(CHAT_CLOSE.mismatch);
    // A live-help conversation's id is not a visit's chat.
    const live = await call('stranger', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress' });
    expect(live.statusCode, live.body).toBe(201);
    const liveId = live.json<{ conversation_id: number }>().conversation_id;
    expect((await (await chatSocket('stranger', liveId)).closed).code).toBe(CHAT_CLOSE.forbidden);
    await call('stranger', 'POST', '/api/v1/peercoaching/endchat/', {});
    // Nothing was written by anyone refused.
    const senders = await t.db.selectFrom('chat_messages').select('sender_user_id').where('conversation_id', '=', id).execute();
    expect(senders).toEqual([]);
  });
});

describe('not live help’s', () => {
  it('not in the queue, not in the provider’s console, not the patient’s open chat: the patient may ask live help during the visit', async () => {
    const slot = await appointment(2);
    const id = (await started(slot)).chat_conversation_id!;
    for (const who of ['coach', 'doctor'] as const) {
      const queue = await call(who, 'GET', '/api/v1/chat/queue/');
      expect(queue.statusCode, queue.body).toBe(200);
      expect(queue.json<QueueEntry[]>().map((e) => e.conversation_id)).not.toContain(id);
    }
    // The provider's live-help console socket is not in it, nor told of it.
    const consoleSocket = TestChatSocket.open(base, { ticket: await ticket('doctor'), userId: users.doctor.id, isPatient: false });
    const welcome = await consoleSocket.next('welcome');
    expect(welcome.conversations.map((c) => c.conversation_id)).not.toContain(id);
    expect((await consoleSocket.next('queue')).queue.map((e) => e.conversation_id)).not.toContain(id);
    // Live help's "your open chat" is not the visit's.
    expect((await call('patient', 'GET', '/api/v1/chat/current/')).json()).toEqual({ chat: null });
    expect((await call('patient', 'GET', '/api/v1/chat/conversations/')).json<ChatConversation[]>().map((c) => c.conversation_id)).not.toContain(id);
    const joined = await call('patient', 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress' });
    expect(joined.statusCode, joined.body).toBe(201);
    const liveId = joined.json<{ conversation_id: number }>().conversation_id;
    expect(liveId).not.toBe(id);
    // Ending live help leaves the visit's chat open; live help's sweep does not time it out.
    expect((await call('patient', 'POST', '/api/v1/peercoaching/endchat/', {})).statusCode).toBe(200);
    await t.db.updateTable('chat_conversations').set({ patient_seen_at: new Date(Date.now() - 3_600_000) }).where('id', '=', id).execute();
    await t.app.chat.sweep();
    expect((await t.db.selectFrom('chat_conversations').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('active');
    // Nor can live help's endchat reach it, from either side.
    expect((await call('doctor', 'POST', '/api/v1/peercoaching/endchat/', { conversation_id: id })).statusCode).not.toBe(200);
    expect((await call('patient', 'POST', '/api/v1/peercoaching/endchat/', { conversation_id: id })).statusCode).toBe(404);
    expect((await t.db.selectFrom('chat_conversations').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('active');
    consoleSocket.close();
  });
});

describe('ended with the visit, kept with the appointment', () => {
  it('ending the visit ends its chat (both sockets told and closed); both participants read it afterwards, nobody else', async () => {
    const slot = await appointment(1);
    const id = (await started(slot)).chat_conversation_id!;
    const doctor = await chatSocket('doctor', id);
    await doctor.next('welcome');
    const patient = await chatSocket('patient', id);
    await patient.next('welcome');
    patient.send({ action: 'sendMessage', Msg: 'Thank you, doctor.', conversationId: id });
    await patient.next('ack');
    await doctor.next('message');

    const ended = await call('patient', 'POST', `/api/v1/appointments/${slot}/visit/end/`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json<Visit>()).toMatchObject({ status: 'ended', chat_conversation_id: id });
    expect(await doctor.next('ended')).toMatchObject({ conversationId: id, reason: 'patient', SenderName: 'Vera Patient' });
    expect((await doctor.closed).code).toBe(CHAT_CLOSE.ended);
    expect((await patient.closed).code).toBe(CHAT_CLOSE.ended);
    expect(await t.db.selectFrom('chat_conversations').select(['status', 'end_reason', 'ended_by']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({
      status: 'ended',
      end_reason: 'patient',
      ended_by: users.patient.id,
    });
    // No socket opens on it any more.
    expect((await (await chatSocket('doctor', id)).closed).code).toBe(CHAT_CLOSE.noChat);

    // Readable with the appointment: its two participants (and a full-access carer), nobody else.
    for (const who of ['doctor', 'patient', 'full'] as const) {
      const res = await call(who, 'GET', `/api/v1/chat/conversations/${id}/`);
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
      const transcript = res.json<ChatTranscript>();
      expect(transcript.conversation).toMatchObject({ conversation_id: id, status: 'ended', reason_for_visit: 'Video visit', provider_name: 'Daphne Doctor' });
      expect(transcript.messages.map((m) => m.Message)).toContain('Thank you, doctor.');
    }
    expect((await call('readOnly', 'GET', `/api/v1/chat/conversations/${id}/`)).statusCode).toBe(403);
    for (const who of ['stranger', 'otherDoctor', 'foreignDoctor', 'coach'] as const) expect((await call(who, 'GET', `/api/v1/chat/conversations/${id}/`)).statusCode, who).toBe(404);
  });

  it('a visit whose window closed ends its chat too; a chat left open past its visit is ended by the sweep', async () => {
    const slot = await appointment(2);
    const id = (await started(slot)).chat_conversation_id!;
    const { id: appointmentId } = await t.db.selectFrom('appointments').select('id').where('slot_id', '=', slot).executeTakeFirstOrThrow();
    expect(await t.app.visits.endIfOver(appointmentId, orgId, new Date(Date.now() + 3 * 3_600_000))).toBe(true);
    expect(await t.db.selectFrom('chat_conversations').select(['status', 'end_reason']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'ended', end_reason: 'timeout' });

    const other = await appointment(3);
    const left = (await started(other)).chat_conversation_id!;
    // The visit ended without its chat (a process gone in between): the sweep ends the chat.
    await t.db.updateTable('visits').set({ status: 'ended', ended_at: new Date(), end_reason: 'provider' }).where('appointment_id', '=', (await t.db.selectFrom('appointments').select('id').where('slot_id', '=', other).executeTakeFirstOrThrow()).id).execute();
    await t.app.chat.sweep();
    expect((await t.db.selectFrom('chat_conversations').select('status').where('id', '=', left).executeTakeFirstOrThrow()).status).toBe('ended');
  });
});
