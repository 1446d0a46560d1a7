// On PostgreSQL too (vitest.config.ts): five starts of one visit sent at once.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Visit } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { bookVisit, buildVisitCast, type VisitCast } from './visit-fixtures';

/**
 * The video visit of an appointment (GET /api/v1/appointments/:slot/visit/): its two participants
 * (the provider; the patient or a full-access carer acting for them), its window (10 minutes
 * before the start to the end) and, while open, the ICE servers with TURN credentials made from
 * TURN_SECRET. Everyone else is refused as the appointment itself refuses them.
 */

const TURN_SECRET = 'a-secret-shared-with-coturn';
const t = useTestApp({ env: { TURN_URLS: 'stun:turn.example.org:3478,turn:turn.example.org:3478?transport=udp', TURN_SECRET } });

type Who = 'patient' | 'doctor' | 'otherDoctor' | 'full' | 'readOnly' | 'stranger' | 'foreignDoctor';
const users = {} as Record<Who, BuiltUser>;
const tokens = {} as Record<Who, string>;
let patientId: number;
/** Slots (availability_det_id) of the doctor's appointments with the patient: starting in 5 minutes, in 20 minutes, two days ahead, two hours ago, and a cancelled one. */
const slots = {} as Record<'soon' | 'later' | 'days' | 'past' | 'cancelled' | 'race' | 'carer', number>;

let cast: VisitCast;
const appointment = (startsInMinutes: number, status: 'booked' | 'cancelled' = 'booked') => bookVisit(t, cast, startsInMinutes, status);

const visit = (who: Who, slot: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/appointments/${slot}/visit/`, headers: { ...bearer(tokens[who]), 'accept-language': 'en' } });
const act = (who: Who, slot: number, what: 'start' | 'extend' | 'end', lang = 'en') =>
  t.app.inject({ method: 'POST', url: `/api/v1/appointments/${slot}/visit/${what}/`, headers: { ...bearer(tokens[who]), 'accept-language': lang } });
const trail = (action: string, appointmentSlot: number) =>
  t.db
    .selectFrom('audit_log')
    .innerJoin('appointments', (j) => j.onRef(sql`(audit_log.detail->>'appointment')::int`, '=', 'appointments.id'))
    .select(['audit_log.actor_user_id', 'audit_log.subject', 'audit_log.detail'])
    .where('audit_log.action', '=', action)
    .where('appointments.slot_id', '=', appointmentSlot)
    .execute();

beforeAll(async () => {
  cast = await buildVisitCast(t.app, 'visits-org');
  ({ patientId } = cast);
  Object.assign(users, cast.users);
  Object.assign(tokens, cast.tokens);
  slots.soon = await appointment(5);
  slots.later = await appointment(20);
  slots.days = await appointment(2 * 24 * 60);
  slots.past = await appointment(-120);
  slots.cancelled = await appointment(3, 'cancelled');
  slots.race = await appointment(1);
  slots.carer = await appointment(2);
});

describe('the video visit of an appointment', () => {
  it('opens ten minutes before: the patient gets its window, both names and the ICE servers with TURN credentials', async () => {
    const res = await visit('patient', slots.soon);
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json<Visit>();
    expect(v).toMatchObject({ availability_det_id: slots.soon, role: 'patient', acting_for_patient: false, phase: 'open', patient_name: 'Vera Patient', provider_name: 'Daphne Doctor' });
    expect(new Date(v.opens_at).getTime()).toBe(new Date(v.start_time).getTime() - 10 * 60_000);
    expect(v.closes_at).toBe(v.end_time);
    expect(v.ice_servers[0]).toEqual({ urls: ['stun:turn.example.org:3478'] });
    const relay = v.ice_servers[1]!;
    expect(relay.urls).toEqual(['turn:turn.example.org:3478?transport=udp']);
    const [expiry, label] = relay.username!.split(':');
    expect(Number(expiry) * 1000).toBe(Math.floor(new Date(v.ice_expires_at!).getTime() / 1000) * 1000);
    expect(Number(expiry) * 1000).toBeGreaterThan(new Date(v.end_time).getTime());
    // Nothing of the patient in what coturn logs: an opaque label, new on every answer.
    expect(label).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(label).not.toMatch(/vera|patient/i);
    const next = (await visit('patient', slots.soon)).json<Visit>().ice_servers[1]!.username!.split(':')[1];
    expect(next).not.toBe(label);
    expect(relay.credential).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });

  it('the provider of the appointment sees the same visit, on the provider side; the look is on the patient’s trail', async () => {
    const res = await visit('doctor', slots.soon);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Visit>()).toMatchObject({ role: 'provider', acting_for_patient: false, phase: 'open', patient_name: 'Vera Patient' });
    const trail = await t.db.selectFrom('audit_log').select(['action', 'subject']).where('actor_user_id', '=', users.doctor.id).where('action', '=', 'appointment_read').execute();
    expect(trail).toContainEqual({ action: 'appointment_read', subject: `patient:${patientId}` });
  });

  it('a full-access carer joins for the patient, marked as acting for them, and audited', async () => {
    const res = await visit('full', slots.soon);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Visit>()).toMatchObject({ role: 'patient', acting_for_patient: true, phase: 'open' });
    const trail = await t.db.selectFrom('audit_log').select(['subject', 'outcome']).where('actor_user_id', '=', users.full.id).where('subject', '=', `patient:${patientId}`).execute();
    expect(trail.some((r) => r.outcome === 'success')).toBe(true);
  });

  it('before its window and after it: the phase says so, and no TURN credentials are handed out', async () => {
    for (const [slot, phase] of [
      [slots.later, 'early'],
      [slots.days, 'early'],
      [slots.past, 'over'],
    ] as const) {
      const res = await visit('patient', slot);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Visit>()).toMatchObject({ phase, ice_servers: [], ice_expires_at: null });
    }
  });

  it('a cancelled appointment has no visit: 409 in the reader’s language', async () => {
    const res = await visit('patient', slots.cancelled);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: 'This appointment was cancelled: it has no video visit.' });
    const el = await t.app.inject({ method: 'GET', url: `/api/v1/appointments/${slots.cancelled}/visit/`, headers: { ...bearer(tokens.patient), 'accept-language': 'el' } });
    expect(el.json()).toEqual({ detail: 'Αυτό το ραντεβού ακυρώθηκε· δεν έχει βιντεοεπίσκεψη.' });
  });

  it('refuses everyone else: a read-only carer 403 (joining acts for the patient), another patient, another provider and another organisation 404, an unknown slot 404, bad ids 400', async () => {
    const ro = await visit('readOnly', slots.soon);
    expect(ro.statusCode).toBe(403);
    expect(ro.json<{ detail: string }>().detail).toMatch(/read-only|full access/i);
    for (const who of ['stranger', 'otherDoctor', 'foreignDoctor'] as const) {
      const res = await visit(who, slots.soon);
      expect(res.statusCode, `${who}: ${res.body}`).toBe(404);
      expect(res.body).not.toContain('turn.example.org');
    }
    expect((await visit('patient', 999_999)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/appointments/abc/visit/', headers: bearer(tokens.patient) })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/appointments/${slots.soon}/visit/` })).statusCode).toBe(401);
    // Each refusal of the patient's side is on the trail as denied.
    const denied = await t.db.selectFrom('audit_log').select('actor_user_id').where('outcome', '=', 'denied').where('actor_user_id', 'in', [users.readOnly.id, users.stranger.id]).execute();
    expect(new Set(denied.map((r) => r.actor_user_id))).toEqual(new Set([users.readOnly.id, users.stranger.id]));
  });
});

