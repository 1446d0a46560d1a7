import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureEntry, HealthRecord, RecordPage, SavedSymptomCheck, SymptomCheckResult, SymptomComplaintList } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * The symptom checker through its routes: the complaints in each language, a check (nothing
 * stored), a check saved as a symptom (assessed again on the server), input outside the lists
 * (400 naming the field, nothing stored), another patient and another organisation (404), the
 * feature off (403); and an external checker over HTTP behind the same interface (a local
 * server): its answer checked, a timeout or a bad answer is a 502, a red flag still wins.
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  const org = await buildOrganization(t.app, { name: 'symptoms-a' });
  const other = await buildOrganization(t.app, { name: 'symptoms-b' });
  people.alice = await buildUser(t.app, { org, dob: '1985-04-02' });
  people.bob = await buildUser(t.app, { org, dob: '1979-09-09' });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  people.otherAdmin = await buildUser(t.app, { org: other, roles: ['org_admin'] });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (app: TestApp, who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  app.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload !== undefined ? { payload } : {}) });
const patientOf = async (who: string) => (await call(t, who, 'GET', '/api/v1/patients/')).json<Array<{ patient_id: number }>>()[0]!.patient_id;
const symptomsOf = async (who: string) => (await call(t, who, 'GET', '/api/v1/hr/symptom/?page_size=100')).json<RecordPage>();

const cold = { age: 40, sex: 'female', complaint: 'cold', duration: '1-3-days', severity: 'mild', red_flags: [] };
const chestPainRedFlag = { age: 58, sex: 'male', complaint: 'chest-pain', duration: 'under-24-hours', severity: 'mild', red_flags: ['chest-pain-spreading'] };

describe('GET /api/v1/symptom-checker/complaints/', () => {
  it('lists the complaints with their red-flag questions, in the request’s language', async () => {
    const en = await call(t, 'alice', 'GET', '/api/v1/symptom-checker/complaints/');
    expect(en.statusCode, en.body).toBe(200);
    const list = en.json<SymptomComplaintList>();
    expect(list.checker).toBe('built-in');
    expect(list.complaints.length).toBeGreaterThanOrEqual(20);
    const chest = list.complaints.find((c) => c.id === 'chest-pain')!;
    expect(chest.name).toBe('Chest pain');
    expect(chest.red_flags[0]).toMatchObject({ id: 'chest-pain-spreading', level: 'emergency', question: 'Does the pain spread to your arm, jaw, neck, back or stomach?' });
    expect(list.complaints.find((c) => c.id === 'testicle-pain')).toMatchObject({ sexes: ['male'] });

    const el = (await call(t, 'alice', 'GET', '/api/v1/symptom-checker/complaints/', undefined, 'el')).json<SymptomComplaintList>();
    expect(el.complaints.find((c) => c.id === 'headache')).toMatchObject({ name: 'Πονοκέφαλος', synonyms: expect.arrayContaining(['ημικρανία']) });
  });
});

describe('the red-flag questions: asked most urgent first, the first "yes" ends them', () => {
  it('lists every complaint’s questions most urgent first (abdominal pain: bladder or bowel control before the urgent ones)', async () => {
    const list = (await call(t, 'alice', 'GET', '/api/v1/symptom-checker/complaints/')).json<SymptomComplaintList>();
    const rank = { emergency: 1, urgent: 0 } as const;
    for (const complaint of list.complaints) {
      const levels = complaint.red_flags.map((f) => rank[f.level as keyof typeof rank]);
      expect(levels, complaint.id).toEqual([...levels].sort((a, b) => b - a));
    }
    const abdominal = list.complaints.find((c) => c.id === 'abdominal-pain')!.red_flags.map((f) => f.id);
    expect(abdominal.indexOf('bladder-bowel-control')).toBeLessThan(abdominal.indexOf('black-or-bloody-stool'));
  });

  it('a "yes" to the first question, the others never answered, is the emergency at once, in both languages', async () => {
    const chest = (await call(t, 'alice', 'GET', '/api/v1/symptom-checker/complaints/')).json<SymptomComplaintList>().complaints.find((c) => c.id === 'chest-pain')!;
    expect(chest.red_flags[0]).toMatchObject({ id: 'chest-pain-spreading', level: 'emergency' });
    for (const lang of ['en', 'el']) {
      const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/assess/', { ...chestPainRedFlag, red_flags: [chest.red_flags[0]!.id] }, lang);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<SymptomCheckResult>()).toMatchObject({ level: 'emergency', reasons: [{ kind: 'flag', id: 'chest-pain-spreading' }], advice: ['call-now', 'while-waiting'] });
    }
    const el = (await call(t, 'alice', 'POST', '/api/v1/symptom-checker/assess/', chestPainRedFlag, 'el')).json<SymptomCheckResult>();
    expect(el.reasons[0]!.text).toMatch(/[α-ωά-ώ]/i);
  });
});

