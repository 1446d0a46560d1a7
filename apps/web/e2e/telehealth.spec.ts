// Telehealth through the pages: a provider publishes availability (with the editor's rules); a
// patient searches, opens the provider, picks a free time (one taken meanwhile answers 409),
// gives a reason and confirms; the provider sees the booking and cancels it. Both sides get
// e-mails with an .ics; every new page passes the axe scan.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, api, apiLogin, registeredPatient, landing, scan, signIn } from './accounts';
import { dayAhead } from './fixtures';
import { attachments, waitForMail, type Mail } from './mailbox';

test.describe.configure({ timeout: 180_000 });

/** The demo cardiologist: no other journey uses her schedule. */
const PROVIDER = { email: 'cardiology@healthbook.example', name: 'Eleni Kosta' };
const TZ = 'Europe/Athens';

async function signedInPage(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US', timezoneId: TZ });
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page).toHaveURL(landing(email));
  return page;
}

function expectIcs(mail: Mail) {
  const ics = attachments(mail).find((a) => a.filename.endsWith('.ics'));
  expect(ics, `an .ics attached to "${mail.subject}"`).toBeDefined();
  expect(ics!.contentType).toBe('text/calendar');
  expect(ics!.text).toContain('BEGIN:VCALENDAR');
  return ics!.text;
}