describe('starting, extending and ending a visit', () => {
  it('only the provider starts it, and only inside its window: before, the time it opens in the reader’s zone and language; after, that it is over', async () => {
    const byPatient = await act('patient', slots.soon, 'start');
    expect(byPatient.statusCode).toBe(403);
    expect(byPatient.json()).toEqual({ detail: "Only the appointment's provider can start or extend its video visit." });
    const early = await act('doctor', slots.later, 'start');
    expect(early.statusCode).toBe(409);
    expect(early.json<{ detail: string }>().detail).toMatch(/^The video visit opens at \d{1,2} \w+ \d{4} at \d\d:\d\d \(.+\), 10 minutes before the appointment\.$/);
    const earlyEl = await act('doctor', slots.later, 'start', 'el');
    expect(earlyEl.json<{ detail: string }>().detail).toMatch(/^Η βιντεοεπίσκεψη ανοίγει στις .+, 10 λεπτά πριν από το ραντεβού\.$/);
    const over = await act('doctor', slots.past, 'start');
    expect(over.statusCode).toBe(409);
    expect(over.json<{ detail: string }>().detail).toMatch(/^The time of this video visit is over \(.+\)\.$/);
    expect(await t.db.selectFrom('visits').selectAll().execute()).toEqual([]);
  });

  it('starts once under five requests at once: every one answers the active visit, one start is audited', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => act('doctor', slots.race, 'start')));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const admitted = new Set(answers.map((a) => a.json<Visit>().admitted_at));
    expect(admitted.size).toBe(1);
    expect(answers[0]!.json<Visit>()).toMatchObject({ status: 'active', role: 'provider', duration_s: null });
    expect(await trail('visit_start', slots.race)).toEqual([{ actor_user_id: users.doctor.id, subject: `patient:${patientId}`, detail: expect.objectContaining({ appointment: expect.any(Number) }) }]);
    // The patient sees it active, with the ICE servers.
    const seen = (await visit('patient', slots.race)).json<Visit>();
    expect(seen).toMatchObject({ status: 'active', phase: 'open' });
    expect(seen.ice_servers).toHaveLength(2);
  });

  it('extends by 15 minutes at a time, up to two hours past the end, then says it cannot', async () => {
    expect((await act('doctor', slots.soon, 'extend')).json()).toEqual({ detail: 'This video visit has not started.' });
    expect((await act('doctor', slots.soon, 'start')).statusCode).toBe(200);
    expect((await act('patient', slots.soon, 'extend')).statusCode).toBe(403);
    const before = (await visit('doctor', slots.soon)).json<Visit>();
    expect(before.closes_at).toBe(before.end_time);
    const once = await act('doctor', slots.soon, 'extend');
    expect(once.statusCode, once.body).toBe(200);
    expect(new Date(once.json<Visit>().closes_at).getTime()).toBe(new Date(before.end_time).getTime() + 15 * 60_000);
    let extensions = 1;
    for (;;) {
      const res = await act('doctor', slots.soon, 'extend');
      if (res.statusCode !== 200) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ detail: "This video visit cannot be extended further: at most 2 hours past the appointment's end." });
        break;
      }
      extensions++;
      expect(extensions).toBeLessThanOrEqual(8);
    }
    expect(extensions).toBe(8);
    const after = (await visit('patient', slots.soon)).json<Visit>();
    expect(new Date(after.closes_at).getTime()).toBe(new Date(after.end_time).getTime() + 120 * 60_000);
    expect(await trail('visit_extend', slots.soon)).toHaveLength(8);
  });

  it('either side ends it, once: its length is kept, the ICE servers go, and it cannot start again', async () => {
    expect((await act('patient', slots.later, 'end')).json()).toEqual({ detail: 'This video visit has not started.' });
    const ended = await act('patient', slots.soon, 'end');
    expect(ended.statusCode, ended.body).toBe(200);
    const v = ended.json<Visit>();
    expect(v).toMatchObject({ status: 'ended', ice_servers: [], ice_expires_at: null });
    expect(v.duration_s).toBeGreaterThanOrEqual(0);
    expect(v.ended_at).not.toBeNull();
    const again = await act('doctor', slots.soon, 'end');
    expect(again.statusCode).toBe(200);
    expect(again.json<Visit>().ended_at).toBe(v.ended_at);
    expect(await trail('visit_end', slots.soon)).toEqual([expect.objectContaining({ actor_user_id: users.patient.id, detail: expect.objectContaining({ by: 'patient' }) })]);
    expect((await act('doctor', slots.soon, 'start')).json()).toEqual({ detail: 'This video visit has ended.' });
    expect((await act('doctor', slots.soon, 'extend')).json()).toEqual({ detail: 'This video visit has ended.' });
  });

  it('a full-access carer ends it for the patient; a read-only one, another patient or provider cannot touch it', async () => {
    expect((await act('doctor', slots.carer, 'start')).statusCode).toBe(200);
    expect((await act('readOnly', slots.carer, 'end')).statusCode).toBe(403);
    for (const who of ['stranger', 'otherDoctor', 'foreignDoctor'] as const) {
      for (const what of ['start', 'extend', 'end'] as const) expect((await act(who, slots.carer, what)).statusCode, `${who} ${what}`).toBe(404);
    }
    expect((await visit('patient', slots.carer)).json<Visit>().status).toBe('active');
    const ended = await act('full', slots.carer, 'end');
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json<Visit>()).toMatchObject({ status: 'ended', acting_for_patient: true });
    expect(await trail('visit_end', slots.carer)).toEqual([expect.objectContaining({ actor_user_id: users.full.id, subject: `patient:${patientId}` })]);
  });

  it('a cancelled appointment’s visit cannot be started', async () => {
    expect((await act('doctor', slots.cancelled, 'start')).statusCode).toBe(409);
  });
});