describe('POST /api/v1/symptom-checker/assess/', () => {
  it('answers "call now" for chest pain with a red flag, the flag as the reason with its source', async () => {
    const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/assess/', chestPainRedFlag);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SymptomCheckResult>()).toEqual({
      checker: 'built-in',
      level: 'emergency',
      reasons: [
        {
          kind: 'flag',
          id: 'chest-pain-spreading',
          text: 'Does the pain spread to your arm, jaw, neck, back or stomach?',
          source: { title: 'American Heart Association: Warning signs of a heart attack', url: 'https://www.heart.org/en/health-topics/heart-attack/warning-signs-of-a-heart-attack' },
        },
      ],
      advice: ['call-now', 'while-waiting'],
    });
  });

  it('answers self-care for a mild cold, in Greek when asked, and stores nothing', async () => {
    const before = (await symptomsOf('alice')).count;
    const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/assess/', cold, 'el');
    expect(res.statusCode).toBe(200);
    expect(res.json<SymptomCheckResult>()).toMatchObject({ level: 'self-care', reasons: [{ kind: 'default', id: 'cold', text: expect.stringContaining('Κρυολόγημα') }] });
    expect((await symptomsOf('alice')).count).toBe(before);
  });

  it.each([
    ['age', { age: 121 }, 'Ensure this value is less than or equal to 120.'],
    ['age', { age: 'forty' }, 'Expected number.'],
    ['sex', { sex: 'x' }, '"x" is not a valid choice.'],
    ['complaint', { complaint: 'broken-heart' }, '"broken-heart" is not a valid choice.'],
    ['complaint', { complaint: 'testicle-pain' }, 'This complaint is not one for the person the check is for.'],
    ['duration', { duration: 'ages' }, '"ages" is not a valid choice.'],
    ['severity', { severity: 'awful' }, '"awful" is not a valid choice.'],
    ['red_flags', { red_flags: ['chest-pain-spreading'] }, 'Answer only the warning-sign questions of this complaint.'],
    ['non_field_errors', { level: 'self-care' }, 'This field is not expected.'], // an unknown field, as everywhere in the API
  ])('refuses %s outside the lists (400 naming the field): %j', async (field, change, message) => {
    const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/assess/', { ...cold, ...change });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<Record<string, string[]>>()[field]).toEqual([message]);
  });

  it('words a refusal in Greek', async () => {
    const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/assess/', { ...cold, red_flags: ['seizure'] }, 'el');
    expect(res.json()).toEqual({ red_flags: ['Απαντήστε μόνο στις ερωτήσεις προειδοποιητικών σημαδιών αυτού του συμπτώματος.'] });
  });
});

