// On PostgreSQL too (vitest.config.ts): signals relayed in order across two processes (one PostgreSQL, one Redis).
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { VISIT_CLOSE, VISIT_FRAME_MAX_CHARS, type ChatTicket, type Visit } from '@healthbook/shared';
import { buildTestApp, testDbKind, useTestApp, type TestApp } from './build-app';
import { TestVisitSocket } from './chat-client';
import { bearer, type BuiltUser } from './factories';
import { redisReachable } from './redis';
import { bookVisit, buildVisitCast, type VisitCast } from './visit-fixtures';

/**
 * The video visit's signalling socket with real WebSocket clients: the single-use ticket, who may
 * join (the appointment's two participants only, inside its window), the waiting room (each side
 * told when the other is here), nothing relayed before the provider admits, then offers, answers
 * and candidates passed to the other side only and in order, one device per side, and the end.
 */

const t = useTestApp();
let base: string;

type Who = 'patient' | 'doctor' | 'otherDoctor' | 'full' | 'readOnly' | 'stranger' | 'foreignDoctor';
const users = {} as Record<Who, BuiltUser>;
const tokens = {} as Record<Who, string>;
let patientId: number;

let cast: VisitCast;
/** An appointment of the doctor with the patient starting in `minutes` (booked, or cancelled): its slot. */
const appointment = (app: TestApp, minutes: number, status: 'booked' | 'cancelled' = 'booked') => bookVisit(app, cast, minutes, status);

const call = (app: TestApp, who: Who, method: 'GET' | 'POST', url: string) => app.app.inject({ method, url, headers: { ...bearer(tokens[who]), 'accept-language': 'en' } });

async function ticketFor(app: TestApp, who: Who, slot: number): Promise<string> {
  const res = await call(app, who, 'POST', `/api/v1/appointments/${slot}/visit/ticket/`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<ChatTicket>().socket_path).toBe('/api/v1/visits/socket/');
  return res.json<ChatTicket>().ticket;
}

/** A ticket of the chat's store (as the ticket route would give), for a socket the route would have refused. */
async function rawTicket(who: Who): Promise<string> {
  return (await call(t, who, 'POST', '/api/v1/chat/ticket/')).json<ChatTicket>().ticket;
}

async function join(who: Who, slot: number, url = base, app = t): Promise<TestVisitSocket> {
  const s = TestVisitSocket.open(url, { ticket: await ticketFor(app, who, slot), slot });
  await s.next('welcome');
  return s;
}

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  cast = await buildVisitCast(t.app, 'visit-socket-org');
  ({ patientId } = cast);
  Object.assign(users, cast.users);
  Object.assign(tokens, cast.tokens);
});