describe('without TURN', () => {
  const bare = useTestApp();
  it('the ICE servers are empty while open: peer to peer only', async () => {
    const org = await buildOrganization(bare.app, { name: 'visits-bare' });
    const patient = await buildUser(bare.app, { org });
    const doctor = await buildUser(bare.app, { org, roles: ['professional', 'provider'] });
    const pid = (await bare.db.selectFrom('patients').select('id').where('user_id', '=', patient.id).executeTakeFirstOrThrow()).id;
    const start = new Date(Date.now() + 60_000);
    const end = new Date(start.getTime() + 1_800_000);
    const slot = await bare.db.insertInto('availability_slots').values({ org_id: org.id, provider_id: doctor.id, start_time: start, end_time: end }).returning('id').executeTakeFirstOrThrow();
    await bare.db
      .insertInto('appointments')
      .values({ org_id: org.id, patient_id: pid, provider_id: doctor.id, slot_id: slot.id, start_time: start, end_time: end, reason_for_visit: 'Check', booked_by: patient.id })
      .execute();
    const token = (await signIn(bare.app, { email: patient.email, password: patient.password, org_id: org.id })).access;
    const res = await bare.app.inject({ method: 'GET', url: `/api/v1/appointments/${slot.id}/visit/`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Visit>()).toMatchObject({ phase: 'open', ice_servers: [], ice_expires_at: null });
  });
});
