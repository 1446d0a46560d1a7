// On PostgreSQL too (vitest.config.ts): one attempt answered by 20 requests at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SurveyDefinitionSchema, surveyProblems, type SurveyDefinition, type SurveyDto, type SurveyResult, type SurveySummary } from '@healthbook/shared';
import { DEMO_ORGANIZATION_SURVEYS } from '../src/db/seed/demo-surveys';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { fhirValidator } from './fhir-samples';
import { pdfWords } from './pdf-text';

/**
 * Surveys: the questions, scoring on the server (never the client's total), the safety flag,
 * one submission per attempt, history; and the refusals: bad answers, another patient, another
 * organisation, an organisation admin, the feature turned off.
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const hb = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()) as { id: number };
  const nw = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'northwind').executeTakeFirstOrThrow()) as { id: number };
  const other = await buildOrganization(t.app, { name: 'surveys-other' });
  people.alice = await buildUser(t.app, { org: hb, dob: '1980-06-15' });
  people.bob = await buildUser(t.app, { org: hb, dob: '1975-01-01' });
  people.admin = await buildUser(t.app, { org: hb, roles: ['org_admin'] });
  people.nw = await buildUser(t.app, { org: nw, dob: '1970-01-01' });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });
const patientOf = async (who: string) => (await call(who, 'GET', '/api/v1/patients/')).json<Array<{ patient_id: number }>>()[0]!.patient_id;
const submit = (who: string, survey: string, answers: Record<string, number>, extra: object = {}) =>
  call(who, 'POST', `/api/v1/surveys/${survey}/responses/`, { attempt_id: randomUUID(), answers, ...extra });
const zeros = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i + 1}`, 0]));

describe('the demo organisations’ own surveys', () => {
  it.each(Object.entries(DEMO_ORGANIZATION_SURVEYS).flatMap(([org, sets]) => Object.values(sets).map((s) => [org, s.key, s] as const)))('%s %s is a valid definition', (_org, _key, survey) => {
    expect(surveyProblems(SurveyDefinitionSchema.parse(survey) as SurveyDefinition)).toEqual([]);
  });

  it('each organisation asks its own general survey', async () => {
    const hb = (await call('alice', 'GET', '/api/v1/surveys/general/')).json<SurveyDto>();
    const nw = (await call('nw', 'GET', '/api/v1/surveys/general/')).json<SurveyDto>();
    expect(hb.title).toBe('Well-being check (WHO-5)');
    expect(nw.title).toBe('Weekly well-being check');
    expect(nw.items.map((i) => i.id)).toEqual(['hopeful', 'coping', 'connected', 'clear', 'lonely']);
    // An organisation without its own set gets the default.
    expect((await call('stranger', 'GET', '/api/v1/surveys/general/')).json<SurveyDto>().title).toBe('Well-being check (WHO-5)');
  });
});

describe('questions', () => {
  it('the PHQ-9 in Greek, with its scale, the item 9 wording and the attribution', async () => {
    const res = await call('alice', 'GET', '/api/v1/surveys/phq-9/', undefined, 'el');
    expect(res.statusCode).toBe(200);
    const survey = res.json<SurveyDto>();
    expect(survey).toMatchObject({ key: 'phq-9', route: 'phq-9', max_score: 27 });
    expect(survey.items).toHaveLength(10);
    expect(survey.items[0]!.options.map((o) => o.label)).toEqual(['Καθόλου', 'Αρκετές ημέρες', 'Περισσότερες από τις μισές ημέρες', 'Σχεδόν κάθε ημέρα']);
    expect(survey.items.at(-1)).toMatchObject({ id: 'difficulty', optional: true, scored: false });
    expect(survey.attribution).toMatch(/Spitzer/);
  });

  it('GAD-7 has the route phq-7, as in the original', async () => {
    expect((await call('alice', 'GET', '/api/v1/surveys/gad-7/')).json<SurveyDto>()).toMatchObject({ route: 'phq-7', max_score: 21 });
  });

  it('an unknown survey is a 400 naming it', async () => {
    const res = await call('alice', 'GET', '/api/v1/surveys/phq-3/');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['survey']);
  });
});

describe('submitting', () => {
  it('the server scores: a moderate PHQ-9 with item 9 above 0 is kept with the safety flag', async () => {
    const res = await submit('alice', 'phq-9', { ...zeros(9), q1: 3, q2: 3, q3: 2, q4: 2, q9: 1, difficulty: 2 }, { score: 0, band: 'minimal' });
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json<SurveyResult>();
    expect(result).toMatchObject({ survey: 'phq-9', score: 11, max_score: 27, safety: true, next: null });
    expect(result.band).toMatchObject({ key: 'moderate', label: 'Moderate depression symptoms' });
    expect(result.answers.find((a) => a.item === 'q9')).toMatchObject({ value: 1, label: 'Several days' });
  });

  it('a positive PHQ-2 leads on to the PHQ-9; a negative one does not', async () => {
    expect((await submit('alice', 'phq-2', { q1: 2, q2: 1 })).json<SurveyResult>()).toMatchObject({ score: 3, next: 'phq-9', band: { key: 'positive' } });
    expect((await submit('alice', 'phq-2', { q1: 1, q2: 1 })).json<SurveyResult>()).toMatchObject({ score: 2, next: null });
  });

  it('WHO-5 is reported as a percentage', async () => {
    const res = await submit('alice', 'general', { q1: 3, q2: 3, q3: 2, q4: 2, q5: 3 });
    expect(res.json<SurveyResult>()).toMatchObject({ score: 52, max_score: 100, higher_is_better: true, band: { key: 'good' } });
  });

  it.each([
    ['a missing answer', { q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0 }, ['answers.q7']],
    ['an answer out of range', { ...zeros(7), q3: 4 }, ['answers.q3']],
    ['a negative answer', { ...zeros(7), q2: -1 }, ['answers.q2']],
    ['a question of another survey', { ...zeros(7), q9: 1 }, ['answers.q9']],
  ])('%s: 400 naming the field, nothing stored', async (_name, answers, fields) => {
    const before = await t.db.selectFrom('survey_responses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const res = await submit('alice', 'gad-7', answers);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(fields);
    const after = await t.db.selectFrom('survey_responses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('a fractional answer or a bad attempt id is refused', async () => {
    expect(Object.keys((await submit('alice', 'gad-7', { ...zeros(7), q1: 0.5 })).json())).toEqual(['answers.q1']);
    const res = await call('alice', 'POST', '/api/v1/surveys/gad-7/responses/', { attempt_id: 'x', answers: zeros(7) });
    expect(Object.keys(res.json())).toEqual(['attempt_id']);
  });

  it('one attempt is submitted once, even twenty times at once', async () => {
    const attempt = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => call('bob', 'POST', '/api/v1/surveys/gad-7/responses/', { attempt_id: attempt, answers: zeros(7) })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, ...Array(19).fill(400)]);
    expect(results.find((r) => r.statusCode === 400)!.json()).toEqual({ attempt_id: ['These answers have already been submitted.'] });
    const history = (await call('bob', 'GET', '/api/v1/surveys/responses/?survey=gad-7')).json<SurveyResult[]>();
    expect(history).toHaveLength(1);
  });
});

describe('history', () => {
  it('newest first, one survey or all; the list carries the latest of each', async () => {
    await submit('bob', 'phq-9', { ...zeros(9), q1: 1 });
    await submit('bob', 'phq-9', { ...zeros(9), q1: 3, q2: 3 });
    const phq9 = (await call('bob', 'GET', '/api/v1/surveys/responses/?survey=phq-9')).json<SurveyResult[]>();
    expect(phq9.map((r) => r.score)).toEqual([6, 1]);
    const list = (await call('bob', 'GET', '/api/v1/surveys/')).json<SurveySummary[]>();
    expect(list.map((s) => s.key)).toEqual(['phq-2', 'phq-9', 'gad-7', 'general', 'profile-questionnaire']);
    expect(list.find((s) => s.key === 'phq-9')).toMatchObject({ count: 2, last: { score: 6, band: { key: 'mild' } } });
    expect(list.find((s) => s.key === 'phq-2')).toMatchObject({ count: 0, last: null });
    const one = await call('bob', 'GET', `/api/v1/surveys/responses/${phq9[0]!.id}/`, undefined, 'el');
    expect(one.json<SurveyResult>().band.label).toBe('Ήπια συμπτώματα κατάθλιψης');
  });

  it('the demo patient has a history to show', async () => {
    const maria = await t.db.selectFrom('users').innerJoin('patients', 'patients.user_id', 'users.id').select('patients.id').where('users.email', '=', 'patient@healthbook.example').executeTakeFirstOrThrow();
    const rows = await t.db.selectFrom('survey_responses').select(['survey', 'score']).where('patient_id', '=', maria.id).execute();
    expect(rows.filter((r) => r.survey === 'phq-9').length).toBeGreaterThanOrEqual(3);
  });
});

describe('refusals', () => {
  it('another patient of the organisation: 404 on every route, nothing stored', async () => {
    const alice = await patientOf('alice');
    const mine = (await call('alice', 'GET', '/api/v1/surveys/responses/')).json<SurveyResult[]>();
    for (const url of [`/api/v1/surveys/?patient=${alice}`, `/api/v1/surveys/responses/?patient=${alice}`, `/api/v1/surveys/responses/${mine[0]!.id}/?patient=${alice}`]) {
      expect((await call('bob', 'GET', url)).statusCode, url).toBe(404);
    }
    expect((await call('bob', 'GET', `/api/v1/surveys/responses/${mine[0]!.id}/`)).statusCode).toBe(404);
    expect((await submit('bob', 'gad-7', zeros(7), { patient: alice })).statusCode).toBe(404);
    expect((await call('alice', 'GET', '/api/v1/surveys/responses/')).json<SurveyResult[]>()).toHaveLength(mine.length);
  });

  it('another organisation: 404', async () => {
    const alice = await patientOf('alice');
    expect((await call('stranger', 'GET', `/api/v1/surveys/responses/?patient=${alice}`)).statusCode).toBe(404);
    expect((await submit('stranger', 'gad-7', zeros(7), { patient: alice })).statusCode).toBe(404);
  });

  it('an organisation admin sees no patient’s results', async () => {
    const alice = await patientOf('alice');
    expect((await call('admin', 'GET', `/api/v1/surveys/responses/?patient=${alice}`)).statusCode).toBe(404);
    // Their own (empty) history is all they get.
    expect((await call('admin', 'GET', '/api/v1/surveys/responses/')).json()).toEqual([]);
  });

  it('the refusals are audited', async () => {
    const rows = await t.db.selectFrom('audit_log').select(['action', 'outcome']).where('action', '=', 'patient_access').where('outcome', '=', 'denied').execute();
    expect(rows.length).toBeGreaterThan(0);
  });

  it('with the feature turned off: 403', async () => {
    const org = await buildOrganization(t.app, { name: 'surveys-off' });
    const patient = await buildUser(t.app, { org, dob: '1990-01-01' });
    const admin = await buildUser(t.app, { org, roles: ['org_admin'] });
    const [pt, at] = await Promise.all([patient, admin].map(async (u) => (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access));
    const features = (await t.app.inject({ method: 'POST', url: '/api/v1/features/get-features/', headers: bearer(at!), payload: { organization_id: org.id } })).json<Array<{ id: number; key: string }>>();
    const surveys = features.find((f) => f.key === 'surveys')!;
    const set = await t.app.inject({ method: 'PUT', url: `/api/v1/features/${surveys.id}/`, headers: bearer(at!), payload: { organization_id: org.id, feature_status: 'disabled' } });
    expect(set.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/surveys/', headers: bearer(pt!) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/surveys/gad-7/responses/', headers: bearer(pt!), payload: { attempt_id: randomUUID(), answers: zeros(7) } })).statusCode).toBe(403);
  });

  it('without a session: 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/surveys/' })).statusCode).toBe(401);
  });
});

describe('exports', () => {
  it('the FHIR export carries each result as a QuestionnaireResponse and an Observation `survey`, valid R4', async () => {
    const validate = await fhirValidator();
    const res = await call('bob', 'GET', '/api/v1/fhir/export/');
    expect(res.statusCode).toBe(200);
    const bundle = res.json<{ entry: Array<{ fullUrl: string; resource: Record<string, unknown> }> }>();
    const responses = bundle.entry.filter((e) => e.resource.resourceType === 'QuestionnaireResponse');
    const observations = bundle.entry.filter((e) => e.resource.resourceType === 'Observation' && JSON.stringify(e.resource.category).includes('"survey"'));
    const history = (await call('bob', 'GET', '/api/v1/surveys/responses/')).json<SurveyResult[]>();
    expect(responses).toHaveLength(history.length);
    expect(observations).toHaveLength(history.length);
    for (const entry of [...responses, ...observations]) expect(() => validate(entry.resource), JSON.stringify(entry.resource)).not.toThrow();
    const phq9 = observations.find((e) => JSON.stringify(e.resource.code).includes('44261-6'))!.resource;
    expect(phq9).toMatchObject({ status: 'final', valueInteger: 6, interpretation: [{ text: 'Mild depression symptoms' }] });
    const derived = (phq9.derivedFrom as Array<{ reference: string }>)[0]!.reference;
    const response = responses.find((e) => e.fullUrl === derived)!.resource;
    expect(response).toMatchObject({ status: 'completed', questionnaire: 'http://loinc.org/q/44249-1' });
    expect((response.item as unknown[]).length).toBe(9);
    // Declined: none.
    const without = (await call('bob', 'GET', '/api/v1/fhir/export/?assessments=false')).json<{ entry: Array<{ resource: { resourceType: string } }> }>();
    expect(without.entry.some((e) => e.resource.resourceType === 'QuestionnaireResponse')).toBe(false);
  });

  it('an export with results reads back through the import: the results are left out, the records come in', async () => {
    const bundle = (await call('bob', 'GET', '/api/v1/fhir/export/')).json<{ entry: Array<{ resource: { resourceType: string } }> }>();
    expect(bundle.entry.some((e) => e.resource.resourceType === 'QuestionnaireResponse')).toBe(true);
    const res = await call('alice', 'POST', '/api/v1/fhir/import/', { bundle });
    expect(res.statusCode, res.body).toBeLessThan(300);
  });

  it('the PDF export has an assessments section when asked, with the safety line where it was raised', async () => {
    const made = await call('alice', 'POST', '/api/v1/hr/export/', { assessments: true, language: 'en' });
    expect(made.statusCode, made.body).toBe(201);
    const file = await call('alice', 'GET', made.json<{ url: string }>().url);
    const words = pdfWords(file.rawPayload);
    expect(words).toContain('Mental-health assessments');
    expect(words).toContain('Depression check (PHQ-9)');
    expect(words).toContain('11 of 27');
    expect(words).toContain('crisis help was shown');
    // Neither categories nor assessments: a 400 under types.
    const none = await call('alice', 'POST', '/api/v1/hr/export/', { types: [] });
    expect(none.statusCode).toBe(400);
    expect(Object.keys(none.json())).toEqual(['types']);
  });
});

describe("an organisation's own surveys (administrators)", () => {
  it('an admin reads and replaces the general survey; a bad one changes nothing; results keep their questions', async () => {
    const org = await buildOrganization(t.app, { name: 'surveys-admin' });
    const admin = await buildUser(t.app, { org, roles: ['org_admin'] });
    const patient = await buildUser(t.app, { org, dob: '1985-01-01' });
    const outsider = await buildUser(t.app, { org: (await buildOrganization(t.app, { name: 'surveys-admin-2' })), roles: ['org_admin'] });
    for (const [name, u] of [['orgAdmin', admin], ['orgPatient', patient], ['outsider', outsider]] as const) tokens[name] = (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access;
    const url = `/api/v1/organizations/${org.id}/surveys/general/`;
    const current = await call('orgAdmin', 'GET', url);
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json<SurveyDefinition>().title.en).toBe('Well-being check (WHO-5)');
    const before = (await submit('orgPatient', 'general', { q1: 5, q2: 5, q3: 5, q4: 5, q5: 5 })).json<SurveyResult>();

    const mine: SurveyDefinition = {
      key: 'general',
      title: { en: 'Two questions', el: 'Δύο ερωτήσεις' },
      summary: { en: 'Short.', el: 'Σύντομο.' },
      instructions: { en: 'Answer.', el: 'Απαντήστε.' },
      scale: [
        { value: 0, label: { en: 'No', el: 'Όχι' } },
        { value: 1, label: { en: 'Yes', el: 'Ναι' } },
      ],
      items: [
        { id: 'a', text: { en: 'I slept well', el: 'Κοιμήθηκα καλά' } },
        { id: 'b', text: { en: 'I ate well', el: 'Έφαγα καλά' } },
      ],
      bands: [
        { key: 'low', min: 0, max: 0, level: 1, label: { en: 'Low', el: 'Χαμηλό' }, meaning: { en: 'Low.', el: 'Χαμηλό.' } },
        { key: 'ok', min: 1, max: 2, level: 0, label: { en: 'OK', el: 'Εντάξει' }, meaning: { en: 'OK.', el: 'Εντάξει.' } },
      ],
      note: { en: 'Not medical.', el: 'Όχι ιατρικό.' },
    };
    const gap = await call('orgAdmin', 'PUT', url, { ...mine, bands: [mine.bands[0], { ...mine.bands[1], min: 2 }] });
    expect(gap.statusCode).toBe(400);
    expect(Object.keys(gap.json())).toEqual(['bands']);
    expect((await call('orgPatient', 'PUT', url, mine)).statusCode).toBe(403);
    expect((await call('outsider', 'PUT', url, mine)).statusCode).toBe(404);
    expect((await call('orgAdmin', 'GET', `/api/v1/surveys/general/`)).json<SurveyDto>().title).toBe('Well-being check (WHO-5)');

    expect((await call('orgAdmin', 'PUT', url, mine)).statusCode).toBe(200);
    expect((await call('orgPatient', 'GET', '/api/v1/surveys/general/')).json<SurveyDto>().items.map((i) => i.id)).toEqual(['a', 'b']);
    expect((await submit('orgPatient', 'general', { a: 1, b: 0 })).json<SurveyResult>()).toMatchObject({ score: 1, band: { key: 'ok' } });
    // The earlier result still reads as it was asked.
    const earlier = (await call('orgPatient', 'GET', `/api/v1/surveys/responses/${before.id}/`)).json<SurveyResult>();
    expect(earlier).toMatchObject({ title: 'Well-being check (WHO-5)', score: 100 });
    expect(earlier.answers[0]!.text).toBe('I have felt cheerful and in good spirits');
  });
});
