import { beforeAll, describe, expect, it } from 'vitest';
import type { ProfileQuestion, WelcomeMessage } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { bearer, buildMfaDevice, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

const t = useTestApp({ config: { authRateLimit: 1000 } });

let orgA: { id: number; org_name: string };
let orgB: { id: number; org_name: string };
/** A question only organisation A asks. */
let onlyA: number;

beforeAll(async () => {
  orgA = await buildOrganization(t.app, { name: 'profile-a', org_name: 'Clinic Alpha' });
  orgB = await buildOrganization(t.app, { name: 'profile-b', org_name: 'Clinic Beta' });
  onlyA = (
    await t.db
      .insertInto('profile_questions')
      .values({
        org_id: orgA.id,
        position: 100,
        question_type: 'choice',
        text_en: 'How do you prefer to be contacted?',
        text_el: 'Πώς προτιμάτε να επικοινωνούμε μαζί σας;',
        options: JSON.stringify([
          { key: 'phone', en: 'Phone', el: 'Τηλέφωνο' },
          { key: 'email', en: 'E-mail', el: 'E-mail' },
        ]),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

const as = async (org: { id: number } = orgA) => {
  const user = await buildUser(t.app, { org });
  return { user, token: (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access };
};
const questions = (token: string, lang = 'en') =>
  t.app.inject({ method: 'GET', url: '/api/v1/users/profile_questions/', headers: { ...bearer(token), 'accept-language': lang } });
const answer = (token: string, answers: Record<string, string>, lang = 'en') =>
  t.app.inject({ method: 'POST', url: '/api/v1/users/profile_answers/', headers: { ...bearer(token), 'accept-language': lang }, payload: { answers } });
const welcome = (token: string, id: number, lang = 'en') =>
  t.app.inject({ method: 'GET', url: `/api/v1/users/get_welcome_messages/${id}`, headers: { ...bearer(token), 'accept-language': lang } });
const storedAnswers = (user: BuiltUser) => t.db.selectFrom('profile_answers').select(['question_id', 'answer']).where('user_id', '=', user.id).execute();

const byText = (list: ProfileQuestion[], text: string) => list.find((q) => q.question === text)!;

describe('GET /api/v1/users/profile_questions/', () => {
  it('lists the questions for everyone and the organisation’s own, in order, unanswered', async () => {
    const { token } = await as();
    const res = await questions(token);
    expect(res.statusCode).toBe(200);
    const list = res.json<ProfileQuestion[]>();
    expect(list.map((q) => q.question)).toEqual([
      'What is your blood type?',
      'Do you smoke?',
      'Do you have any allergies (medicines, foods or other)?',
      'Emergency contact (name and phone number)',
      'Your primary care doctor (name and contact details)',
      'How do you prefer to be contacted?',
    ]);
    expect(list.every((q) => q.answer === null)).toBe(true);
    expect(byText(list, 'Do you smoke?')).toMatchObject({
      question_type: 'boolean',
      options: [
        { key: 'true', value: 'Yes' },
        { key: 'false', value: 'No' },
      ],
    });
    expect(byText(list, 'What is your blood type?').options).toEqual(expect.arrayContaining([{ key: 'O+', value: 'O+' }, { key: 'unknown', value: "I don't know" }]));
  });

  it('speaks Greek when asked', async () => {
    const { token } = await as();
    const list = (await questions(token, 'el')).json<ProfileQuestion[]>();
    expect(list[0]).toMatchObject({ question: 'Ποια είναι η ομάδα αίματός σας;' });
    expect(list[0]!.options).toContainEqual({ key: 'unknown', value: 'Δεν γνωρίζω' });
    expect(list[1]!.options).toEqual([
      { key: 'true', value: 'Ναι' },
      { key: 'false', value: 'Όχι' },
    ]);
  });

  it('does not show another organisation’s questions', async () => {
    const { token } = await as(orgB);
    const list = (await questions(token)).json<ProfileQuestion[]>();
    expect(list).toHaveLength(5);
    expect(list.map((q) => q.id)).not.toContain(onlyA);
  });
});

describe('POST /api/v1/users/profile_answers/', () => {
  it('saves every answer and answers the list with them; another user sees none of them', async () => {
    const { user, token } = await as();
    const list = (await questions(token)).json<ProfileQuestion[]>();
    const [blood, smoke, allergies] = list;
    const res = await answer(token, { [blood!.id]: 'AB-', [smoke!.id]: 'false', [allergies!.id]: '  penicillin  ', [onlyA]: 'email' });
    expect(res.statusCode).toBe(200);
    const saved = res.json<ProfileQuestion[]>();
    expect(saved.map((q) => q.answer)).toEqual(['AB-', 'false', 'penicillin', null, null, 'email']);
    expect((await questions(token)).json()).toEqual(saved);
    expect(await storedAnswers(user)).toHaveLength(4);

    // Changing one and clearing another leaves the rest.
    const next = (await answer(token, { [blood!.id]: 'O+', [allergies!.id]: '' })).json<ProfileQuestion[]>();
    expect(next.map((q) => q.answer)).toEqual(['O+', 'false', null, null, null, 'email']);

    const { token: otherToken } = await as();
    expect((await questions(otherToken)).json<ProfileQuestion[]>().every((q) => q.answer === null)).toBe(true);
  });

  it('writes nothing when one question id is unknown', async () => {
    const { user, token } = await as();
    const [blood] = (await questions(token)).json<ProfileQuestion[]>();
    const res = await answer(token, { [blood!.id]: 'A+', 999999: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ 'answers.999999': ['There is no such question.'] });
    expect(await storedAnswers(user)).toEqual([]);
  });

  it('treats another organisation’s question as unknown', async () => {
    const { user, token } = await as(orgB);
    const res = await answer(token, { [onlyA]: 'phone' }, 'el');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ [`answers.${onlyA}`]: ['Δεν υπάρχει τέτοια ερώτηση.'] });
    expect(await storedAnswers(user)).toEqual([]);
  });

  it('refuses a value that is not one of the options, and writes nothing', async () => {
    const { user, token } = await as();
    const [blood, smoke, allergies] = (await questions(token)).json<ProfileQuestion[]>();
    const res = await answer(token, { [allergies!.id]: 'pollen', [blood!.id]: 'Z+', [smoke!.id]: 'sometimes' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      [`answers.${blood!.id}`]: ['"Z+" is not a valid choice.'],
      [`answers.${smoke!.id}`]: ['"sometimes" is not a valid choice.'],
    });
    expect(await storedAnswers(user)).toEqual([]);
  });

  it('validates the body shape', async () => {
    const { token } = await as();
    expect((await answer(token, { abc: 'x' })).statusCode).toBe(400);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/users/profile_answers/', headers: bearer(token), payload: {} });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['answers']);
  });
});

describe('GET /api/v1/users/get_welcome_messages/{id}', () => {
  it('answers one’s own messages, in order, with the organisation’s name', async () => {
    const { user, token } = await as();
    const res = await welcome(token, user.id);
    expect(res.statusCode).toBe(200);
    const list = res.json<WelcomeMessage[]>();
    expect(list.map((m) => m.title)).toEqual(['Welcome to Clinic Alpha', 'How to start']);
    expect(list[0]!.message).toMatch(/personal health record/);
    expect(res.body).not.toContain('{{');
  });

  it('speaks Greek when asked', async () => {
    const { user, token } = await as(orgB);
    const list = (await welcome(token, user.id, 'el')).json<WelcomeMessage[]>();
    expect(list.map((m) => m.title)).toEqual(['Καλώς ήρθατε στο Clinic Beta', 'Πώς να ξεκινήσετε']);
    expect(list[1]!.message).toMatch(/επαλήθευση δύο βημάτων/);
  });

  it('includes the organisation’s own messages in their place, not another organisation’s', async () => {
    await t.db
      .insertInto('welcome_messages')
      .values({ org_id: orgA.id, position: 15, title_en: 'Our opening hours', title_el: 'Ωράριο λειτουργίας', message_en: 'Mon-Fri 8-20.', message_el: 'Δευ-Παρ 8-20.' })
      .execute();
    const a = await as();
    expect((await welcome(a.token, a.user.id)).json<WelcomeMessage[]>().map((m) => m.title)).toEqual([
      'Welcome to Clinic Alpha',
      'Our opening hours',
      'How to start',
    ]);
    const b = await as(orgB);
    expect((await welcome(b.token, b.user.id)).json<WelcomeMessage[]>()).toHaveLength(2);
  });

  it('answers 404 for anyone else’s id, even to an admin', async () => {
    const { user } = await as();
    const other = await as();
    expect((await welcome(other.token, user.id)).statusCode).toBe(404);
    const admin = await buildUser(t.app, { org: orgA, roles: ['org_admin'] });
    const adminToken = (await signIn(t.app, { email: admin.email, password: admin.password, org_id: admin.org_id })).access;
    expect((await welcome(adminToken, user.id)).statusCode).toBe(404);
  });
});

describe('access', () => {
  it('needs a full sign-in on every route', async () => {
    const user = await buildUser(t.app, { org: orgA });
    await buildMfaDevice(t.app, { user });
    const limited = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    expect((await questions(limited)).statusCode).toBe(403);
    expect((await answer(limited, {})).statusCode).toBe(403);
    expect((await welcome(limited, user.id)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/profile_questions/' })).statusCode).toBe(401);
    expect(await storedAnswers(user)).toEqual([]);
  });
});
