// Every page reachable today, signed out and signed in, on a desktop and a phone, in English and
// Greek: no serious or critical axe violation on any, no text cut or spilling out of its box, and
// no English left on a Greek page (e2e/screen-flaws.ts). With E2E_SHOTS_DIR set, each page scanned
// is also kept as a screenshot there (<language>-<viewport>-<page>.png).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, api, apiLogin, invite, mailLink, newPerson, patientWithEmailFactor, registeredPatient, scan, uniqueEmail } from './accounts';
import { waitForMail } from './mailbox';
import { openInApp } from './fixtures';
import { expectNoScreenFlaws } from './screen-flaws';

const VIEWPORTS = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const LANGUAGES = { en: 'en-US', el: 'el-GR' } as const;
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;
const SUPERADMIN = 'superadmin@healthbook.example';

/** Names of the people this run made up: they appear inside translated sentences ("X invites you"). */
const names: string[] = [];
const made = <T extends { first_name: string; last_name: string }>(person: T): T => {
  names.push(person.first_name, person.last_name);
  return person;
};

/** Another patient invites this address into their care network (read-only), through the API. */
async function careInvitation(email: string) {
  const inviter = made(await registeredPatient('a11y-inviter'));
  const token = await apiLogin(inviter.email, inviter.password);
  const invited = await api('/api/v1/care-network/', { token, body: { name: 'Someone dear', email, access: 'read-only' } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
}

/** The pages anyone may open, with a name for their screenshot; one-time links with a token that is not one. */
const SIGNED_OUT_PAGES = [
  ['/healthbook/login', 'login'],
  ['/healthbook/404', 'not-found'],
  ['/healthbook/about', 'about'],
  ['/healthbook/privacy', 'privacy'],
  ['/healthbook/terms', 'terms'],
  ['/healthbook/forgotpassword', 'forgot-password'],
  ['/healthbook/password/reset', 'reset-password-invalid'],
  ['/healthbook/password/reset/MTI/not-a-token', 'reset-password'],
  ['/healthbook/code-retrieval', 'code-retrieval'],
  ['/healthbook/email/confirm/MTI/not-a-token', 'email-confirm-invalid'],
  ['/healthbook/email/change/MTI/not-a-token', 'email-change-invalid'],
] as const;

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  for (const [language, locale] of Object.entries(LANGUAGES)) {
    test.describe(`${viewportName}, ${language}`, () => {
      // The browser's language picks the app's (no choice stored yet).
      test.use({ viewport, locale });

      /** Waits for the page (its h1, in the language of this run), then scans it and keeps a screenshot when asked. */
      async function check(page: Page, name: string, options: { wcag22?: boolean } = {}) {
        await expect(page.locator('h1').first()).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await scan(page, options);
        await expectNoScreenFlaws(page, language, `${language}-${viewportName}-${name}`, names);
        if (SHOTS_DIR) {
          mkdirSync(SHOTS_DIR, { recursive: true });
          await page.screenshot({ path: path.join(SHOTS_DIR, `${language}-${viewportName}-${name}.png`), fullPage: true });
        }
      }

      /** Opens the page as the app's links do (the first page of a test is loaded), then checks it. */
      async function visit(page: Page, to: string, name: string) {
        await openInApp(page, to);
        await check(page, name);
      }

      /** The sign-in form, whatever the language (its fields and its submit button), and the page it leads to. */
      async function signIn(page: Page, email: string, password: string, leadsTo: 'verify' | 'dashboard' | 'addUser/home') {
        await page.goto('/healthbook/login');
        await page.locator('input[type=email]').fill(email);
        await page.locator('input[autocomplete=current-password]').fill(password);
        await page.locator('form button[type=submit]').click();
        await expect(page).toHaveURL(new RegExp(`/healthbook/${leadsTo}$`));
      }

      test('signed-out pages', async ({ page }) => {
        test.setTimeout(180_000);
        const person = made(newPerson('a11y'));
        const code = await invite(person);

        for (const [to, name] of SIGNED_OUT_PAGES) await visit(page, to, name);

        // Sign-up with a real invitation: its access code leads there.
        await visit(page, '/healthbook/access-code', 'access-code');
        await page.locator('input[autocomplete=one-time-code]').fill(code);
        await page.locator('form button[type=submit]').click();
        await expect(page).toHaveURL(/\/healthbook\/signup$/);
        await check(page, 'signup');

        // A care-network invitation's page: without its token, and for an address without an account (the details to join).
        await visit(page, '/healthbook/caring-person-info', 'caring-person-info-no-token');
        const newcomer = uniqueEmail('a11y-newcomer');
        await careInvitation(newcomer);
        await page.goto(mailLink(await waitForMail(newcomer, /care network/)));
        await expect(page.locator('main form input').first()).toBeVisible();
        await check(page, 'caring-person-info-join');
      });

      test('the second sign-in step and the administrators\' pages', async ({ page }) => {
        test.setTimeout(180_000);
        const user = made(await patientWithEmailFactor('a11y-mfa'));
        await signIn(page, user.email, user.password, 'verify');
        await check(page, 'verify');

        await page.context().clearCookies();
        await page.evaluate(() => localStorage.removeItem('session'));
        await signIn(page, ADMIN, DEMO_PASSWORD, 'addUser/home');
        await visit(page, '/healthbook/addUser/invite', 'invite-patient');
        await visit(page, '/healthbook/admin/features', 'feature-settings');
        await visit(page, '/healthbook/admin/record-sources', 'record-sources');

        await page.context().clearCookies();
        await page.evaluate(() => localStorage.removeItem('session'));
        await signIn(page, SUPERADMIN, DEMO_PASSWORD, 'addUser/home');
        await visit(page, '/healthbook/operations', 'operations');
      });

      test('the calendar with events: the list, month (with "+ more"), week and day, WCAG 2.2 target sizes included', async ({ page }) => {
        test.setTimeout(180_000);
        const user = made(await registeredPatient('a11y-calendar'));
        const token = await apiLogin(user.email, user.password);
        // Today in the browser's zone: five events at hourly starts (one more than a month's cell shows) and one all day.
        const today = await page.evaluate(() => {
          const d = new Date();
          return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
        });
        const at = (hour: number) => new Date(`${today}T${String(hour).padStart(2, '0')}:00:00`).toISOString();
        for (const [i, type] of (['Appointment', 'Medicine', 'Exam', 'Reminder', 'Appointment'] as const).entries()) {
          const made = await api('/api/v1/calendar/events/', { token, body: { title: `Event ${i + 1}`, type, start_time: at(9 + i), end_time: at(10 + i) } });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
        }
        const allDay = await api('/api/v1/calendar/events/', { token, body: { title: 'All day', type: 'Medicine', start_time: at(0), end_time: at(23), all_day: true } });
        expect(allDay.status, JSON.stringify(allDay.body)).toBe(201);
        await signIn(page, user.email, user.password, 'dashboard');

        for (const view of ['list', 'month', 'week', 'day'] as const) {
          await page.goto(`/healthbook/calendar?view=${view}&date=${today}`);
          await expect(page.locator('.fc-event').first()).toBeVisible({ timeout: 30_000 });
          if (view === 'month') await expect(page.locator('.fc-daygrid-more-link')).toBeVisible();
          await check(page, `calendar-${view}`, { wcag22: true });
        }
      });

      test('signed-in pages', async ({ page }) => {
        // About 35 pages: minutes on a busy machine.
        test.setTimeout(360_000);
        const user = made(await registeredPatient('a11y-in'));
        await signIn(page, user.email, user.password, 'dashboard');
        await check(page, 'dashboard');

        for (const [tabId, name] of ['personal', 'password', 'preferences', 'security'].entries()) {
          await visit(page, `/healthbook/settings/profile${tabId ? `?tabId=${tabId}` : ''}`, `profile-${name}`);
          await expect(page.getByRole('tabpanel').locator('h2')).toBeVisible();
        }
        // The e-mail change dialog (Personal info).
        await visit(page, '/healthbook/settings/profile', 'profile-personal');
        await page.locator('dd button').click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await check(page, 'email-change-dialog');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();

        await visit(page, '/healthbook/2fa/register', 'mfa-register');
        // "Confirm it's you" before Register.
        await page.locator('form button[type=submit]').click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await check(page, 'confirm-identity-dialog');
        await page.keyboard.press('Escape');

        await visit(page, '/healthbook/register/success', 'mfa-success');
        await visit(page, '/healthbook/healthhelp', 'help');
        await visit(page, '/healthbook/healthhelp/articles/not-for-emergencies', 'help-article');
        await visit(page, '/healthbook/symptom-checker', 'symptom-checker');
        // Surveys: the hub, a survey, the assessments (results: surveys.spec.ts scans each kind).
        await visit(page, '/healthbook/mental-health-survey', 'surveys');
        await visit(page, '/healthbook/mental-health-survey/phq-9', 'survey-phq-9');
        await visit(page, '/healthbook/health-record/assessments', 'assessments');
        await visit(page, '/healthbook/profile-questionnaire', 'profile-questionnaire');
        await visit(page, '/healthbook/profile-questionnaire/thank-you', 'profile-questionnaire-thank-you');
        await visit(page, '/healthbook/journal', 'journal');
        // Connected providers: the organisation's sources (none, or those another journey added) and none connected.
        await visit(page, '/healthbook/health-record/connections', 'source-connections');
        await visit(page, '/healthbook/connection-hub', 'connection-hub');
        // The "Link an account" dialog.
        await page.locator('main button.MuiButton-contained').first().click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await check(page, 'link-account-dialog');
        // Family members: the page (none yet) and the add dialog.
        await visit(page, '/healthbook/family-members', 'family-members');
        await page.getByRole('main').getByRole('button').first().click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await check(page, 'family-member-dialog');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
        // Live Help: the peer-coaching page (its form), the past chats (none yet) and the end screen.
        await visit(page, '/healthbook/peer-coaching', 'peer-coaching');
        await expect(page.locator('input[type=radio]').first()).toBeAttached();
        await check(page, 'peer-coaching');
        await visit(page, '/healthbook/peer-coaching/history', 'chat-history');
        await visit(page, '/healthbook/chat/end-secure-chat-screen', 'chat-ended');
        // The phone's menu drawer, open.
        if (viewport.width < 900) {
          await page.locator('header button').first().click();
          await expect(page.getByRole('navigation')).toBeVisible();
          await check(page, 'menu');
          // Closed again (the drawer's state is kept across pages).
          await page.keyboard.press('Escape');
          await expect(page.getByRole('dialog')).toBeHidden();
        }

        // The care network: the page; an invitation from another patient, accepted; their record open with the banner.
        await visit(page, '/healthbook/careclub', 'careclub');
        await careInvitation(user.email);
        await page.goto(mailLink(await waitForMail(user.email, /care network/)));
        const accept = page.getByRole('main').getByRole('button').first();
        await expect(accept).toBeVisible();
        await check(page, 'caring-person-info-signed-in');
        await accept.click();
        await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
        await expect(page.locator('section[aria-label] [role=status]')).toBeVisible();
        await check(page, 'dashboard-viewing-other');
        await visit(page, '/healthbook/health-record/condition', 'records-viewing-other');
      });
    });
  }
}
