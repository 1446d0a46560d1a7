// A real installation, from nothing to a first booking (issue 25 §1-3): the product started as an
// operator starts it, with NODE_ENV=production (no demo data) on a new, empty DATA_DIR and its own
// port, its mail going to an SMTP server started here. Then, without SQL: the operator commands
// the first-start line names (create-organisation, create-admin) while it runs → the e-mailed
// set-password link → the super admin creates a clinic with its own client id, colour and logo →
// invites its organisation admin and a provider → the provider publishes hours → the admin invites
// a patient, who signs up on the clinic's address, confirms the e-mail and books a telehealth
// appointment with the provider → the provider sees it. The clinic's pages wear its colour; axe on
// its pages, in English and Greek.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startSmtpSink, type SmtpSink } from '../../server/test/smtp-sink';
import { expectDashboard, passwordField, scan } from './accounts';
import { dayAhead, primaryButtonColor } from './fixtures';
import { png } from '../../server/test/png';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Its own port: E2E_PORT + 3 (the journeys' server has E2E_PORT, its mail E2E_PORT + 2). */
const PORT = Number(process.env.E2E_PORT ?? 18765) + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const TZ = 'Europe/Athens';
const CLINIC = { clientId: 'riverside', name: 'Riverside Clinic', short: 'Riverside', colour: '#1b5e20', rgb: 'rgb(27, 94, 32)' };
const HQ = { clientId: 'hq', name: 'Operator HQ' };

let dataDir = '';
let sink: SmtpSink;
let server: ChildProcess | undefined;
let serverLog = '';

/**
 * `npm run cli -- <args>` as the operator types it beside the running server (same DATA_DIR).
 * Not spawnSync: the mail server the command's mail goes to runs in this process.
 */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/cli.mjs'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: dataDir },
      timeout: 60_000,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The first link of the newest mail to that address whose subject matches (waiting for it). */
async function linkIn(to: string, subject: RegExp): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const mail = sink.messages.filter((m) => m.envelope.to.some((r) => r.toLowerCase() === to.toLowerCase()) && subject.test(m.subject)).at(-1);
        link = /(https?:\/\/[^\s<>"]+)/.exec(mail?.text ?? '')?.[1]?.replace(/[.,;:]+$/, '') ?? '';
        return link;
      },
      { timeout: 15_000, message: `mail to ${to} matching ${subject}` },
    )
    .not.toBe('');
  return link;
}

const textOf = (to: string, subject: RegExp) => sink.messages.find((m) => m.envelope.to.includes(to) && subject.test(m.subject))?.text ?? '';

async function newPage(browser: Browser, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, locale, timezoneId: TZ, viewport: { width: 1366, height: 900 } });
  return context.newPage();
}

/**
 * A set-password link followed: the password chosen, then signed in on the organisation's page,
 * landing on the staff member's console (`lands`); then their dashboard greets them.
 */
