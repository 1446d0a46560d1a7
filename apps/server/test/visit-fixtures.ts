import type { TestApp } from './build-app';
import { buildGrant, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * The people of the video visit tests: a patient and their provider, a full-access and a
 * read-only carer, another patient, another provider and a peer coach of the same organisation,
 * and a provider of another organisation; each signed in.
 */
export type VisitCastMember = 'patient' | 'doctor' | 'otherDoctor' | 'coach' | 'full' | 'readOnly' | 'stranger' | 'foreignDoctor';

export interface VisitCast {
  orgId: number;
  patientId: number;
  users: Record<VisitCastMember, BuiltUser>;
  tokens: Record<VisitCastMember, string>;
}

export async function buildVisitCast(app: TestApp['app'], name: string): Promise<VisitCast> {
  const org = await buildOrganization(app, { name });
  const other = await buildOrganization(app, { name: `${name}-other` });
  const users = {} as Record<VisitCastMember, BuiltUser>;
  users.patient = await buildUser(app, { org, first_name: 'Vera', last_name: 'Patient' });
  users.doctor = await buildUser(app, { org, roles: ['professional', 'provider'], first_name: 'Daphne', last_name: 'Doctor' });
  users.otherDoctor = await buildUser(app, { org, roles: ['professional', 'provider'], first_name: 'Otto', last_name: 'Other' });
  users.coach = await buildUser(app, { org, roles: ['professional', 'coach'], first_name: 'Cole', last_name: 'Coach' });
  users.full = await buildUser(app, { org, first_name: 'Fay', last_name: 'Full' });
  users.readOnly = await buildUser(app, { org, first_name: 'Rob', last_name: 'Reader' });
  users.stranger = await buildUser(app, { org, first_name: 'Sam', last_name: 'Stranger' });
  users.foreignDoctor = await buildUser(app, { org: other, roles: ['professional', 'provider'], first_name: 'Fred', last_name: 'Foreign' });
  const patientId = (await app.db.selectFrom('patients').select('id').where('user_id', '=', users.patient.id).executeTakeFirstOrThrow()).id;
  await buildGrant(app, { patient: { id: patientId, org_id: org.id }, grantee: users.full, access: 'full' });
  await buildGrant(app, { patient: { id: patientId, org_id: org.id }, grantee: users.readOnly, access: 'read-only' });
  const tokens = {} as Record<VisitCastMember, string>;
  for (const [who, user] of Object.entries(users)) tokens[who as VisitCastMember] = (await signIn(app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  return { orgId: org.id, patientId, users, tokens };
}

/** An appointment of the cast's doctor with its patient starting in `minutes` (30 minutes long; booked, or cancelled by the patient): its slot. */
export async function bookVisit(app: Pick<TestApp, 'db'>, cast: VisitCast, minutes: number, status: 'booked' | 'cancelled' = 'booked'): Promise<number> {
  const start = new Date(Date.now() + minutes * 60_000);
  const end = new Date(start.getTime() + 30 * 60_000);
  const { users } = cast;
  const slot = await app.db.insertInto('availability_slots').values({ org_id: cast.orgId, provider_id: users.doctor.id, start_time: start, end_time: end }).returning('id').executeTakeFirstOrThrow();
  await app.db
    .insertInto('appointments')
    .values({
      org_id: cast.orgId,
      patient_id: cast.patientId,
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
