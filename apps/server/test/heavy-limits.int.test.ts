// On PostgreSQL too (vitest.config.ts): per-patient limits of heavy work under requests sent at once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF_RETRY_AFTER_S, CALENDAR_EVENTS_MAX_PER_PATIENT, CALENDAR_SERIES_MAX_PER_PATIENT, CALENDAR_WINDOW_MAX_OCCURRENCES, FHIR_IMPORT_MAX_RESOURCES, FHIR_MAX_DEPTH, RECORDS_MAX_PER_PATIENT } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn } from './factories';

/**
 * The caps of heavy requests (issue 24, §3), each a clear 4xx that says what it is, in the
 * reader's language: resources per FHIR import, how deeply an import may nest, records per
 * patient, calendar events and series per patient, occurrences per calendar window; one PDF
 * at a time per patient.
 */

let t: TestApp;
const tokens: Record<string, string> = {};
const patients: Record<string, number> = {};

type Method = 'GET' | 'POST' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await buildTestApp({ seed: false });
  const org = await buildOrganization(t.app, { name: 'caps-clinic' });
  for (const name of ['pat', 'other', 'cal', 'pdf']) {
    const user = await buildUser(t.app, { org, dob: '1970-01-01' });
    tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    patients[name] = (await t.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
  }
});
afterAll(async () => {
  await t?.close();
});

const condition = (i: number) => ({ resource: { resourceType: 'Condition', code: { text: `Condition ${i}` }, subject: { reference: 'Patient/p' } } });

describe('FHIR import', () => {
  it('refuses an element nested 10,000 deep with a 400 that says so (not a 500), in English and Greek', async () => {
    // Written as text: JSON.stringify itself cannot go 10,000 deep.
    const deep = `${'{"url":"urn:deep","extension":['.repeat(10_000)}{"url":"urn:deep","valueString":"bottom"}${']}'.repeat(10_000)}`;
    const body = `{"bundle":{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Condition","code":{"text":"Deep"},"extension":[${deep}]}}]}}`;
    const post = (lang: string) => t.app.inject({ method: 'POST', url: '/api/v1/fhir/import/', headers: { ...bearer(tokens.pat!), 'accept-language': lang, 'content-type': 'application/json' }, payload: body });
    const en = await post('en');
    expect(en.statusCode, en.body).toBe(400);
    expect(en.json()).toEqual({ detail: `The bundle nests more than ${FHIR_MAX_DEPTH} levels deep; FHIR resources never do.` });
    const el = await post('el');
    expect(el.statusCode).toBe(400);
    expect(el.json<{ detail: string }>().detail).toContain(`${FHIR_MAX_DEPTH} επίπεδα`);
    // Nothing was imported, and the server goes on.
    expect((await call('pat', 'GET', '/api/v1/fhir/export/')).json<{ entry: unknown[] }>().entry).toHaveLength(1);
  });

  it(`takes a bundle of ${FHIR_IMPORT_MAX_RESOURCES} resources, and refuses one more with a 400 naming the cap`, async () => {
    const entry = Array.from({ length: FHIR_IMPORT_MAX_RESOURCES + 1 }, (_, i) => condition(i));
    const over = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry } });
    expect(over.statusCode, over.body.slice(0, 300)).toBe(400);
    expect(over.json()).toEqual({ detail: `The bundle holds ${FHIR_IMPORT_MAX_RESOURCES + 1} resources. An import takes at most ${FHIR_IMPORT_MAX_RESOURCES}: split it into smaller bundles.` });
    const el = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry } }, 'el');
    expect(el.json<{ detail: string }>().detail).toContain(`το πολύ ${FHIR_IMPORT_MAX_RESOURCES}`);

    const atCap = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry: entry.slice(1) } });
    expect(atCap.statusCode, atCap.body.slice(0, 300)).toBe(200);
    expect(atCap.json<{ items: unknown[] }>().items).toHaveLength(FHIR_IMPORT_MAX_RESOURCES);
  }, 60_000);

  it('still names a malformed entry by its place in a bundle read in slices', async () => {
    const entry: unknown[] = Array.from({ length: 250 }, (_, i) => condition(i));
    entry[230] = { resource: { resourceType: 'Condition', code: { text: 'Bad date' }, onsetDateTime: 'yesterday' } };
    const res = await call('pat', 'POST', '/api/v1/fhir/import/', { bundle: { resourceType: 'Bundle', type: 'collection', entry } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toContain('entry 230 (Condition) onsetDateTime');
  });
});

