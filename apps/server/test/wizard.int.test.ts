import { beforeAll, describe, expect, it } from 'vitest';
import type { ProfileQuestion, Wizard } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { PATIENT_HEADER } from '@healthbook/shared';
import { bearer, buildGrant, buildMfaDevice, buildOrganization, buildUser, signIn } from './factories';
import { minimalRecord } from './record-samples';

const t = useTestApp({ config: { authRateLimit: 1000 } });

let org: { id: number };
beforeAll(async () => {
  org = await buildOrganization(t.app, { name: 'wizard-org' });
});

const as = async () => {
  const user = await buildUser(t.app, { org });
  return { user, token: (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access };
};
const getWizard = async (token: string, lang = 'en', headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/wizard/', headers: { ...bearer(token), 'accept-language': lang, ...headers } });
  expect(res.statusCode).toBe(200);
  return res.json<Wizard>();
};
const mark = (token: string, model_name: string) => t.app.inject({ method: 'POST', url: '/api/v1/wizard/', headers: bearer(token), payload: { model_name } });
const putMe = (token: string, payload: object) => t.app.inject({ method: 'PUT', url: '/api/v1/me/', headers: bearer(token), payload });
const done = (w: Wizard) => Object.fromEntries(w.steps.map((s) => [s.model_name, s.completed]));

describe('GET /api/v1/wizard/', () => {
  it('starts pending with four steps in order, none done, titles localised', async () => {
    const { token } = await as();
    const wizard = await getWizard(token);
    expect(wizard).toEqual({
      status: 'pending',
      steps: [
        { model_name: 'profile', title: 'Complete your profile', completed: false },
        { model_name: 'mfa', title: 'Protect your account with two-step verification', completed: false },
        { model_name: 'profile_questions', title: 'Answer a few health questions', completed: false },
        { model_name: 'health_record', title: 'Add your first health record', completed: false },
      ],
    });
    expect((await getWizard(token, 'el')).steps.map((s) => s.title)).toEqual([
      'Συμπληρώστε το προφίλ σας',
      'Προστατέψτε τον λογαριασμό σας με επαλήθευση δύο βημάτων',
      'Απαντήστε σε μερικές ερωτήσεις υγείας',
      'Προσθέστε την πρώτη σας καταχώριση υγείας',
    ]);
  });

  it('counts steps done by what the user did: profile fields, a confirmed second factor, an answer', async () => {
    const { user, token } = await as();
    expect((await putMe(token, { dob: '05/17/1975' })).statusCode).toBe(200);
    expect(done(await getWizard(token)).profile).toBe(false);
    await putMe(token, { phone_number: '+30 6900 000000' });
    expect(done(await getWizard(token))).toEqual({ profile: true, mfa: false, profile_questions: false, health_record: false });

    // An unconfirmed device does not count; a confirmed one does.
    const uuid = await buildMfaDevice(t.app, { user, type: 'google', confirmed: false });
    expect(done(await getWizard(token)).mfa).toBe(false);
    await t.db.updateTable('mfa_devices').set({ confirmed: true }).where('uuid', '=', uuid).execute();
    // A confirmed second factor makes the next sign-in limited; the running session keeps its level.
    expect(done(await getWizard(token)).mfa).toBe(true);

    const [first] = (await t.app.inject({ method: 'GET', url: '/api/v1/users/profile_questions/', headers: bearer(token) })).json<ProfileQuestion[]>();
    await t.app.inject({ method: 'POST', url: '/api/v1/users/profile_answers/', headers: bearer(token), payload: { answers: { [first!.id]: 'A+' } } });
    const wizard = await getWizard(token);
    expect(done(wizard)).toEqual({ profile: true, mfa: true, profile_questions: true, health_record: false });
    expect(wizard.status).toBe('pending');
  });
});

describe('the first record and whose checklist it is', () => {
  const addRecord = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/hr/condition/', headers: bearer(token), payload: minimalRecord('condition') });

  it('ticks "Add your first health record" once the own record holds one, without marking it', async () => {
    const { token } = await as();
    expect(done(await getWizard(token)).health_record).toBe(false);
    expect((await addRecord(token)).statusCode).toBe(201);
    expect(done(await getWizard(token)).health_record).toBe(true);
  });

  it("gives a carer viewing another's record their own checklist, not the patient's", async () => {
    const patient = await as();
    await addRecord(patient.token);
    const carer = await as();
    const patientRow = await t.db.selectFrom('patients').select(['id', 'org_id']).where('user_id', '=', patient.user.id).executeTakeFirstOrThrow();
    await buildGrant(t.app, { patient: patientRow, grantee: carer.user, access: 'read-only' });
    const viewing = await getWizard(carer.token, 'en', { [PATIENT_HEADER.toLowerCase()]: String(patientRow.id) });
    expect(done(viewing).health_record).toBe(false);
    expect(viewing).toEqual(await getWizard(carer.token));
  });

  it('gives staff the steps of their account only', async () => {
    for (const roles of [['professional', 'provider'], ['professional', 'coach'], ['org_admin']]) {
      const staff = await buildUser(t.app, { org, roles });
      const token = (await signIn(t.app, { email: staff.email, password: staff.password, org_id: staff.org_id })).access;
      expect((await getWizard(token)).steps.map((s) => s.model_name)).toEqual(['profile', 'mfa']);
    }
  });
});

describe('POST /api/v1/wizard/ and the status', () => {
  it('goes pending → minimized → completed, and stays completed', async () => {
    const { token } = await as();
    expect((await getWizard(token)).status).toBe('pending');

    const minimized = await putMe(token, { settings: { isWizardMinimized: true } });
    expect(minimized.json()).toMatchObject({ settings: { isWizardMinimized: true }, wizard_complete: false });
    expect((await getWizard(token)).status).toBe('minimized');

    const steps = ['profile', 'mfa', 'profile_questions', 'health_record'] as const;
    for (const [i, step] of steps.entries()) {
      const res = await mark(token, step);
      expect(res.statusCode).toBe(200);
      const wizard = res.json<Wizard>();
      expect(wizard.steps.filter((s) => s.completed).map((s) => s.model_name)).toEqual(steps.slice(0, i + 1));
      expect(wizard.status).toBe(i < steps.length - 1 ? 'minimized' : 'completed');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(token) })).json().wizard_complete).toBe(true);

    // Marking a step again changes nothing; un-minimising does not reopen it.
    expect((await mark(token, 'mfa')).json<Wizard>().status).toBe('completed');
    await putMe(token, { settings: { isWizardMinimized: false } });
    expect((await getWizard(token)).status).toBe('completed');
  });

  it('records each step once', async () => {
    const { user, token } = await as();
    await mark(token, 'health_record');
    await mark(token, 'health_record');
    const row = await t.db.selectFrom('users').select(['wizard_steps', 'wizard_complete']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ wizard_steps: ['health_record'], wizard_complete: false });
  });

  it('completes when the last missing step is done by the user rather than marked', async () => {
    const { token } = await as();
    for (const step of ['mfa', 'profile_questions', 'health_record']) await mark(token, step);
    expect((await getWizard(token)).status).toBe('pending');
    await putMe(token, { dob: '1980-01-01', phone_number: '2100000000' });
    expect((await getWizard(token)).status).toBe('completed');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(token) })).json().wizard_complete).toBe(true);
  });

  it('refuses an unknown step with a field error', async () => {
    const { token } = await as();
    const res = await mark(token, 'chat');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['model_name']);
  });

  it('needs a full sign-in', async () => {
    const user = await buildUser(t.app, { org });
    await buildMfaDevice(t.app, { user });
    const limited = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/wizard/', headers: bearer(limited) })).statusCode).toBe(403);
    expect((await mark(limited, 'profile')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/wizard/' })).statusCode).toBe(401);
  });
});