test('a provider publishes hours, a patient books one, the provider cancels it; both are told by e-mail', async ({ browser }) => {
  const day = dayAhead(4);
  const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

  // --- The provider publishes availability: an exception on `day`, 10:00-12:00, hour-long slots.
  const provider = await signedInPage(browser, PROVIDER.email, DEMO_PASSWORD);
  await menu(provider).getByRole('link', { name: 'My availability' }).click();
  await expect(provider.getByRole('heading', { level: 1, name: 'My availability' })).toBeVisible();
  await scan(provider);
  await provider.getByRole('combobox', { name: 'Appointment length' }).click();
  await provider.getByRole('option', { name: '60 minutes' }).click();

  // The editor's rules: overlapping hours are refused before anything is sent.
  const tuesday = provider.getByRole('group', { name: 'Tuesday' });
  await tuesday.getByRole('button', { name: 'Add hours on Tuesday' }).click();
  await tuesday.getByLabel('From').last().fill('15:00');
  await provider.getByRole('button', { name: 'Save and publish' }).click();
  await expect(tuesday.getByText('These hours overlap other hours of the day.')).toBeVisible();
  await tuesday.getByRole('button', { name: 'Remove these hours on Tuesday' }).last().click();
  await expect(tuesday.getByText('These hours overlap other hours of the day.')).toBeHidden();

  await provider.getByRole('button', { name: 'Add an exception' }).click();
  const exception = provider.getByRole('group', { name: 'Exception 1' });
  await exception.getByLabel('Date').fill(day.iso);
  await exception.getByRole('switch', { name: 'Day off' }).uncheck();
  await exception.getByLabel('From').fill('10:00');
  await exception.getByLabel('To').fill('12:00');
  await provider.getByRole('button', { name: 'Save and publish' }).click();
  await expect(provider.getByText(/^Published: \d+ free times are open over the next 56 days\.$/)).toBeVisible();
  await scan(provider);

  await menu(provider).getByRole('link', { name: 'My provider profile' }).click();
  await expect(provider.getByRole('heading', { level: 1, name: 'My provider profile' })).toBeVisible();
  // The speciality in both languages (patients reading Greek see the Greek one).
  await expect(provider.getByLabel('Speciality (in English)')).toHaveValue('Cardiology');
  await expect(provider.getByLabel('Speciality (in Greek)')).toHaveValue('Καρδιολογία');
  await scan(provider);

  // --- A patient searches, opens the provider and picks 10:00, which someone else takes meanwhile.
  const user = await registeredPatient('telehealth');
  const patient = await signedInPage(browser, user.email, user.password);
  await menu(patient).getByRole('link', { name: 'Teleconsultation' }).click();
  await expect(patient).toHaveURL(/\/healthbook\/health-help\/telehealth$/);
  await expect(patient.getByRole('heading', { level: 1, name: 'Telehealth' })).toBeVisible();
  await expect(patient.getByText('You have no appointments booked.')).toBeVisible();
  await scan(patient);
  await patient.getByRole('combobox', { name: 'Speciality' }).click();
  await patient.getByRole('option', { name: 'Cardiology' }).click();
  await patient.getByRole('group', { name: 'Day' }).getByRole('spinbutton', { name: 'Month' }).click();
  await patient.keyboard.type(day.typed);
  await patient.getByRole('button', { name: 'Search' }).click();

  await expect(patient).toHaveURL(new RegExp(`/healthbook/telehealth/provider-list\\?selectedProvider=Cardiology&selectedDate=${day.iso}$`));
  await expect(patient.getByText(`1 provider with free times on ${day.long}`)).toBeVisible();
  await expect(patient.getByRole('heading', { level: 2, name: PROVIDER.name })).toBeVisible();
  await scan(patient);
  await patient.getByRole('link', { name: `See free times of ${PROVIDER.name}` }).click();

  await expect(patient).toHaveURL(/\/healthbook\/provider-details\?/);
  await expect(patient.getByRole('heading', { level: 1, name: PROVIDER.name })).toBeVisible();
  await expect(patient.getByText(`Free times on ${day.long}`)).toBeVisible();
  await expect(patient.getByRole('link', { name: new RegExp(`^1[01]:00 AM, ${day.long}$`) })).toHaveCount(2);
  await scan(patient);
  await patient.getByRole('link', { name: `10:00 AM, ${day.long}` }).click();

  await expect(patient.getByRole('heading', { level: 1, name: 'Confirm your appointment' })).toBeVisible();
  await expect(patient.getByText('10:00 AM – 11:00 AM (Europe/Athens)')).toBeVisible();
  await patient.getByRole('button', { name: 'Confirm' }).click();
  await expect(patient.getByText('Please give a reason for the visit.')).toBeVisible();
  await scan(patient);

  const other = await registeredPatient('telehealth-other');
  const otherToken = await apiLogin(other.email, other.password);
  const providerId = Number(new URL(patient.url()).searchParams.get('selectedProviderDetailsId'));
  const slot = Number(new URL(patient.url()).searchParams.get('slot'));
  const taken = await api('/api/v1/provider/book_appointment/', { token: otherToken, body: { provider_id: providerId, availability_det_id: slot, reason_for_visit: 'First come' } });
  expect(taken.status, JSON.stringify(taken.body)).toBe(201);

  await patient.getByLabel('Reason for visit').fill('Palpitations after climbing stairs.');
  await patient.getByRole('button', { name: 'Confirm' }).click();
  await expect(patient.getByText(/Please choose another time\./)).toBeVisible();
  await patient.getByRole('link', { name: 'Choose another time' }).last().click();
  await expect(patient.getByRole('link', { name: new RegExp(`^1[01]:00 AM, ${day.long}$`) })).toHaveCount(1);
  await patient.getByRole('link', { name: `11:00 AM, ${day.long}` }).click();
  await patient.getByLabel('Reason for visit').fill('Palpitations after climbing stairs.');
  await patient.getByRole('button', { name: 'Confirm' }).click();

  await expect(patient).toHaveURL(/\/healthbook\/appointment-scheduled\?eventId=\d+$/);
  await expect(patient.getByRole('heading', { level: 1, name: 'Your appointment is booked' })).toBeVisible();
  await expect(patient.getByText(day.long)).toBeVisible();
  await expect(patient.getByText('11:00 AM – 12:00 PM (Europe/Athens)')).toBeVisible();
  await expect(patient.getByText('Eleni Kosta · Cardiology')).toBeVisible();
  const eventId = new URL(patient.url()).searchParams.get('eventId');
  await expect(patient.getByRole('link', { name: 'See it in your calendar' })).toHaveAttribute('href', `/healthbook/event-details?eventId=${eventId}`);
  await scan(patient);
  // Reloaded, the page reads the appointment of its slot.
  await patient.reload();
  await expect(patient.getByText('Palpitations after climbing stairs.')).toBeVisible();

  const patientName = `${user.first_name} ${user.last_name}`;
  expect(expectIcs(await waitForMail(user.email, /^Your appointment with Eleni Kosta is booked$/))).toContain('BEGIN:VEVENT');
  expectIcs(await waitForMail(PROVIDER.email, new RegExp(`^New booking: ${patientName}, `)));

  // --- The provider sees the booking and cancels it, with notes.
  await menu(provider).getByRole('link', { name: 'My appointments' }).click();
  await expect(provider.getByRole('heading', { level: 1, name: 'My appointments' })).toBeVisible();
  // The provider landed on this page at sign-in: coming back to it asks the server again.
  const row = provider.getByRole('row').filter({ hasText: patientName });
  await expect(row).toContainText('Palpitations after climbing stairs.');
  await expect(row).toContainText('Booked');
  await scan(provider);
  await row.getByRole('button', { name: new RegExp(`^Cancel the appointment with ${patientName} on `) }).click();
  const dialog = provider.getByRole('dialog', { name: 'Cancel the appointment' });
  await expect(dialog.getByText('Are you sure you want to cancel this meeting?')).toBeVisible();
  await dialog.getByLabel('Notes for the patient').fill('I am away that day, sorry.');
  await scan(provider);
  await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(provider.getByText('The appointment was cancelled. The patient has been told.')).toBeVisible();
  await expect(row).toContainText('Cancelled');
  await expect(row).toContainText('Cancelled by you — I am away that day, sorry.');
  await expect(row.getByRole('button', { name: /^Cancel the appointment/ })).toHaveCount(0);

  const cancelled = await waitForMail(user.email, /^Eleni Kosta cancelled your appointment$/);
  expect(cancelled.text).toContain('I am away that day, sorry.');
  expect(expectIcs(cancelled)).toContain('CANCEL');
  expectIcs(await waitForMail(PROVIDER.email, new RegExp(`^Cancelled: ${patientName}, `)));

  // The patient's telehealth page has no appointment left.
  await patient.goto('/healthbook/health-help/telehealth');
  await expect(patient.getByText('You have no appointments booked.')).toBeVisible();
});

test('the provider console is for providers: a patient goes to the dashboard, and has no console in the menu', async ({ browser }) => {
  const user = await registeredPatient('telehealth-guard');
  const page = await signedInPage(browser, user.email, user.password);
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My availability' })).toHaveCount(0);
  await page.goto('/healthbook/provider/availability');
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
});