describe('records per patient', () => {
  it(`keeps at most ${RECORDS_MAX_PER_PATIENT} records: one more is a 400 naming the cap, typed in or imported`, async () => {
    // Filled to one short of the cap (in SQL: quicker than the API), private ones counting too.
    const first = await call('other', 'POST', '/api/v1/hr/condition/', { name: 'First', private: true });
    expect(first.statusCode, first.body).toBe(201);
    // Without the per-row trigger that moves the patient's data version on (20,000 updates of one row).
    await t.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await sql`
        INSERT INTO health_records (org_id, patient_id, category, data, private, created_by, updated_by)
        SELECT org_id, patient_id, category, data, private, created_by, updated_by
        FROM health_records, generate_series(1, ${RECORDS_MAX_PER_PATIENT - 2})
        WHERE patient_id = ${patients.other!}`.execute(trx);
    });

    // Room for one: ten at once, and exactly one gets in (the count is held while one inserts).
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => call('other', 'POST', '/api/v1/hr/allergy/', { code: `Penicillin ${i}` })));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(400)]);
    const over = await call('other', 'POST', '/api/v1/hr/allergy/', { code: 'Latex' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ detail: `A record holds at most ${RECORDS_MAX_PER_PATIENT} entries. Delete some before adding more.` });
    expect((await call('other', 'POST', '/api/v1/hr/allergy/', { code: 'Latex' }, 'el')).json<{ detail: string }>().detail).toContain(`το πολύ ${RECORDS_MAX_PER_PATIENT}`);

    const bundle = { resourceType: 'Bundle', type: 'collection', entry: [condition(1), condition(2)] };
    const preview = await call('other', 'POST', '/api/v1/fhir/import/', { bundle });
    expect(preview.statusCode).toBe(200);
    const keys = preview.json<{ items: Array<{ key: string }> }>().items.map((i) => i.key);
    const imported = await call('other', 'POST', '/api/v1/fhir/import/', { bundle, accept: keys });
    expect(imported.statusCode).toBe(400);
    expect(imported.json()).toEqual({ detail: `Importing 2 records would take this record over its limit of ${RECORDS_MAX_PER_PATIENT} entries (0 can still be added).` });
    const count = await t.db.selectFrom('health_records').select(sql<string>`count(*)`.as('n')).where('patient_id', '=', patients.other!).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(RECORDS_MAX_PER_PATIENT);
  }, 60_000);
});

