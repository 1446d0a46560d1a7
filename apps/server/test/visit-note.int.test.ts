// On PostgreSQL too (vitest.config.ts): five first notes of one visit sent at once make one record.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { VISIT_NOTE_NONE, type HealthRecord, type RecordPage, type RecordVersion, type Visit } from '@healthbook/shared';
import { holdForTransaction } from '../src/db/advisory-lock';
import { openDatabase } from '../src/db/client';
import { wallClock } from '../src/modules/calendar/recurrence';
import { useTestApp } from './build-app';
import { bearer } from './factories';
import { bookVisit, buildVisitCast, type VisitCast, type VisitCastMember } from './visit-fixtures';

/**
 * The note of a video visit (issue 29, item 4): the appointment's provider writes it once the visit
 * has started, and it lands in the patient's record as a medical visit with the provider's name,
 * one record per visit. The provider reaches the patient's record only there (the patients
 * policy's narrow door, PatientsService.openVisitNote); everyone else is refused as for the visit.
 */

const t = useTestApp();
let cast: VisitCast;

const DAY = 24 * 60;
/** The visits of the tests, by slot (availability_det_id). */
const slots = {} as Record<'main' | 'race' | 'none' | 'waiting' | 'recent' | 'old' | 'cancelled' | 'private' | 'refused', number>;

/** An appointment starting in `minutes` with its visit in a state (admitted at the start when it has started). */
async function visitOf(minutes: number, status: 'active' | 'ended' | 'waiting' | null, booked: 'booked' | 'cancelled' = 'booked'): Promise<number> {
  const slot = await bookVisit(t, cast, minutes, booked);
  if (status === null) return slot;
  const a = await t.db.selectFrom('appointments').select(['id', 'org_id', 'patient_id', 'provider_id', 'start_time', 'end_time']).where('slot_id', '=', slot).executeTakeFirstOrThrow();
  await t.db
    .insertInto('visits')
    .values({
      org_id: a.org_id,
      appointment_id: a.id,
      patient_id: a.patient_id,
      provider_id: a.provider_id,
      status,
      admitted_at: status === 'waiting' ? null : a.start_time,
      ...(status === 'ended' ? { ended_at: a.end_time, ended_by: a.provider_id, end_reason: 'provider' as const } : {}),
    })
    .execute();
  return slot;
}

const headers = (who: VisitCastMember, lang = 'en') => ({ ...bearer(cast.tokens[who]), 'accept-language': lang });
const writeNote = (who: VisitCastMember, slot: number, payload: object, lang = 'en') =>
  t.app.inject({ method: 'POST', url: `/api/v1/appointments/${slot}/visit/note/`, headers: headers(who, lang), payload });