describe('the waiting room and the call', () => {
  it('the patient waits, the provider sees them, admits, and the two browsers exchange offer, answer and candidates, in order, each only to the other', async () => {
    const slot = await appointment(t, 5);
    const patient = TestVisitSocket.open(base, { ticket: await ticketFor(t, 'patient', slot), slot });
    expect(await patient.next('welcome')).toMatchObject({ role: 'patient', status: 'waiting' });
    expect((await call(t, 'doctor', 'GET', `/api/v1/appointments/${slot}/visit/`)).json<Visit>().status).toBe('waiting');

    const doctor = TestVisitSocket.open(base, { ticket: await ticketFor(t, 'doctor', slot), slot });
    expect(await doctor.next('welcome')).toMatchObject({ role: 'provider', status: 'waiting' });
    expect(await doctor.next('peer')).toEqual({ type: 'peer', role: 'patient', present: true, acting_for_patient: false });
    expect(await patient.next('peer')).toMatchObject({ role: 'provider', present: true });

    // Nothing passes before the provider lets the patient in.
    patient.send({ type: 'signal', data: { media: { audio: true, video: true, screen: false } } });
    expect(await patient.next('error')).toMatchObject({ code: 'notAdmitted', Message: 'The provider has not let you in yet.' });

    const started = await call(t, 'doctor', 'POST', `/api/v1/appointments/${slot}/visit/start/`);
    expect(started.statusCode, started.body).toBe(200);
    expect(await patient.next('visit')).toMatchObject({ status: 'active' });
    expect(await doctor.next('visit')).toMatchObject({ status: 'active' });

    doctor.send({ type: 'signal', data: { description: { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' } } });
    expect(await patient.next('signal')).toEqual({ type: 'signal', from: 'provider', data: { description: { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' } } });
    patient.send({ type: 'signal', data: { description: { type: 'answer', sdp: 'v=0\r\n' } } });
    expect((await doctor.next('signal')).data).toEqual({ description: { type: 'answer', sdp: 'v=0\r\n' } });
    for (let i = 0; i < 30; i++) doctor.send({ type: 'signal', data: { candidate: { candidate: `candidate:${i} 1 udp 2122260223 192.0.2.1 ${50000 + i} typ host`, sdpMid: '0', sdpMLineIndex: 0 } } });
    const got: string[] = [];
    for (let i = 0; i < 30; i++) got.push(((await patient.next('signal')).data as { candidate: { candidate: string } }).candidate.candidate);
    expect(got).toEqual(Array.from({ length: 30 }, (_, i) => `candidate:${i} 1 udp 2122260223 192.0.2.1 ${50000 + i} typ host`));
    // Never back to the sender.
    expect(doctor.events.filter((e) => e.type === 'signal')).toEqual([]);

    // The provider ends it: both are told, and both sockets close.
    expect((await call(t, 'doctor', 'POST', `/api/v1/appointments/${slot}/visit/end/`)).statusCode).toBe(200);
    expect(await patient.next('visit')).toMatchObject({ status: 'ended' });
    expect((await patient.closed).code).toBe(VISIT_CLOSE.ended);
    expect((await doctor.closed).code).toBe(VISIT_CLOSE.ended);
    // Joining and leaving are on the patient's trail.
    const trail = await t.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('action', 'in', ['visit_join', 'visit_leave']).where('subject', '=', `patient:${patientId}`).execute();
    expect(trail.filter((r) => r.action === 'visit_join').map((r) => r.actor_user_id).sort()).toEqual([users.patient.id, users.doctor.id].sort());
  });

  it('joining reads the appointment once: one appointment_read on the patient’s trail per socket opened', async () => {
    const slot = await appointment(t, 5);
    const { id } = await t.db.selectFrom('appointments').select('id').where('slot_id', '=', slot).executeTakeFirstOrThrow();
    const reads = async () =>
      (await t.db.selectFrom('audit_log').select(['action', 'subject']).where('actor_user_id', '=', users.doctor.id).where('action', '=', 'appointment_read').where(sql<boolean>`(detail->>'appointment')::int = ${id}`).execute()).length;
    const ticket = await ticketFor(t, 'doctor', slot);
    const before = await reads();
    const doctor = TestVisitSocket.open(base, { ticket, slot });
    await doctor.next('welcome');
    expect(await reads()).toBe(before + 1);
    doctor.close();
  });

  it('a full-access carer waits for the patient, and the provider is told; leaving is told too', async () => {
    const slot = await appointment(t, 3);
    const doctor = await join('doctor', slot);
    const carer = await join('full', slot);
    expect(await doctor.next('peer')).toEqual({ type: 'peer', role: 'patient', present: true, acting_for_patient: true });
    carer.close();
    expect(await doctor.next('peer', (e) => !e.present)).toMatchObject({ role: 'patient', present: false });
    doctor.close();
  });

  it('one device per side: joining again from elsewhere closes the earlier socket (4002)', async () => {
    const slot = await appointment(t, 2);
    const first = await join('patient', slot);
    const second = await join('patient', slot);
    expect((await first.closed).code).toBe(VISIT_CLOSE.replaced);
    expect(second.ws.readyState).toBe(second.ws.OPEN);
    second.close();
  });

  it('refuses bad frames with a localised error, and too-large ones, without closing at once', async () => {
    const slot = await appointment(t, 4);
    const patient = await join('patient', slot);
    patient.ws.send('not json');
    expect(await patient.next('error')).toMatchObject({ code: 'invalidFrame', Message: 'This message could not be read.' });
    patient.send({ type: 'signal', data: { description: { type: 'offer', sdp: 'x'.repeat(VISIT_FRAME_MAX_CHARS) } } });
    expect(await patient.next('error')).toMatchObject({ code: 'invalidFrame' });
    patient.send({ type: 'ping' });
    expect(await patient.next('pong')).toEqual({ type: 'pong' });
    patient.close();
  });
});

describe('who may join', () => {
  it('only the two participants: a stranger, another provider, another organisation and a read-only carer are refused (4403), as their ticket requests are', async () => {
    const slot = await appointment(t, 5);
    for (const who of ['stranger', 'otherDoctor', 'foreignDoctor'] as const) {
      expect((await call(t, who, 'POST', `/api/v1/appointments/${slot}/visit/ticket/`)).statusCode, who).toBe(404);
      const s = TestVisitSocket.open(base, { ticket: await rawTicket(who === 'foreignDoctor' ? 'foreignDoctor' : who), slot });
      expect((await s.closed).code, who).toBe(VISIT_CLOSE.forbidden);
    }
    expect((await call(t, 'readOnly', 'POST', `/api/v1/appointments/${slot}/visit/ticket/`)).statusCode).toBe(403);
    const ro = TestVisitSocket.open(base, { ticket: await rawTicket('readOnly'), slot });
    expect((await ro.closed).code).toBe(VISIT_CLOSE.forbidden);
    expect(await t.db.selectFrom('visits').select('visits.id').innerJoin('appointments', 'appointments.id', 'visits.appointment_id').where('appointments.slot_id', '=', slot).execute()).toEqual([]);
  });

  it('a ticket opens one socket, once; a missing or unknown one is refused (4401)', async () => {
    const slot = await appointment(t, 5);
    const ticket = await ticketFor(t, 'patient', slot);
    const first = TestVisitSocket.open(base, { ticket, slot });
    await first.next('welcome');
    expect((await TestVisitSocket.open(base, { ticket, slot }).closed).code).toBe(VISIT_CLOSE.ticket);
    expect((await TestVisitSocket.open(base, { ticket: 'x'.repeat(43), slot }).closed).code).toBe(VISIT_CLOSE.ticket);
    first.close();
  });

  it('not before its window, not a cancelled appointment, not an ended visit (4409; the ticket route says why)', async () => {
    const early = await appointment(t, 60);
    const res = await call(t, 'patient', 'POST', `/api/v1/appointments/${early}/visit/ticket/`);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toMatch(/^The video visit opens at /);
    const s = TestVisitSocket.open(base, { ticket: await rawTicket('patient'), slot: early });
    const closed = await s.closed;
    expect(closed.code).toBe(VISIT_CLOSE.notOpen);
    expect(closed.reason).toMatch(/^The video visit opens at /);
    const cancelled = await appointment(t, 5, 'cancelled');
    expect((await TestVisitSocket.open(base, { ticket: await rawTicket('patient'), slot: cancelled }).closed).code).toBe(VISIT_CLOSE.notOpen);
    const ended = await appointment(t, 5);
    await call(t, 'doctor', 'POST', `/api/v1/appointments/${ended}/visit/start/`);
    await call(t, 'doctor', 'POST', `/api/v1/appointments/${ended}/visit/end/`);
    expect((await TestVisitSocket.open(base, { ticket: await rawTicket('patient'), slot: ended }).closed).code).toBe(VISIT_CLOSE.notOpen);
  });

  it('refuses an upgrade from a foreign Origin (403)', async () => {
    const slot = await appointment(t, 5);
    const s = TestVisitSocket.open(base, { ticket: await rawTicket('patient'), slot }, { origin: 'https://evil.example' });
    await expect(s.opened).rejects.toThrow();
    expect(s.refusedWith).toBe(403);
  });
});

describe.runIf(testDbKind() === 'postgres')('two server processes on one PostgreSQL and one Redis', () => {
  it('the patient on one and the provider on the other: waiting, admitted, signals in order', async (ctx) => {
    if (!(await redisReachable())) ctx.skip();
    const redisA = new Redis({ host: '127.0.0.1', port: 6379 });
    const redisB = new Redis({ host: '127.0.0.1', port: 6379 });
    const a = await buildTestApp({ databaseUrl: t.databaseUrl!, redis: redisA, storage: t.app.storage });
    const b = await buildTestApp({ databaseUrl: t.databaseUrl!, redis: redisB, storage: t.app.storage });
    try {
      await a.app.listen({ port: 0, host: '127.0.0.1' });
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const urlA = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
      const urlB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
      const slot = await appointment(a, 5);
      const patient = await join('patient', slot, urlA, a);
      const doctor = await join('doctor', slot, urlB, b);
      expect(await doctor.next('peer')).toMatchObject({ role: 'patient', present: true });
      expect(await patient.next('peer')).toMatchObject({ role: 'provider', present: true });
      expect((await call(a, 'doctor', 'POST', `/api/v1/appointments/${slot}/visit/start/`)).statusCode).toBe(200);
      await doctor.next('visit');
      await patient.next('visit');
      doctor.send({ type: 'signal', data: { description: { type: 'offer', sdp: 'v=0\r\n' } } });
      for (let i = 0; i < 20; i++) doctor.send({ type: 'signal', data: { candidate: { candidate: `candidate:${i}`, sdpMid: '0', sdpMLineIndex: 0 } } });
      expect((await patient.next('signal')).data).toEqual({ description: { type: 'offer', sdp: 'v=0\r\n' } });
      const got: string[] = [];
      for (let i = 0; i < 20; i++) got.push(((await patient.next('signal')).data as { candidate: { candidate: string } }).candidate.candidate);
      expect(got).toEqual(Array.from({ length: 20 }, (_, i) => `candidate:${i}`));
      // One device per side holds across processes: the patient joining again on B closes the socket on A.
      const again = await join('patient', slot, urlB, b);
      expect((await patient.closed).code).toBe(VISIT_CLOSE.replaced);
      expect((await call(b, 'patient', 'POST', `/api/v1/appointments/${slot}/visit/end/`)).statusCode).toBe(200);
      expect((await doctor.closed).code).toBe(VISIT_CLOSE.ended);
      expect((await again.closed).code).toBe(VISIT_CLOSE.ended);
    } finally {
      await a.close();
      await b.close();
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});
