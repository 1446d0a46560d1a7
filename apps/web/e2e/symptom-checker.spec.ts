// The symptom checker: chest pain with a red flag reaches "call 911 now" at once (the warning
// signs are asked one after the other, most urgent first; a "yes" ends them); a mild cold reaches
// self-care and is saved to the record, then seen in the symptom list (at phone width); one run
// in Greek at phone width, at health-check. Axe on every step and every result.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ timeout: 150_000 });

const PHONE = { width: 390, height: 844 };
/** SYMPTOM_SHOTS=<dir>: keep a screenshot of each step and result, to look at. */
const SHOTS = process.env.SYMPTOM_SHOTS;

async function check(page: Page, name: string) {
  await scan(page);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }
}

async function signedIn(page: Page, prefix: string) {
  const user = await registeredPatient(prefix);
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
}

const step = (page: Page, text: string) => expect(page.getByText(text, { exact: true })).toBeVisible();

/** Answers every warning sign "no", one after the other (each "no" shows the next question). */
async function answerEveryQuestionNo(page: Page, no: string) {
  for (let i = 0; i < (await page.getByRole('radio', { name: no, exact: true }).count()); i++) {
    await page.getByRole('radio', { name: no, exact: true }).nth(i).check();
  }
  expect(await page.getByRole('radiogroup').count()).toBeGreaterThan(1);
}