async function setPasswordAndSignIn(page: Page, link: string, clientId: string, email: string, password: string, firstName: string, lands: string) {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  await passwordField(page).fill(password);
  await page.getByLabel(/^Confirm password/).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page).toHaveURL(new RegExp(`/${clientId}/login$`));
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`/${clientId}/${lands}$`));
  await page.goto(`/${clientId}/dashboard`);
  await expectDashboard(page, firstName, clientId);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'hb-production-'));
  sink = await startSmtpSink();
  // The built server, as scripts/start.mjs runs it (scripts/test-e2e.mjs has built it).
  server = spawn(process.execPath, ['--enable-source-maps', path.join(ROOT, 'apps/server/dist/server.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SMTP_URL: sink.url,
      PUBLIC_URL: BASE,
      MAIL_FROM: 'Riverside <no-reply@riverside.example>',
    },
  });
  server.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  await expect
    .poll(async () => (await fetch(`${BASE}/api/health/ready`).catch(() => undefined))?.status ?? 0, { timeout: 60_000, intervals: [250] })
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await sink?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('from an empty production installation to a branded clinic where a patient books a provider', async ({ browser }) => {
  test.setTimeout(240_000);

  // --- The operator: no demo data; the first start says what to run next, and it works while the product runs.
  await expect.poll(() => serverLog, { timeout: 10_000 }).toContain('This installation has no organisation and no administrator yet.');
  expect((await (await fetch(`${BASE}/api/v1/organization_detail_by_name/healthbook`)).json()) as object).toMatchObject({ org: 'Organization not found' });
  const org = await cli(['create-organisation', '--client-id', HQ.clientId, '--name', HQ.name]);
  expect(org.err).toBe('');
  expect(org.code).toBe(0);
  const operatorEmail = 'operator@riverside.example';
  const admin = await cli(['create-admin', '--email', operatorEmail, '--first-name', 'Olga', '--last-name', 'Operator']);
  expect(admin.err).toBe('');
  expect(admin.code).toBe(0);
  expect(admin.out).toContain(`was e-mailed to ${operatorEmail}`);

  // --- The super admin: the e-mailed link, a password, signed in.
  const operator = await newPage(browser);
  await setPasswordAndSignIn(operator, await linkIn(operatorEmail, /choose your password$/), HQ.clientId, operatorEmail, 'Operator#First1', 'Olga', 'addUser/home');

  // --- A clinic with its own client id, colour and logo.
  await operator.goto(`/${HQ.clientId}/admin/organizations`);
  await expect(operator.getByRole('heading', { level: 1, name: 'Organisations' })).toBeVisible();
  await operator.getByRole('link', { name: 'New organisation' }).click();
  await operator.getByRole('textbox', { name: 'Name', exact: true }).fill(CLINIC.name);
  await operator.getByRole('textbox', { name: 'Short name', exact: true }).fill(CLINIC.short);
  await operator.getByRole('textbox', { name: 'Client id', exact: true }).fill(CLINIC.clientId);
  await operator.getByRole('textbox', { name: 'Primary colour', exact: true }).fill(CLINIC.colour);
  await operator.getByRole('button', { name: 'Create the organisation' }).click();
  await expect(operator).toHaveURL(new RegExp(`/${HQ.clientId}/admin/organizations/\\d+$`));
  await operator.locator('input[type="file"]').first().setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(64, 64, { rgb: [27, 94, 32] }) });
  await expect(operator.getByRole('img', { name: `Logo of ${CLINIC.name}` })).toBeVisible();

  // --- Its organisation admin and a provider, invited from the administrator's home.
  await operator.goto(`/${HQ.clientId}/addUser/home`);
  await expect(operator.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
  await operator.getByRole('combobox', { name: 'Organisation' }).click();
  await operator.getByRole('option', { name: CLINIC.name }).click();
  await expect(operator.getByRole('table', { name: `People of ${CLINIC.name}` })).toBeVisible();
  const invite = async (role: 'Organisation admin' | 'Provider', first: string, last: string, email: string) => {
    await operator.getByRole('button', { name: 'Invite staff' }).click();
    const dialog = operator.getByRole('dialog', { name: 'Invite a staff member' });
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await operator.getByRole('option', { name: role, exact: true }).click();
    await dialog.getByLabel('First name').fill(first);
    await dialog.getByLabel('Last name').fill(last);
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email);
    if (role === 'Provider') {
      await dialog.getByLabel('Speciality').fill('Family medicine');
      await dialog.getByLabel('Credentials').fill('MD');
      await dialog.getByLabel('Languages spoken').fill('English, Greek');
    }
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(operator.getByRole('status').filter({ hasText: `The invitation was sent to ${email}.` })).toBeVisible();
  };
  const adminEmail = 'admin@riverside.example';
  const providerEmail = 'doctor@riverside.example';
  await invite('Organisation admin', 'Anna', 'Admin', adminEmail);
  await invite('Provider', 'Petros', 'Doctor', providerEmail);

  // --- The clinic's sign-in page wears its colour and logo (its own browser).
  const clinicAdmin = await newPage(browser);
  await setPasswordAndSignIn(clinicAdmin, await linkIn(adminEmail, /choose your password$/), CLINIC.clientId, adminEmail, 'Admin#First1', 'Anna', 'addUser/home');
  await expect(clinicAdmin).toHaveTitle(new RegExp(CLINIC.name));

  // --- The provider publishes hours: an exception day, 10:00-12:00, hour-long.
  const day = dayAhead(3);
  const provider = await newPage(browser);
  await provider.goto(`/${CLINIC.clientId}/login`);
  await expect(provider.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect.poll(() => primaryButtonColor(provider, 'Sign In')).toBe(CLINIC.rgb);
  await expect(provider.locator('img[src*="/logo"]').first()).toHaveAttribute('src', new RegExp(`/api/v1/organizations/${CLINIC.clientId}/logo`));
  await scan(provider);
  await setPasswordAndSignIn(provider, await linkIn(providerEmail, /choose your password$/), CLINIC.clientId, providerEmail, 'Doctor#First1', 'Petros', 'provider/appointments');
  const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
  await menu(provider).getByRole('link', { name: 'My availability' }).click();
  await expect(provider.getByRole('heading', { level: 1, name: 'My availability' })).toBeVisible();
  await provider.getByRole('combobox', { name: 'Appointment length' }).click();
  await provider.getByRole('option', { name: '60 minutes' }).click();
  await provider.getByRole('button', { name: 'Add an exception' }).click();
  const exception = provider.getByRole('group', { name: 'Exception 1' });
  await exception.getByLabel('Date').fill(day.iso);
  await exception.getByRole('switch', { name: 'Day off' }).uncheck();
  await exception.getByLabel('From').fill('10:00');
  await exception.getByLabel('To').fill('12:00');
  // The signed-in pages wear the clinic's colour too.
  await expect.poll(() => primaryButtonColor(provider, 'Save and publish')).toBe(CLINIC.rgb);
  await provider.getByRole('button', { name: 'Save and publish' }).click();
  await expect(provider.getByText(/^Published: \d+ free times are open over the next 56 days\.$/)).toBeVisible();

  // --- The admin invites a patient; the patient signs up on the clinic's address.
  const patientEmail = 'maria@patients.example';
  await clinicAdmin.goto(`/${CLINIC.clientId}/addUser/invite`);
  await expect(clinicAdmin.getByRole('heading', { level: 1, name: 'Invite a patient' })).toBeVisible();
  await clinicAdmin.getByLabel('First name').fill('Maria');
  await clinicAdmin.getByLabel('Last name').fill('Patient');
  await clinicAdmin.getByLabel('Date of birth').fill('06/14/1988');
  await clinicAdmin.getByRole('radio', { name: 'Female' }).check();
  await clinicAdmin.getByLabel('E-mail').fill(patientEmail);
  await clinicAdmin.getByRole('button', { name: 'Send invitation' }).click();
  await expect(clinicAdmin.getByRole('status').filter({ hasText: `The invitation was sent to ${patientEmail}.` })).toBeVisible();
  const invitationLink = await linkIn(patientEmail, /^You are invited to /);
  expect(invitationLink).toBe(`${BASE}/${CLINIC.clientId}/access-code`);
  const code = /\b([A-HJ-NP-Z2-9]{10})\b/.exec(textOf(patientEmail, /^You are invited to /))?.[1] ?? '';

  const patient = await newPage(browser);
  await patient.goto(`/${CLINIC.clientId}/register`);
  await expect(patient).toHaveURL(new RegExp(`/${CLINIC.clientId}/access-code$`));
  await expect(patient.getByRole('heading', { level: 1, name: 'Enter your access code' })).toBeVisible();
  await patient.getByLabel('Access code').fill(code);
  await patient.getByRole('button', { name: 'Enter Code' }).click();
  await expect(patient).toHaveURL(new RegExp(`/${CLINIC.clientId}/signup$`));
  await expect(patient.getByLabel(/^E-mail/)).toHaveValue(patientEmail);
  const patientPassword = 'Patient#First1';
  await passwordField(patient).fill(patientPassword);
  await patient.getByLabel(/^Confirm password/).fill(patientPassword);
  await patient.getByRole('checkbox', { name: /I agree to the Terms of Service and the Privacy Policy/ }).check();
  await expect.poll(() => primaryButtonColor(patient, 'Sign Up')).toBe(CLINIC.rgb);
  await patient.getByRole('button', { name: 'Sign Up' }).click();
  await patient.getByRole('dialog', { name: 'Check your email' }).getByRole('button', { name: 'OK' }).click();
  const confirmLink = await linkIn(patientEmail, /^Confirm your e-mail address for /);
  expect(confirmLink).toMatch(new RegExp(`/${CLINIC.clientId}/email/confirm/[^/]+/[^/]+$`));
  await patient.goto(confirmLink);
  await expect(patient.getByRole('heading', { level: 1, name: 'E-mail address confirmed' })).toBeVisible();
  await patient.getByRole('link', { name: 'Sign in' }).click();
  await patient.getByLabel('Email').fill(patientEmail);
  await passwordField(patient).fill(patientPassword);
  await patient.getByRole('button', { name: 'Sign In' }).click();
  await expectDashboard(patient, 'Maria', CLINIC.clientId);

  // --- A telehealth appointment with the provider.
  await menu(patient).getByRole('link', { name: 'Teleconsultation' }).click();
  await expect(patient.getByRole('heading', { level: 1, name: 'Telehealth' })).toBeVisible();
  await scan(patient);
  await patient.getByRole('combobox', { name: 'Speciality' }).click();
  await patient.getByRole('option', { name: 'Family medicine' }).click();
  await patient.getByRole('group', { name: 'Day' }).getByRole('spinbutton', { name: 'Month' }).click();
  await patient.keyboard.type(day.typed);
  await patient.getByRole('button', { name: 'Search' }).click();
  await expect(patient.getByRole('heading', { level: 2, name: 'Petros Doctor' })).toBeVisible();
  await patient.getByRole('link', { name: 'See free times of Petros Doctor' }).click();
  await expect(patient.getByRole('heading', { level: 1, name: 'Petros Doctor' })).toBeVisible();
  await patient.getByRole('link', { name: `10:00 AM, ${day.long}` }).click();
  await expect(patient.getByRole('heading', { level: 1, name: 'Confirm your appointment' })).toBeVisible();
  await patient.getByLabel('Reason for visit').fill('A first check-up.');
  await patient.getByRole('button', { name: 'Confirm' }).click();
  await expect(patient.getByRole('heading', { level: 1, name: 'Your appointment is booked' })).toBeVisible();
  await expect(patient.getByText('Petros Doctor · Family medicine')).toBeVisible();
  await scan(patient);

  // --- The provider sees it.
  await menu(provider).getByRole('link', { name: 'My appointments' }).click();
  await expect(provider.getByRole('heading', { level: 1, name: 'My appointments' })).toBeVisible();
  const row = provider.getByRole('row').filter({ hasText: 'Maria Patient' });
  await expect(row).toContainText('A first check-up.');
  await expect(row).toContainText('Booked');
  await scan(provider);
  await expect.poll(() => textOf(providerEmail, /^New booking: Maria Patient, /)).not.toBe('');

  // --- The clinic's pages in Greek pass axe too, in its colour.
  const greek = await newPage(browser, 'el-GR');
  await greek.goto(`/${CLINIC.clientId}/login`);
  await expect(greek.locator('html')).toHaveAttribute('lang', 'el');
  await expect.poll(() => primaryButtonColor(greek, 'Σύνδεση')).toBe(CLINIC.rgb);
  await scan(greek);
  await greek.goto(`/${CLINIC.clientId}/access-code`);
  await expect(greek.getByRole('heading', { level: 1 })).toBeVisible();
  await scan(greek);

  for (const page of [operator, clinicAdmin, provider, patient, greek]) await page.context().close();
});