const readNote = (who: VisitCastMember, slot: number, lang = 'en') => t.app.inject({ method: 'GET', url: `/api/v1/appointments/${slot}/visit/note/`, headers: headers(who, lang) });
const patientVisits = async (query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/hr/medicalvisit/${query}`, headers: headers('patient') });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RecordPage>();
};
const noteRecordOf = async (slot: number) =>
  (await t.db.selectFrom('visits').innerJoin('appointments', 'appointments.id', 'visits.appointment_id').select('visits.note_record_id').where('appointments.slot_id', '=', slot).executeTakeFirstOrThrow()).note_record_id;
const notesOnTrail = async (recordId: number) =>
  (await t.db.selectFrom('audit_log').select(['actor_user_id', 'subject', 'outcome', 'detail']).where('action', '=', 'visit_note').orderBy('id').execute()).filter(
    (r) => (r.detail as { record?: number }).record === recordId,
  );
/** The day of a moment on the provider's wall clock (the cast's provider has no zone of their own: UTC). */
const dayOf = (at: string) => wallClock(new Date(at), 'UTC').date;

/**
 * Requests sent at once that really meet on PostgreSQL: another connection holds the patient's
 * records lock (the one every new record takes, records.limits.ts) until all of them wait on a
 * lock, so that none has written before the others looked for the visit's note. (Sent bare, each
 * request is done before the next reaches the database.) PGlite runs one statement at a time.
 */
async function meeting<T>(count: number, send: () => Promise<T>): Promise<T[]> {
  if (!t.databaseUrl) return Promise.all(Array.from({ length: count }, send));
  const other = await openDatabase({ kind: 'postgres', url: t.databaseUrl, poolSize: 2 });
  let answers: Promise<T[]> | undefined;
  try {
    await other.transaction().execute(async (trx) => {
      await holdForTransaction(trx, 'records-cap', cast.patientId);
      answers = Promise.all(Array.from({ length: count }, send));
      for (let waited = 0; ; waited += 20) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(other);
        if (rows[0]!.n >= count) return;
        if (waited > 10_000) throw new Error(`only ${rows[0]!.n} of ${count} requests wait`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    // Committed: the lock is let go, and they go on together.
    return await answers!;
  } finally {
    await other.destroy();
  }
}

const NOTE = { symptoms: 'Cough for a week', findings: 'Clear chest', diagnosis: 'Viral bronchitis', treatment: 'Rest, fluids', note: 'Back in two weeks if not better' };

beforeAll(async () => {
  cast = await buildVisitCast(t.app, 'visit-note-org');
  // Started through the API: the provider admits the patient side of an appointment starting in 5 minutes.
  slots.main = await bookVisit(t, cast, 5);
  const started = await t.app.inject({ method: 'POST', url: `/api/v1/appointments/${slots.main}/visit/start/`, headers: headers('doctor') });
  expect(started.statusCode, started.body).toBe(200);
  slots.race = await visitOf(-10, 'active');
  slots.none = await visitOf(3, null);
  slots.waiting = await visitOf(2, 'waiting');
  slots.recent = await visitOf(-6 * DAY, 'ended');
  slots.old = await visitOf(-8 * DAY, 'ended');
  slots.cancelled = await visitOf(4, null, 'cancelled');
  slots.private = await visitOf(-DAY, 'ended');
  slots.refused = await visitOf(-2 * DAY, 'ended');
});

describe('the provider writes the visit’s note', () => {
  it('before any note: GET answers 404 with its code', async () => {
    const res = await readNote('doctor', slots.main);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'No note has been written for this video visit yet.', code: VISIT_NOTE_NONE });
  });

  it('makes one medical visit in the patient’s record: the provider’s name, the visit’s day, the appointment’s reason by default', async () => {
    const before = (await t.db.selectFrom('patients').select('data_version').where('id', '=', cast.patientId).executeTakeFirstOrThrow()).data_version;
    const res = await writeNote('doctor', slots.main, NOTE);
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json<HealthRecord>();
    const visit = (await t.app.inject({ method: 'GET', url: `/api/v1/appointments/${slots.main}/visit/`, headers: headers('doctor') })).json<Visit>();
    expect(record).toMatchObject({
      record_type: 'medicalvisit',
      patient: cast.patientId,
      private: false,
      version: 1,
      reason: 'Follow-up',
      professional: 'Daphne Doctor',
      date: dayOf(visit.admitted_at!),
      date_part: 'day',
      ...NOTE,
      provenance: null,
    });
    expect(await noteRecordOf(slots.main)).toBe(record.id);
    // The patient's data moved on (answers kept per version are not served stale).
    const after = (await t.db.selectFrom('patients').select('data_version').where('id', '=', cast.patientId).executeTakeFirstOrThrow()).data_version;
    expect(BigInt(after)).toBeGreaterThan(BigInt(before));

    // The patient finds it among their medical visits, by its words too, and its history names the provider.
    const page = await patientVisits();
    expect(page.results.find((r) => r.id === record.id)).toMatchObject({ professional: 'Daphne Doctor', diagnosis: 'Viral bronchitis' });
    expect((await patientVisits('?search=bronchitis')).results.map((r) => r.id)).toEqual([record.id]);
    const history = await t.app.inject({ method: 'GET', url: `/api/v1/hr/medicalvisit/${record.id}/history/`, headers: headers('patient') });
    expect(history.json<RecordVersion[]>()).toEqual([expect.objectContaining({ version: 1, action: 'create', changed_by: { id: cast.users.doctor.id, name: 'Daphne Doctor' } })]);

    // On the patient's trail, by the provider.
    expect(await notesOnTrail(record.id)).toEqual([
      { actor_user_id: cast.users.doctor.id, subject: `patient:${cast.patientId}`, outcome: 'success', detail: expect.objectContaining({ created: true, category: 'medicalvisit' }) },
    ]);
    // GET answers the same record, its read on the patient's trail.
    const read = await readNote('doctor', slots.main);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<HealthRecord>()).toEqual(record);
    const reads = await t.db.selectFrom('audit_log').select('detail').where('action', '=', 'record_read').where('actor_user_id', '=', cast.users.doctor.id).execute();
    expect(reads.map((r) => r.detail)).toContainEqual(expect.objectContaining({ record: record.id, category: 'medicalvisit' }));
  });

  it('a second note replaces the first in the same record (PUT semantics: what is left out is emptied); the server’s fields stay its own', async () => {
    const first = await readNote('doctor', slots.main);
    const id = first.json<HealthRecord>().id;
    const res = await writeNote('doctor', slots.main, { reason: 'Cough', diagnosis: 'Acute bronchitis', professional: 'Someone Else', date: '2001-01-01' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<HealthRecord>()).toMatchObject({
      id,
      version: 2,
      reason: 'Cough',
      diagnosis: 'Acute bronchitis',
      symptoms: null,
      findings: null,
      treatment: null,
      note: null,
      professional: 'Daphne Doctor',
      date: first.json<HealthRecord>().date,
    });
    expect((await patientVisits()).results.filter((r) => r.professional === 'Daphne Doctor').map((r) => r.id)).toEqual([id]);
    expect(await notesOnTrail(id)).toHaveLength(2);
  });

  it('five first notes sent at once make one record', async () => {
    const answers = await meeting(5, () => writeNote('doctor', slots.race, NOTE));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => a.json<HealthRecord>().id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(await noteRecordOf(slots.race)).toBe(id);
    const rows = await t.db.selectFrom('health_records').select('id').where('patient_id', '=', cast.patientId).where('category', '=', 'medicalvisit').where('id', '=', id!).execute();
    expect(rows).toHaveLength(1);
    // One record among the patient's visits of that note, one version (the same note again changes nothing).
    expect((await patientVisits('?page_size=100')).results.filter((r) => r.id === id)).toHaveLength(1);
    expect(await t.db.selectFrom('health_record_versions').select('version').where('record_id', '=', id!).execute()).toEqual([{ version: 1 }]);
    expect((await notesOnTrail(id!)).filter((r) => (r.detail as { created: boolean }).created)).toHaveLength(1);
  });

  it('checks the fields by the medical-visit category’s own rules, in the reader’s language', async () => {
    const long = await writeNote('doctor', slots.race, { reason: 'r'.repeat(201), note: 'n'.repeat(4001) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ reason: ['Ensure this field has no more than 200 characters.'], note: ['Ensure this field has no more than 4000 characters.'] });
    const el = await writeNote('doctor', slots.race, { diagnosis: 'd'.repeat(2001) }, 'el');
    expect(el.statusCode).toBe(400);
    expect(Object.keys(el.json())).toEqual(['diagnosis']);
    expect(el.json<Record<string, string[]>>().diagnosis![0]).toMatch(/2000/);
    expect((await writeNote('doctor', slots.race, { symptoms: 5 })).statusCode).toBe(400);
  });

  it('a visit of six days ago may still have its note, dated the visit’s day', async () => {
    const res = await writeNote('doctor', slots.recent, { diagnosis: 'Sprain' });
    expect(res.statusCode, res.body).toBe(201);
    const appointment = (await t.app.inject({ method: 'GET', url: `/api/v1/appointments/${slots.recent}/`, headers: headers('doctor') })).json<{ appointment_date: string }>();
    expect(res.json<HealthRecord>()).toMatchObject({ date: appointment.appointment_date, reason: 'Follow-up', diagnosis: 'Sprain' });
  });
});

describe('who may write it, and when', () => {
  it('the patient side is refused with the reason (403), a read-only carer as for the visit (403), anyone else 404; nothing is written', async () => {
    const before = await t.db.selectFrom('health_records').select('id').where('patient_id', '=', cast.patientId).execute();
    for (const who of ['patient', 'full'] as const) {
      const res = await writeNote(who, slots.refused, NOTE);
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toEqual({ detail: "Only the appointment's provider can write the note of its video visit." });
      expect((await readNote(who, slots.refused)).statusCode, who).toBe(403);
    }
    const el = await writeNote('patient', slots.refused, NOTE, 'el');
    expect(el.json()).toEqual({ detail: 'Μόνο ο πάροχος του ραντεβού μπορεί να γράψει τη σημείωση της βιντεοεπίσκεψής του.' });
    const ro = await writeNote('readOnly', slots.refused, NOTE);
    expect(ro.statusCode).toBe(403);
    expect(ro.json<{ detail: string }>().detail).toMatch(/read-only|full access/i);
    for (const who of ['stranger', 'otherDoctor', 'foreignDoctor', 'coach'] as const) {
      expect((await writeNote(who, slots.refused, NOTE)).statusCode, who).toBe(404);
      expect((await readNote(who, slots.refused)).statusCode, who).toBe(404);
    }
    expect((await writeNote('doctor', 999_999, NOTE)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/appointments/${slots.refused}/visit/note/`, payload: NOTE })).statusCode).toBe(401);
    expect(await t.db.selectFrom('health_records').select('id').where('patient_id', '=', cast.patientId).execute()).toEqual(before);
    expect(await noteRecordOf(slots.refused)).toBeNull();
  });

  it('not before the visit has started (none, or the patient still waiting), nor for a cancelled appointment: 409', async () => {
    for (const slot of [slots.none, slots.waiting]) {
      const res = await writeNote('doctor', slot, NOTE);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ detail: 'This video visit has not started.' });
      expect((await readNote('doctor', slot)).statusCode).toBe(409);
    }
    expect((await writeNote('doctor', slots.none, NOTE, 'el')).json()).toEqual({ detail: 'Αυτή η βιντεοεπίσκεψη δεν έχει ξεκινήσει.' });
    expect((await writeNote('doctor', slots.cancelled, NOTE)).statusCode).toBe(409);
  });

  it('not past seven days after the appointment: 409 with the time, in the reader’s language', async () => {
    const res = await writeNote('doctor', slots.old, NOTE);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toMatch(/^The note of this video visit can no longer be written: notes are written until 7 days after the appointment \(.+\)\.$/);
    const el = await writeNote('doctor', slots.old, NOTE, 'el');
    expect(el.json<{ detail: string }>().detail).toMatch(/^Η σημείωση αυτής της βιντεοεπίσκεψης δεν μπορεί πλέον να γραφτεί: οι σημειώσεις γράφονται έως 7 ημέρες μετά το ραντεβού \(.+\)\.$/);
    expect((await readNote('doctor', slots.old)).statusCode).toBe(409);
    expect(await noteRecordOf(slots.old)).toBeNull();
  });

  it('the note is the only door: the provider still cannot read or write the patient’s record otherwise', async () => {
    for (const url of [`/api/v1/hr/medicalvisit/?patient=${cast.patientId}`, `/api/v1/hr/summary/?patient=${cast.patientId}`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: headers('doctor') })).statusCode, url).toBe(404);
    }
    const id = await noteRecordOf(slots.main);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/hr/medicalvisit/${id}/?patient=${cast.patientId}`, headers: headers('doctor') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/hr/medicalvisit/${id}/?patient=${cast.patientId}`, headers: headers('doctor'), payload: { note: 'x' } })).statusCode).toBe(404);
  });
});

