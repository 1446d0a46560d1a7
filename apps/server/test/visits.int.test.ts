import { beforeAll, describe, expect, it } from 'vitest';
import type { Visit } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { bearer, buildGrant, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

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
let orgId: number;
let patientId: number;
/** Slots (availability_det_id) of the doctor's appointments with the patient: starting in 5 minutes, in 20 minutes, two days ahead, two hours ago, and a cancelled one. */
const slots = {} as Record<'soon' | 'later' | 'days' | 'past' | 'cancelled', number>;

async function appointment(startsInMinutes: number, status: 'booked' | 'cancelled' = 'booked'): Promise<number> {
  const start = new Date(Date.now() + startsInMinutes * 60_000);
  const end = new Date(start.getTime() + 30 * 60_000);
  const slot = await t.db
    .insertInto('availability_slots')
    .values({ org_id: orgId, provider_id: users.doctor.id, start_time: start, end_time: end })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto('appointments')
    .values({
      org_id: orgId,
      patient_id: patientId,
      provider_id: users.doctor.id,
      slot_id: slot.id,
      start_time: start,
      end_time: end,
      reason_for_visit: 'Follow-up',
      booked_by: users.patient.id,
      status,
      ...(status === 'cancelled' ? { cancelled_at: new Date(), cancelled_by: users.patient.id, cancelled_by_provider: false } : {}),
    })
    .execute();
  return slot.id;
}

const visit = (who: Who, slot: number) =>
  t.app.inject({ method: 'GET', url: `/api/v1/appointments/${slot}/visit/`, headers: { ...bearer(tokens[who]), 'accept-language': 'en' } });

beforeAll(async () => {
  const org = await buildOrganization(t.app, { name: 'visits-org' });
  const other = await buildOrganization(t.app, { name: 'visits-other' });
  orgId = org.id;
  users.patient = await buildUser(t.app, { org, first_name: 'Vera', last_name: 'Patient' });
  users.doctor = await buildUser(t.app, { org, roles: ['professional', 'provider'], first_name: 'Daphne', last_name: 'Doctor' });
  users.otherDoctor = await buildUser(t.app, { org, roles: ['professional', 'provider'], first_name: 'Otto', last_name: 'Other' });
  users.full = await buildUser(t.app, { org, first_name: 'Fay', last_name: 'Full' });
  users.readOnly = await buildUser(t.app, { org, first_name: 'Rob', last_name: 'Reader' });
  users.stranger = await buildUser(t.app, { org, first_name: 'Sam', last_name: 'Stranger' });
  users.foreignDoctor = await buildUser(t.app, { org: other, roles: ['professional', 'provider'], first_name: 'Fred', last_name: 'Foreign' });
  patientId = (await t.db.selectFrom('patients').select('id').where('user_id', '=', users.patient.id).executeTakeFirstOrThrow()).id;
  const patient = { id: patientId, org_id: org.id };
  await buildGrant(t.app, { patient, grantee: users.full, access: 'full' });
  await buildGrant(t.app, { patient, grantee: users.readOnly, access: 'read-only' });
  for (const [who, user] of Object.entries(users)) tokens[who as Who] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  slots.soon = await appointment(5);
  slots.later = await appointment(20);
  slots.days = await appointment(2 * 24 * 60);
  slots.past = await appointment(-120);
  slots.cancelled = await appointment(3, 'cancelled');
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
    // Nothing of the patient in what coturn logs.
    expect(label).not.toMatch(new RegExp(`${users.patient.id}|vera|patient`, 'i'));
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
    expect(el.json()).toEqual({ detail: 'Αυτό το ραντεβού ακυρώθηκε· δεν έχει βιντεοκλήση.' });
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