test('chest pain with a red flag: "Call 911 now" first, with a way back on the way', async ({ page }) => {
  await signedIn(page, 'symptom-chest');
  await page.goto('/healthbook/symptom-checker');
  await expect(page.getByRole('heading', { level: 1, name: 'Check your symptoms' })).toBeVisible();
  const notice = page.getByRole('note', { name: 'Important' });
  await expect(notice).toContainText('Not for medical emergencies.');
  await expect(notice.getByRole('link', { name: '911' })).toHaveAttribute('href', 'tel:911');
  await expect(notice).toContainText('Its content is experimental.');

  // Who: nothing chosen yet is said, not skipped.
  await step(page, 'Step 1 of 5');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Enter an age from 0 to 120 years.')).toBeVisible();
  await expect(page.getByText('Choose one.')).toBeVisible();
  await check(page, 'en-desktop-1-who-errors');
  await page.getByLabel(/Age in years/).fill('58');
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  // The complaint, searched.
  await step(page, 'Step 2 of 5');
  await expect(page.getByRole('heading', { level: 2, name: 'What is the main problem?' })).toBeFocused();
  await page.getByRole('combobox', { name: /Main symptom/ }).fill('heart');
  await expect(page.getByRole('option')).toHaveCount(2); // chest pain (heart pain) and palpitations
  await page.getByRole('combobox', { name: /Main symptom/ }).fill('chest');
  await check(page, 'en-desktop-2-complaint');
  await page.getByRole('option', { name: 'Chest pain' }).click();
  await page.getByRole('button', { name: 'Next' }).click();

  // How long; then back, and the complaint is still chosen.
  await step(page, 'Step 3 of 5');
  await check(page, 'en-desktop-3-duration');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('combobox', { name: /Main symptom/ })).toHaveValue('Chest pain');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Under 24 hours' }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  await step(page, 'Step 4 of 5');
  await check(page, 'en-desktop-4-severity');
  await page.getByRole('radio', { name: /^Mild/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  // The red flags, one after the other, most urgent first: the question needs an answer.
  await step(page, 'Step 5 of 5');
  const spreading = 'Does the pain spread to your arm, jaw, neck, back or stomach?';
  const questions = page.getByRole('radiogroup');
  await expect(questions).toHaveCount(1);
  await expect(questions.first()).toHaveAccessibleName(spreading);
  await page.getByRole('button', { name: 'See the result' }).click();
  await expect(page.getByText('Answer this question.')).toBeVisible();
  await check(page, 'en-desktop-5-flags');
  // A "no" shows the next question; the first changed to "yes" shows the result at once, nothing more asked.
  await questions.first().getByRole('radio', { name: 'No' }).check();
  await expect(questions).toHaveCount(2);
  await expect(page.getByText('Answer this question.')).toBeHidden();
  await check(page, 'en-desktop-5-flags-next');
  // (clicked: the question is gone once answered, so there is nothing left to see checked)
  await questions.first().getByRole('radio', { name: 'Yes' }).click();

  // The result at once: the call first.
  await expect(page.getByRole('heading', { level: 2, name: 'Call 911 now' })).toBeFocused();
  await expect(page.getByRole('radiogroup')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Call 911 now' })).toHaveAttribute('href', 'tel:911');
  await expect(page.getByRole('listitem').filter({ hasText: spreading })).toContainText('Based on: American Heart Association: Warning signs of a heart attack');
  await expect(page.getByRole('note', { name: 'Important' })).toBeVisible();
  await check(page, 'en-desktop-6-result-emergency');

  await page.getByRole('button', { name: 'Start over' }).click();
  await step(page, 'Step 1 of 5');
  await expect(page.getByLabel(/Age in years/)).toHaveValue('');
});

test.describe('at phone width', () => {
  test.use({ viewport: PHONE });

  test('a mild cold: self-care, saved to the record and seen in the symptom list', async ({ page }) => {
    await signedIn(page, 'symptom-cold');
    await page.goto('/healthbook/symptom-checker');
    await expect(page.getByRole('note', { name: 'Important' })).toContainText('911');
    await check(page, 'en-phone-1-who');
    await page.getByLabel(/Age in years/).fill('34');
    await page.getByRole('radio', { name: 'Female' }).check();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('combobox', { name: /Main symptom/ }).fill('runny');
    await check(page, 'en-phone-2-complaint');
    await page.getByRole('option', { name: 'Cold or runny nose' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: '1 to 3 days' }).check();
    await check(page, 'en-phone-3-duration');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: /^Mild/ }).check();
    await check(page, 'en-phone-4-severity');
    await page.getByRole('button', { name: 'Next' }).click();
    await answerEveryQuestionNo(page, 'No');
    await check(page, 'en-phone-5-flags');
    await page.getByRole('button', { name: 'See the result' }).click();

    await expect(page.getByRole('heading', { level: 2, name: 'Look after yourself at home' })).toBeVisible();
    await expect(page.getByText('Cold or runny nose without warning signs can usually be looked after at home.')).toBeVisible();
    await expect(page.getByText('If the answer to any of these questions becomes yes, get help straight away:')).toBeVisible();
    await expect(page.getByRole('link', { name: /Call 911/ })).toHaveCount(0);
    await check(page, 'en-phone-6-result-self-care');

    await page.getByRole('button', { name: 'Save to my record' }).click();
    await expect(page.getByText('Saved to your record as a symptom.')).toBeVisible();
    await check(page, 'en-phone-7-saved');
    await page.getByRole('link', { name: 'See your symptoms' }).click();
    await expect(page).toHaveURL(/\/healthbook\/health-record\/symptom$/);
    await expect(page.getByText('Cold or runny nose').first()).toBeVisible();
  });

  test('in Greek, at health-check: a severe headache leads to "see a doctor soon" with the telehealth link', async ({ page }) => {
    await signedIn(page, 'symptom-greek');
    await page.evaluate(() => localStorage.setItem('language', 'el'));
    await page.goto('/healthbook/health-check');
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await expect(page.getByRole('heading', { level: 1, name: 'Ελέγξτε τα συμπτώματά σας' })).toBeVisible();
    const notice = page.getByRole('note', { name: 'Σημαντικό' });
    await expect(notice).toContainText('Δεν προορίζεται για επείγοντα περιστατικά.');
    await expect(notice).toContainText('Το περιεχόμενό του είναι πειραματικό.');
    await step(page, 'Βήμα 1 από 5');
    await check(page, 'el-phone-1-who');
    await page.getByLabel(/Ηλικία σε έτη/).fill('45');
    await page.getByRole('radio', { name: 'Γυναίκα' }).check();
    await page.getByRole('button', { name: 'Επόμενο' }).click();

    // Without accents, as people type on phones.
    await page.getByRole('combobox', { name: /Κύριο σύμπτωμα/ }).fill('πονοκεφαλος');
    await check(page, 'el-phone-2-complaint');
    await page.getByRole('option', { name: 'Πονοκέφαλος' }).click();
    await page.getByRole('button', { name: 'Επόμενο' }).click();
    await page.getByRole('radio', { name: '1 έως 3 ημέρες' }).check();
    await check(page, 'el-phone-3-duration');
    await page.getByRole('button', { name: 'Επόμενο' }).click();
    await page.getByRole('radio', { name: /^Σοβαρό/ }).check();
    await check(page, 'el-phone-4-severity');
    await page.getByRole('button', { name: 'Επόμενο' }).click();
    await expect(page.getByRole('radiogroup', { name: 'Ξεκίνησε ξαφνικά ένας πολύ δυνατός πονοκέφαλος, ο χειρότερος που είχατε ποτέ;' })).toBeVisible();
    await answerEveryQuestionNo(page, 'Όχι');
    await check(page, 'el-phone-5-flags');
    await page.getByRole('button', { name: 'Δείτε το αποτέλεσμα' }).click();

    await expect(page.getByRole('heading', { level: 2, name: 'Δείτε γιατρό σύντομα' })).toBeVisible();
    await expect(page.getByText('Είπατε ότι είναι σοβαρό.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Κλείστε τηλεϊατρική επίσκεψη' })).toHaveAttribute('href', '/healthbook/health-help/telehealth');
    await check(page, 'el-phone-6-result-soon');

    // Back to the warning signs: a "yes" to any of them shows its result at once, in Greek too.
    await page.getByRole('button', { name: 'Ξεκινήστε από την αρχή' }).click();
    await page.getByLabel(/Ηλικία σε έτη/).fill('58');
    await page.getByRole('radio', { name: 'Άνδρας' }).check();
    await page.getByRole('button', { name: 'Επόμενο' }).click();
    await page.getByRole('combobox', { name: /Κύριο σύμπτωμα/ }).fill('πονος στο στηθος');
    await page.getByRole('option', { name: 'Πόνος στο στήθος' }).click();
    await page.getByRole('button', { name: 'Επόμενο' }).click();
    await page.getByRole('radio', { name: 'Λιγότερο από 24 ώρες' }).check();
    await page.getByRole('button', { name: 'Επόμενο' }).click();
    await page.getByRole('radio', { name: /^Ήπιο/ }).check();
    await page.getByRole('button', { name: 'Επόμενο' }).click();
    await expect(page.getByRole('radiogroup')).toHaveCount(1);
    await page.getByRole('radio', { name: 'Ναι' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Καλέστε τώρα το 911' })).toBeFocused();
    await expect(page.getByRole('link', { name: 'Καλέστε τώρα το 911' })).toHaveAttribute('href', 'tel:911');
    await check(page, 'el-phone-7-result-emergency');

    // The original's third address opens the same check.
    await page.goto('/healthbook/isabel-symptom-checker');
    await expect(page.getByRole('heading', { level: 1, name: 'Ελέγξτε τα συμπτώματά σας' })).toBeVisible();
    // And in Greek on a desktop.
    await page.setViewportSize({ width: 1280, height: 900 });
    await check(page, 'el-desktop-1-who');
  });
});