describe('the note is the patient’s record', () => {
  it('made private by the patient, it is theirs alone: the provider is told (409); deleted by them, the next note makes a new one', async () => {
    const first = await writeNote('doctor', slots.private, NOTE);
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json<HealthRecord>().id;
    const hidden = await t.app.inject({ method: 'PATCH', url: `/api/v1/hr/medicalvisit/${id}/`, headers: headers('patient'), payload: { private: true } });
    expect(hidden.statusCode, hidden.body).toBe(200);
    for (const res of [await writeNote('doctor', slots.private, { diagnosis: 'Changed' }), await readNote('doctor', slots.private)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ detail: 'The patient has made this visit note private: it can no longer be changed.' });
      expect(res.body).not.toContain('Viral');
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/hr/medicalvisit/${id}/`, headers: headers('patient') })).json<HealthRecord>()).toMatchObject({ private: true, diagnosis: 'Viral bronchitis' });

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/hr/medicalvisit/${id}/`, headers: headers('patient') })).statusCode).toBe(204);
    expect(await noteRecordOf(slots.private)).toBeNull();
    const again = await writeNote('doctor', slots.private, { diagnosis: 'Written again' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<HealthRecord>().id).not.toBe(id);
    expect(await noteRecordOf(slots.private)).toBe(again.json<HealthRecord>().id);
  });
});