describe('POST /api/v1/symptom-checker/save/', () => {
  it('saves the check as a symptom of your own record, assessed on the server, with a note that says what was answered and the outcome', async () => {
    const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/save/', { input: chestPainRedFlag });
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json<SavedSymptomCheck>();
    expect(saved).toMatchObject({ record_type: 'symptom', patient: await patientOf('alice'), result: { level: 'emergency' } });
    const record = (await call(t, 'alice', 'GET', `/api/v1/hr/symptom/${saved.record_id}/`)).json<HealthRecord>();
    expect(record).toMatchObject({ name: 'Chest pain', intensity: 3 });
    expect(record.note).toBe(
      [
        'Symptom check',
        'For: Male, age 58',
        'Main complaint: Chest pain',
        'How long: Under 24 hours',
        'How bad: Mild',
        'Warning signs answered yes:',
        '- Does the pain spread to your arm, jaw, neck, back or stomach?',
        'Outcome: Call the emergency number now',
        'Why:',
        '- Does the pain spread to your arm, jaw, neck, back or stomach?',
        'Checker: built-in',
        'This is not a diagnosis: the symptom checker’s content is experimental.',
      ].join('\n'),
    );
  });

  it('never trusts a result sent by the client (refused as an unknown field)', async () => {
    const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/save/', { input: cold, result: { level: 'emergency' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['This field is not expected.'] });
  });

  it('writes the note in the request’s language, for ?patient= or the body’s patient (your own)', async () => {
    const me = await patientOf('alice');
    const res = await call(t, 'alice', 'POST', `/api/v1/symptom-checker/save/?patient=${me}`, { input: { ...cold, severity: 'severe' } }, 'el');
    expect(res.statusCode, res.body).toBe(201);
    const record = (await call(t, 'alice', 'GET', `/api/v1/hr/symptom/${res.json<SavedSymptomCheck>().record_id}/`)).json<HealthRecord>();
    expect(record.name).toBe('Κρυολόγημα ή καταρροή');
    expect(record.note).toContain('Προειδοποιητικά σημάδια με απάντηση «ναι»: κανένα');
    expect(record.note).toContain('Αποτέλεσμα: Δείτε γιατρό σύντομα (κλείστε τηλεϊατρική επίσκεψη)');
    expect((await call(t, 'alice', 'POST', '/api/v1/symptom-checker/save/', { input: cold, patient: me })).statusCode).toBe(201);
  });

  it('stores nothing for input outside the lists (400 naming the field)', async () => {
    const before = (await symptomsOf('alice')).count;
    const res = await call(t, 'alice', 'POST', '/api/v1/symptom-checker/save/', { input: { ...cold, duration: 'a fortnight' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ 'input.duration': ['"a fortnight" is not a valid choice.'] });
    expect((await symptomsOf('alice')).count).toBe(before);
  });

  it('refuses another patient and another organisation (404), writing nothing there', async () => {
    const bob = await patientOf('bob');
    const before = (await symptomsOf('bob')).count;
    expect((await call(t, 'alice', 'POST', `/api/v1/symptom-checker/save/?patient=${bob}`, { input: cold })).statusCode).toBe(404);
    expect((await call(t, 'alice', 'POST', '/api/v1/symptom-checker/save/', { input: cold, patient: bob })).statusCode).toBe(404);
    expect((await call(t, 'stranger', 'POST', '/api/v1/symptom-checker/save/', { input: cold, patient: bob })).statusCode).toBe(404);
    expect((await symptomsOf('bob')).count).toBe(before);
  });
});

describe('the feature', () => {
  it('needs a token (401), and answers 403 on every route when the organisation turns off both Symptom Checker and Self-Diagnosis', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/symptom-checker/complaints/' })).statusCode).toBe(401);
    const org = people.otherAdmin!.org_id;
    const list = (await call(t, 'otherAdmin', 'POST', '/api/v1/features/get-features/', { organization_id: org })).json<FeatureEntry[]>();
    const set = (key: string, status: string) => call(t, 'otherAdmin', 'PUT', `/api/v1/features/${list.find((f) => f.key === key)!.id}/`, { organization_id: org, feature_status: status });
    expect((await set('symptom-checker', 'disabled')).statusCode).toBe(200);
    // Self-Diagnosis (health-check) is the same checker: while it is on, the API answers.
    expect((await call(t, 'stranger', 'GET', '/api/v1/symptom-checker/complaints/')).statusCode).toBe(200);
    const off = await set('self-diagnosis', 'disabled');
    expect(off.statusCode, off.body).toBe(200);
    for (const [method, url, payload] of [
      ['GET', '/api/v1/symptom-checker/complaints/', undefined],
      ['POST', '/api/v1/symptom-checker/assess/', cold],
      ['POST', '/api/v1/symptom-checker/save/', { input: cold }],
    ] as const) {
      const res = await call(t, 'stranger', method, url, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ detail: 'This feature is turned off for your organisation.' });
    }
    // Another organisation is not affected.
    expect((await call(t, 'alice', 'GET', '/api/v1/symptom-checker/complaints/')).statusCode).toBe(200);
  });
});

