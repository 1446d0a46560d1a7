// Mental-health surveys through the pages: a positive PHQ-2 leads on to the PHQ-9, whose item 9
// answered "Several days" brings crisis help first (above the score), also while answering; the
// GAD-7 (its page is phq-7) to its result and the assessments' history with its chart; the
// result page without an action goes to the hub; the profile questionnaire to its thank-you page
// (and the wizard's step done); a run in Greek at phone width. Every page passes the axe scan;
// each result screen is photographed (desktop and phone, en and el) for reading.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, apiLogin, registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ timeout: 180_000 });

const SHOTS = process.env.SURVEY_SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function signedIn(browser: Browser, user: { email: string; password: string }, options: { phone?: boolean; greek?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: options.phone ? PHONE : DESKTOP, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  if (options.greek) {
    // The member's language is a setting that follows them (the shell applies it): Greek there too.
    const token = await apiLogin(user.email, user.password);
    const me = await api('/api/v1/me/', { method: 'PUT', token, body: { settings: { language: 'el' } } });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    await page.evaluate(() => localStorage.setItem('language', 'el'));
    await page.reload();
  }
  return page;
}

/** The radio group of a question (named by its number and text), and the answer in it. */
const choose = (page: Page, question: RegExp, answer: string) => page.getByRole('radiogroup', { name: question }).getByRole('radio', { name: answer, exact: true }).check();

interface SurveyDto {
  items: Array<{ id: string; options: Array<{ value: number }> }>;
}

/** A result made through the API: every item answered with its option at `pick` (or the last). */
async function submitByApi(token: string, key: string, pick: number, extra: Record<string, number> = {}) {
  const survey = await api<SurveyDto>(`/api/v1/surveys/${key}/`, { token });
  expect(survey.status).toBe(200);
  const answers = Object.fromEntries(survey.body.items.map((i) => [i.id, (i.options[pick] ?? i.options.at(-1)!).value]));
  const answer = await api<{ id: number; route: string }>(`/api/v1/surveys/${key}/responses/`, { token, body: { attempt_id: crypto.randomUUID(), answers: { ...answers, ...extra } } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

test('a positive PHQ-2 leads on to the PHQ-9; item 9 above 0 brings crisis help first, above the score', async ({ browser }) => {
  const user = await registeredPatient('surveys-phq');
  const page = await signedIn(browser, user);
  await page.goto('/healthbook/mental-health-survey');
  await expect(page.getByRole('heading', { level: 1, name: 'Mental health surveys' })).toBeVisible();
  await expect(page.getByText('These are screenings, not diagnoses.', { exact: false })).toBeVisible();
  await expect(page.getByRole('link', { name: '988 Suicide & Crisis Lifeline (call or text) on 988' })).toHaveAttribute('href', 'tel:988');
  await scan(page);
  await shot(page, 'hub-desktop-en');

  await page.getByRole('link', { name: 'Take Quick mood check (PHQ-2)' }).click();
  await expect(page).toHaveURL(/\/healthbook\/mental-health-survey\/phq-2$/);
  await expect(page.getByText('Developed by Drs. Robert L. Spitzer', { exact: false })).toBeVisible();
  await scan(page);
  // Nothing answered: each question says so, and nothing is sent.
  await page.getByRole('button', { name: 'See my result' }).click();
  await expect(page.getByText('Please choose an answer to this question.')).toHaveCount(2);
  await choose(page, /^1\. Little interest or pleasure/, 'More than half the days');
  await choose(page, /^2\. Feeling down, depressed, or hopeless/, 'More than half the days');
  await page.getByRole('button', { name: 'See my result' }).click();

  // Positive (4 of 6): straight on to the PHQ-9, gently explained, the two answers kept.
  await expect(page).toHaveURL(/\/healthbook\/mental-health-survey\/phq-9$/);
  await expect(page.getByText('Thank you. A few more questions')).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: /^1\. Little interest/ }).getByRole('radio', { name: 'More than half the days' })).toBeChecked();
  await expect(page.getByRole('radiogroup', { name: /^2\. Feeling down/ }).getByRole('radio', { name: 'More than half the days' })).toBeChecked();
  for (const n of [3, 4, 5, 6, 7, 8]) await choose(page, new RegExp(`^${n}\\. `), 'Not at all');
  await expect(page.getByTestId('crisis-help')).toHaveCount(0);
  await choose(page, /^9\. Thoughts that you would be better off dead/, 'Several days');
  // At once, while still answering.
  const during = page.getByRole('region', { name: 'You are not alone' });
  await expect(during).toBeVisible();
  await expect(during.getByRole('link', { name: 'Call 988 Suicide & Crisis Lifeline (call or text): 988' })).toHaveAttribute('href', 'tel:988');
  await scan(page);
  await shot(page, 'phq9-answering-desktop-en');
  await page.getByRole('button', { name: 'See my result' }).click();

  await expect(page).toHaveURL(/\/healthbook\/health-action\/result\?action=phq-9&id=\d+$/);
  const help = page.getByRole('region', { name: 'You are not alone' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('link', { name: /988/ })).toHaveAttribute('href', 'tel:988');
  await expect(help.getByRole('link', { name: 'call 911' })).toHaveAttribute('href', 'tel:911');
  await expect(help.getByRole('link', { name: 'Chat with someone now' })).toBeVisible();
  const score = page.getByTestId('survey-score');
  await expect(score).toContainText('5 of 27');
  await expect(score).toContainText('Mild depression symptoms');
  const [helpBox, scoreBox] = [await help.boundingBox(), await score.boundingBox()];
  expect(helpBox!.y + helpBox!.height).toBeLessThanOrEqual(scoreBox!.y);
  await expect(page.getByRole('heading', { name: 'What this does and does not mean' })).toBeVisible();
  await scan(page);
  await shot(page, 'phq9-crisis-result-desktop-en');

  // The PHQ-2 is kept too, and the hub shows both.
  await page.goto('/healthbook/mental-health-survey');
  await expect(page.getByText(/Last taken on .*: 4 of 6, Screen positive/)).toBeVisible();
  await expect(page.getByText(/Last taken on .*: 5 of 27, Mild depression symptoms/)).toBeVisible();
});

test('GAD-7 (its page is phq-7) to its result, then the assessments show it with the chart', async ({ browser }) => {
  const user = await registeredPatient('surveys-gad');
  const token = await apiLogin(user.email, user.password);
  await submitByApi(token, 'gad-7', 2); // an earlier result: 14 of 21
  const page = await signedIn(browser, user);
  await page.goto('/healthbook/mental-health-survey/phq-7');
  await expect(page.getByRole('heading', { level: 1, name: /GAD-7/ })).toBeVisible();
  for (const n of [1, 2, 3, 4, 5, 6, 7]) await choose(page, new RegExp(`^${n}\\. `), n <= 3 ? 'Several days' : 'Not at all');
  await page.getByRole('button', { name: 'See my result' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-action\/result\?action=phq-7&id=\d+$/);
  await expect(page.getByTestId('survey-score')).toContainText('3 of 21');
  await expect(page.getByTestId('crisis-help')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Book a telehealth visit/ })).toBeVisible();
  await scan(page);
  await shot(page, 'gad7-result-desktop-en');

  await page.getByRole('link', { name: 'See all your assessments' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-record\/assessments$/);
  const section = page.getByRole('region', { name: /GAD-7/ });
  await expect(section.getByRole('img', { name: /Chart of your .*GAD-7.* scores over time/ })).toBeVisible();
  await expect(section.locator('svg path').first()).toBeVisible();
  const rows = section.getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('3 of 21');
  await expect(rows.nth(2)).toContainText('14 of 21');
  await scan(page);
  await shot(page, 'assessments-desktop-en');
  await rows.nth(2).getByRole('link').click();
  await expect(page).toHaveURL(/\/healthbook\/health-action\/result\?action=phq-7&id=\d+$/);
  await expect(page.getByTestId('survey-score')).toContainText('14 of 21');

  // Without an action, or with an unknown one, the result page is the survey hub.
  await page.goto('/healthbook/health-action/result');
  await expect(page).toHaveURL(/\/healthbook\/mental-health-survey$/);
  await page.goto('/healthbook/health-action/result?action=unknown');
  await expect(page).toHaveURL(/\/healthbook\/mental-health-survey$/);
  // Without an id: the latest of that survey.
  await page.goto('/healthbook/health-action/result?action=phq-7');
  await expect(page.getByTestId('survey-score')).toContainText('3 of 21');
});

test('the profile questionnaire, one question at a time, to its thank-you page; the wizard step is done', async ({ browser }) => {
  const user = await registeredPatient('surveys-profile');
  const token = await apiLogin(user.email, user.password);
  const page = await signedIn(browser, user, { phone: true });
  await page.goto('/healthbook/profile-questionnaire');
  await expect(page.getByRole('heading', { level: 1, name: 'A few health questions' })).toBeVisible();
  await expect(page.getByText(/^Question 1 of \d+$/)).toBeVisible();
  await scan(page);
  await page.getByRole('radiogroup', { name: 'What is your blood type?' }).getByRole('radio', { name: 'A+', exact: true }).check();
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText(/^Question 2 of \d+$/)).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('radio', { name: 'A+', exact: true })).toBeChecked();
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await page.getByRole('button', { name: 'Skip' }).click(); // Do you smoke?
  await page.getByLabel('Do you have any allergies (medicines, foods or other)?').fill('Penicillin');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  // The answers are saved as the user goes.
  const saved = await api<Array<{ question: string; answer: string | null }>>('/api/v1/users/profile_questions/', { token });
  expect(saved.body.find((q) => q.question === 'What is your blood type?')?.answer).toBe('A+');
  expect(saved.body.find((q) => q.question === 'Do you smoke?')?.answer).toBeNull();
  expect(saved.body.find((q) => q.question.startsWith('Do you have any allergies'))?.answer).toBe('Penicillin');
  // The rest skipped; the last one finishes.
  while (await page.getByRole('button', { name: 'Save and continue' }).isVisible()) await page.getByRole('button', { name: 'Skip' }).click();
  await page.getByRole('button', { name: 'Save and finish' }).click();
  await expect(page).toHaveURL(/\/healthbook\/profile-questionnaire\/thank-you$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your answers' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Review your profile' })).toBeVisible();
  await scan(page);
  const wizard = await api<{ steps: Array<{ model_name: string; completed: boolean }> }>('/api/v1/wizard/', { token });
  expect(wizard.body.steps.find((s) => s.model_name === 'profile_questions')?.completed).toBe(true);
});

