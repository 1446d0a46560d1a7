// Helpers of the account-and-access journeys (accounts-*.spec.ts): people of their own, made
// through the real API and mail, signing in and out through the pages, and authenticator codes.
import { expect, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { expectAccessible } from './fixtures';
import { firstLink, sixDigitCode, waitForMail, type Mail } from './mailbox';

export const BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 18765)}`;
export const DEMO_PASSWORD = 'Healthbook#2026';
export const ADMIN = 'admin@healthbook.example';

/** Mail subjects (packages/shared/src/locales/en/emails.json) of the HealthBook+ organisation. */
export const SUBJECTS = {
  invitation: /^You are invited to HealthBook\+$/,
  codeRetrieval: /^Your HealthBook\+ access code$/,
  confirm: /^Confirm your e-mail address for HealthBook\+$/,
  reset: /^Reset your HealthBook\+ password$/,
  mfaCode: /^Your HealthBook\+ verification code: \d{6}$/,
};

let counter = 0;
/** Something no other journey, worker or earlier run uses: digits of the time, the process and a counter. */
const stamp = () => `${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;

/** A fresh address for a person of this run. */
export const uniqueEmail = (prefix: string) => `${prefix}-${stamp()}@e2e.example`;

/** A fresh name of letters only (code retrieval accepts a-z, A-Z): the stamp's digits become letters. */
export const uniqueName = (prefix: string) =>
  prefix + stamp().replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!).replace(/^./, (c) => c.toUpperCase());

interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** A call to the journeys' server, the way another client would make it. */
export async function api<T = Record<string, unknown>>(path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<ApiAnswer<T>> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'accept-language': 'en',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function apiLogin(email: string, password: string, org: number | string = 'healthbook'): Promise<string> {
  const answer = await api<{ access: string }>('/api/v1/login/', { body: { email, password, org } });
  expect(answer.status, `sign-in of ${email}`).toBe(200);
  return answer.body.access;
}

export interface Person {
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD */
  dob: string;
  gender: 'male' | 'female' | 'other' | 'undisclosed';
  email: string;
}

export const newPerson = (prefix: string, extra: Partial<Person> = {}): Person => ({
  first_name: uniqueName('Test'),
  last_name: uniqueName(prefix.replace(/[^a-zA-Z]/g, '') || 'Person'),
  dob: '1988-06-14',
  gender: 'female',
  email: uniqueEmail(prefix),
  ...extra,
});

/** The organisation admin invites the person (POST /api/v1/admin/invitations/); answers the access code. */
export async function invite(person: Person): Promise<string> {
  const token = await apiLogin(ADMIN, DEMO_PASSWORD);
  const answer = await api<{ signup_code?: string; status: string }>('/api/v1/admin/invitations/', { body: person, token });
  expect(answer.status, `invitation of ${person.email}`).toBe(201);
  expect(answer.body.status).toBe('pending');
  return answer.body.signup_code!;
}

/** The first link of a mail, without a full stop that ends its sentence. */
export const mailLink = (mail: Mail) => firstLink(mail).replace(/[.,;:]+$/, '');

/**
 * The axe scan of the page as the user sees it once it has settled: dialogs fade in, and a
 * half-transparent button would be measured at a contrast it never keeps.
 */
export async function scan(page: Page, options: { wcag22?: boolean } = {}) {
  // A keyboard-focused button pulsates for as long as it has the focus: endless animations do not count.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  await expectAccessible(page, options);
}

/** uid and token of an e-mailed link .../{uid}/{token}. */
export function linkParams(link: string): { uid: string; token: string } {
  const parts = new URL(link).pathname.split('/');
  return { uid: decodeURIComponent(parts.at(-2)!), token: decodeURIComponent(parts.at(-1)!) };
}

/**
 * A patient of HealthBook+ with a confirmed account: invited, registered and confirmed through
 * the API and the real mail (the sign-up journey does the same through the pages).
 */
export async function registeredPatient(prefix: string, password = 'Start#Pass1'): Promise<Person & { password: string }> {
  const person = newPerson(prefix);
  const code = await invite(person);
  const registered = await api('/api/v1/users/register/', {
    body: { email: person.email, password, signup_code: code, is_terms_privacy_policy_accepted: true, org_id: 1 },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const mail = await waitForMail(person.email, SUBJECTS.confirm);
  const confirmed = await api('/api/v1/users/confirm_email/', { body: linkParams(mailLink(mail)) });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { ...person, password };
}

/** A registered patient whose second factor is e-mailed codes, enrolled through the API as the 2FA pages do it. */
export async function patientWithEmailFactor(prefix: string): Promise<Person & { password: string }> {
  const user = await registeredPatient(prefix);
  const token = await apiLogin(user.email, user.password);
  const device = await api('/api/v1/mfa/register/hotp/', { body: { device_type: 'email', password: user.password }, token });
  expect(device.status, JSON.stringify(device.body)).toBe(201);
  const code = sixDigitCode(await waitForMail(user.email, SUBJECTS.mfaCode));
  const verified = await api('/api/v1/verify/', { body: { code }, token });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return user;
}

/** The password field of the sign-in and sign-up pages (not its Show password button). */
export const passwordField = (page: Page) => page.getByLabel(/^Password/);

/** Signs in on the organisation's sign-in page (no waiting for where it leads). */
export async function signIn(page: Page, email: string, password: string, clientId = 'healthbook') {
  if (!page.url().endsWith(`/${clientId}/login`)) await page.goto(`/${clientId}/login`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Signs out through the account menu of the signed-in layout. */
export async function signOut(page: Page, clientId = 'healthbook') {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(new RegExp(`/${clientId}/login$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expectSignedOutStorage(page);
}

/** The tokens are gone from local storage (and nothing is left in session storage). */
export async function expectSignedOutStorage(page: Page) {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('session'))).toBeNull();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
}

/**
 * Where a sign-in lands: a patient on the dashboard, staff on their console (a provider's
 * appointments, a coach's chat console, an administrator's people).
 */
export const landing = (email: string, clientId = 'healthbook'): RegExp => {
  const home = /^(provider|cardiology)@/.test(email) ? 'provider/appointments' : /^coach@/.test(email) ? 'provider/chat' : /^(admin|superadmin)@/.test(email) ? 'addUser/home' : 'dashboard';
  return new RegExp(`/${clientId}/${home}$`);
};

export async function expectDashboard(page: Page, firstName: string, clientId = 'healthbook') {
  await expect(page).toHaveURL(new RegExp(`/${clientId}/dashboard$`));
  await expect(page.getByRole('heading', { level: 1, name: `Hello, ${firstName}` })).toBeVisible();
}

/**
 * The "Confirm it's you" dialog of a protected change (adding or removing a second factor,
 * changing the e-mail address): the password, then the dialog's own button. Answers the dialog.
 */
export async function confirmItsYou(page: Page, password: string, button: string, dialogName: string | RegExp = "Confirm it's you") {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Password/).fill(password);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  return dialog;
}

/** Types a code into the six boxes, one key per digit, starting in the first. */
export async function typeCode(page: Page, code: string) {
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code, { delay: 20 });
}

/** The six boxes as they are. */
export const codeBoxes = (page: Page) =>
  Promise.all(Array.from({ length: 6 }, (_, i) => page.getByRole('textbox', { name: `Digit ${i + 1} of 6` }).inputValue()));

/** Pastes text into a box, as the browser does on Ctrl+V (a paste event carrying the clipboard). */
export async function pasteCode(page: Page, code: string, box = 1) {
  await page.getByRole('textbox', { name: `Digit ${box} of 6` }).evaluate((input, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    input.focus();
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, code);
}

/** An authenticator app for the otpauth:// provisioning link: 30 s, 6 digits (RFC 6238). */
export function authenticator(provisioningUrl: string) {
  const totp = OTPAuth.URI.parse(provisioningUrl);
  if (!(totp instanceof OTPAuth.TOTP)) throw new Error(`not a TOTP link: ${provisioningUrl}`);
  let lastStep = -1;
  return {
    totp,
    /**
     * The code of the current time step, or of the step after the last one used: the server
     * refuses a step used before and accepts one step of drift, so no waiting is needed.
     */
    next(): string {
      const step = Math.max(Math.floor(Date.now() / 1000 / totp.period), lastStep + 1);
      lastStep = step;
      return totp.generate({ timestamp: step * totp.period * 1000 });
    },
    /** The code of the last step used (refused when presented again). */
    last(): string {
      return totp.generate({ timestamp: lastStep * totp.period * 1000 });
    },
  };
}