describe('an external checker over HTTP (SYMPTOM_CHECKER=http)', () => {
  let server: Server;
  let external: TestApp;
  const received: unknown[] = [];
  /** What the external checker does next. */
  let behaviour: (req: IncomingMessage, res: ServerResponse, body: unknown) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as unknown;
        received.push(body);
        behaviour(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    external = await buildTestApp({ config: { symptomChecker: { kind: 'http', url: `http://127.0.0.1:${port}/assess`, timeoutMs: 300 } } });
    const org = await buildOrganization(external.app, { name: 'symptoms-ext' });
    people.extUser = await buildUser(external.app, { org, dob: '1980-01-01' });
    tokens.extUser = (await signIn(external.app, { email: people.extUser.email, password: people.extUser.password, org_id: org.id })).access;
  }, 120_000);
  afterAll(async () => {
    await external?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const answer = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const soon = { checker: 'theirs', level: 'soon', reasons: [{ kind: 'rule', id: 'their-rule', text: 'Their reason.', source: null }], advice: ['see-doctor-soon'] };

  it('posts the checked input with the language and uses the answer it validated', async () => {
    behaviour = answer(200, soon);
    const res = await call(external, 'extUser', 'POST', '/api/v1/symptom-checker/assess/', cold, 'el');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SymptomCheckResult>()).toEqual({ ...soon, checker: expect.stringMatching(/^http:127\.0\.0\.1:\d+$/) });
    expect(received.at(-1)).toEqual({ input: cold, language: 'el' });
    // Saving goes through the same checker.
    const saved = await call(external, 'extUser', 'POST', '/api/v1/symptom-checker/save/', { input: cold });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json<SavedSymptomCheck>().result.level).toBe('soon');
    // The complaint list is the shared vocabulary.
    expect((await call(external, 'extUser', 'GET', '/api/v1/symptom-checker/complaints/')).json<SymptomComplaintList>().complaints.length).toBeGreaterThanOrEqual(20);
  });

  it('keeps a red flag’s level when the external checker answers lower', async () => {
    behaviour = answer(200, soon);
    const res = await call(external, 'extUser', 'POST', '/api/v1/symptom-checker/assess/', chestPainRedFlag);
    expect(res.json<SymptomCheckResult>()).toMatchObject({ level: 'emergency', reasons: [{ kind: 'flag', id: 'chest-pain-spreading' }] });
  });

  it.each([
    ['an answer of another shape', answer(200, { ...soon, level: 'whenever' })],
    ['an unknown advice key', answer(200, { ...soon, advice: ['take-two-aspirin'] })],
    ['something that is not JSON', answer(200, '<html>oops</html>')],
    ['an error status', answer(500, { detail: 'down' })],
    ['no answer within the timeout', () => undefined],
  ])('answers 502 for %s, saving nothing', async (_name, next) => {
    behaviour = next;
    const res = await call(external, 'extUser', 'POST', '/api/v1/symptom-checker/assess/', cold);
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json()).toEqual({ detail: 'The symptom checker is not available right now. Please try again later. If you feel very unwell, call your emergency number.' });
    const before = (await call(external, 'extUser', 'GET', '/api/v1/hr/symptom/')).json<RecordPage>().count;
    expect((await call(external, 'extUser', 'POST', '/api/v1/symptom-checker/save/', { input: cold })).statusCode).toBe(502);
    expect((await call(external, 'extUser', 'GET', '/api/v1/hr/symptom/')).json<RecordPage>().count).toBe(before);
  });
});