test('in Greek at phone width: one question at a time, back allowed, crisis help first', async ({ browser }) => {
  const user = await registeredPatient('surveys-el');
  const page = await signedIn(browser, user, { phone: true, greek: true });
  await page.goto('/healthbook/mental-health-survey');
  await expect(page.getByRole('heading', { level: 1, name: 'Ερωτηματολόγια ψυχικής υγείας' })).toBeVisible();
  await scan(page);
  await shot(page, 'hub-phone-el');
  await page.goto('/healthbook/mental-health-survey/phq-9');
  await expect(page.getByText('Ερώτηση 1 από 10')).toBeVisible();
  await scan(page);
  await page.getByRole('radio', { name: 'Καθόλου', exact: true }).check();
  await page.getByRole('button', { name: 'Επόμενη' }).click();
  await expect(page.getByText('Ερώτηση 2 από 10')).toBeVisible();
  await page.getByRole('button', { name: 'Πίσω' }).click();
  await expect(page.getByText('Ερώτηση 1 από 10')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Καθόλου', exact: true })).toBeChecked();
  await page.getByRole('button', { name: 'Επόμενη' }).click();
  for (let n = 2; n <= 8; n++) {
    await page.getByRole('radio', { name: 'Καθόλου', exact: true }).check();
    await page.getByRole('button', { name: 'Επόμενη' }).click();
  }
  await expect(page.getByText('Ερώτηση 9 από 10')).toBeVisible();
  await page.getByRole('radio', { name: 'Αρκετές ημέρες', exact: true }).check();
  await expect(page.getByRole('region', { name: 'Δεν είστε μόνοι' })).toBeVisible();
  await scan(page);
  await shot(page, 'phq9-answering-phone-el');
  await page.getByRole('button', { name: 'Επόμενη' }).click();
  await page.getByRole('button', { name: 'Δείτε το αποτέλεσμα' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-action\/result\?action=phq-9&id=\d+$/);
  const help = page.getByRole('region', { name: 'Δεν είστε μόνοι' });
  await expect(help.getByRole('link', { name: /988/ })).toHaveAttribute('href', 'tel:988');
  const score = page.getByTestId('survey-score');
  await expect(score).toContainText('1 από 27');
  expect((await help.boundingBox())!.y).toBeLessThan((await score.boundingBox())!.y);
  await scan(page);
  await shot(page, 'phq9-crisis-result-phone-el');
});

// Every kind of result, desktop and phone, English and Greek: axe, and a picture to read.
for (const greek of [false, true]) {
  test(`every result screen ${greek ? 'in Greek' : 'in English'}, desktop and phone`, async ({ browser }) => {
    const user = await registeredPatient(`surveys-shots-${greek ? 'el' : 'en'}`);
    const token = await apiLogin(user.email, user.password);
    const results = [
      { name: 'phq2-negative', ...(await submitByApi(token, 'phq-2', 0)) },
      { name: 'phq2-positive', ...(await submitByApi(token, 'phq-2', 2)) },
      { name: 'phq9-severe', ...(await submitByApi(token, 'phq-9', 3, { q9: 0 })) },
      { name: 'phq9-crisis-low', ...(await submitByApi(token, 'phq-9', 0, { q9: 1 })) },
      { name: 'gad7-moderate', ...(await submitByApi(token, 'gad-7', 2)) },
      { name: 'general', ...(await submitByApi(token, 'general', 3)) },
      { name: 'profile-questionnaire', ...(await submitByApi(token, 'profile-questionnaire', 1)) },
    ];
    for (const phone of [false, true]) {
      const page = await signedIn(browser, user, { phone, greek });
      for (const r of results) {
        await page.goto(`/healthbook/health-action/result?action=${r.route}&id=${r.id}`);
        await expect(page.getByTestId('survey-score')).toBeVisible();
        await expect(page.getByTestId('crisis-help')).toHaveCount(r.name === 'phq9-crisis-low' ? 1 : 0);
        await scan(page);
        await shot(page, `result-${r.name}-${phone ? 'phone' : 'desktop'}-${greek ? 'el' : 'en'}`);
      }
      await page.goto('/healthbook/health-record/assessments');
      await expect(page.getByRole('img').first()).toBeVisible();
      await scan(page);
      await shot(page, `assessments-${phone ? 'phone' : 'desktop'}-${greek ? 'el' : 'en'}`);
      await page.context().close();
    }
  });
}