describe('calendar', () => {
  const event = (over: Record<string, unknown> = {}) => ({ title: 'Walk', type: 'Excercise', start_time: '2026-01-05T07:00:00Z', end_time: '2026-01-05T07:30:00Z', ...over });
  /** Events of the patient written in SQL (as a calendar filled before the caps would be). */
  const fill = (count: number, recurrence: string | null) =>
    sql`
      INSERT INTO calendar_events (org_id, patient_id, title, type, color, start_time, end_time, all_day, recurrence, series_end, timezone)
      SELECT org_id, id, 'Pill ' || n, 'Medicine', 'indigo', timestamptz '2026-01-01 08:00Z' + n * interval '1 minute', timestamptz '2026-01-01 08:10Z' + n * interval '1 minute', false, ${recurrence}, null, 'UTC'
      FROM patients, generate_series(1, ${count}) AS n WHERE id = ${patients.cal!}`.execute(t.db);

  it(`refuses a window of more than ${CALENDAR_WINDOW_MAX_OCCURRENCES} occurrences with a 400 naming the cap (a year of 1,200 daily series), and answers a shorter one`, async () => {
    await fill(1_200, 'FREQ=DAILY');
    const started = Date.now();
    const year = await call('cal', 'GET', '/api/v1/calendar/events/?start=2026-01-01&end=2027-01-01');
    expect(year.statusCode, year.body.slice(0, 200)).toBe(400);
    expect(year.json()).toEqual({ detail: `This period holds more than ${CALENDAR_WINDOW_MAX_OCCURRENCES} events. Ask for a shorter one.` });
    // Refused once past the cap, not after expanding the whole year (439,200 occurrences).
    console.info(`[cap] 366-day window over 1,200 daily series refused in ${Date.now() - started} ms`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await call('cal', 'GET', '/api/v1/calendar/events/?start=2026-01-01&end=2027-01-01', undefined, 'el')).json<{ detail: string }>().detail).toContain(`${CALENDAR_WINDOW_MAX_OCCURRENCES} συμβάντα`);
    const week = await call('cal', 'GET', '/api/v1/calendar/events/?start=2026-03-02&end=2026-03-08');
    expect(week.statusCode).toBe(200);
    // Each series once a day (those across midnight in both days they touch).
    expect(week.json<unknown[]>().length).toBeGreaterThanOrEqual(1_200 * 7);
  }, 60_000);

  it(`keeps at most ${CALENDAR_SERIES_MAX_PER_PATIENT} recurring series and ${CALENDAR_EVENTS_MAX_PER_PATIENT} events: one more is a 400 naming the cap`, async () => {
    // 1,200 series already (from above): one more series is refused, a one-off event is not.
    const series = await call('cal', 'POST', '/api/v1/calendar/events/', event({ recurrence: 'FREQ=WEEKLY' }));
    expect(series.statusCode).toBe(400);
    expect(series.json()).toEqual({ detail: `A calendar holds at most ${CALENDAR_SERIES_MAX_PER_PATIENT} recurring events. Delete one before adding another.` });
    expect((await call('cal', 'POST', '/api/v1/calendar/events/', event({ recurrence: 'FREQ=WEEKLY' }), 'el')).json<{ detail: string }>().detail).toContain(`${CALENDAR_SERIES_MAX_PER_PATIENT} επαναλαμβανόμενα`);
    expect((await call('cal', 'POST', '/api/v1/calendar/events/', event())).statusCode).toBe(201);

    await fill(CALENDAR_EVENTS_MAX_PER_PATIENT - 1_202, null);
    // Room for one: ten at once, and exactly one gets in.
    const burst = await Promise.all(Array.from({ length: 10 }, () => call('cal', 'POST', '/api/v1/calendar/events/', event())));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(400)]);
    const over = await call('cal', 'POST', '/api/v1/calendar/events/', event());
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ detail: `A calendar holds at most ${CALENDAR_EVENTS_MAX_PER_PATIENT} events. Delete some before adding more.` });
    expect((await call('cal', 'POST', '/api/v1/calendar/events/', event(), 'el')).json<{ detail: string }>().detail).toContain(`${CALENDAR_EVENTS_MAX_PER_PATIENT} συμβάντα`);
  }, 60_000);
});

describe('PDF export', () => {
  it('makes one PDF of a patient at a time: a second one asked meanwhile is 429 with Retry-After, in the reader\'s language', async () => {
    for (let i = 0; i < 40; i++) expect((await call('pdf', 'POST', '/api/v1/hr/condition/', { name: `Condition ${i}`, note: 'A note. '.repeat(40) })).statusCode).toBe(201);
    const ask = (lang: string) => call('pdf', 'POST', '/api/v1/hr/export/', { types: ['condition'] }, lang);
    // Which of the two arrives first is the server's business: one is made, the other refused.
    const answers = await Promise.all([ask('el'), ask('el')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 429]);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.headers['retry-after']).toBe(String(PDF_RETRY_AFTER_S));
    expect(refused.json()).toEqual({ detail: `Ένα PDF αυτού του φακέλου δημιουργείται ήδη. Δοκιμάστε ξανά σε ${PDF_RETRY_AFTER_S} δευτερόλεπτα.` });
    // Once the first is made, the next one is.
    expect((await ask('en')).statusCode).toBe(201);
    // Another patient's PDF is not held up by this one's.
    const both = await Promise.all([ask('en'), call('pat', 'POST', '/api/v1/hr/export/', { types: ['condition'] })]);
    expect(both.map((a) => a.statusCode)).toEqual([201, 201]);
  }, 60_000);
});
