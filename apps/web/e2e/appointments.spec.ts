// A booked appointment on the patient's side: on the dashboard and in the Reminders drawer, its
// details page, cancelled with the specification's question, the confirmation page; both sides
// are told by e-mail with the .ics cancellation, and the provider's console shows it cancelled.
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, api, apiLogin, registeredPatient, landing, scan, signIn } from './accounts';
import { attachments, waitForMail } from './mailbox';

test.describe.configure({ timeout: 150_000 });
test.use({ timezoneId: 'Europe/Athens', locale: 'en-US' });

const PROVIDER = { email: 'provider@healthbook.example', name: 'Nikos Georgiou' };

interface Slot {
  availability_det_id: number;
  start_time: string;
}

test('the patient sees a booking on the dashboard and in the drawer, cancels it with the confirmation, and both sides are told', async ({ page, browser }) => {
  const patient = await registeredPatient('appointment');
  const token = await apiLogin(patient.email, patient.password);

  // A free time of the general practitioner from tomorrow on (his weekdays: within the drawer's 10 days).
  const providers = await api<Array<{ provider_id: number; provider_name: string }>>('/api/v1/provider/list/', { method: 'GET', token });
  const gp = providers.body.find((p) => p.provider_name === PROVIDER.name)!;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const inTen = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
  const free = await api<{ slots: Slot[] }>(`/api/v1/provider/${gp.provider_id}/availability/?start=${tomorrow}&end=${inTen}&tz=Europe%2FAthens`, { method: 'GET', token });
  const slot = free.body.slots[free.body.slots.length - 1]!;
  const booked = await api('/api/v1/provider/book_appointment/', { token, body: { provider_id: gp.provider_id, availability_det_id: slot.availability_det_id, reason_for_visit: 'Persistent cough' } });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);

  await signIn(page, patient.email, patient.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);

  // The dashboard's widget lists it.
  const widget = page.locator('section, div').filter({ has: page.getByRole('heading', { name: 'Upcoming appointments' }) }).last();
  await expect(widget).toContainText(PROVIDER.name);

  // The drawer: the appointment among the selected day plus 10 days, with its provider.
  await page.getByRole('button', { name: 'Open reminders' }).click();
  const drawer = page.getByRole('dialog', { name: 'Reminders' });
  const item = drawer.getByRole('listitem').filter({ hasText: PROVIDER.name }).first();
  await expect(item).toBeVisible();
  // Expanding it shows its type, start and notes, with view / close; View opens its page.
  await item.getByRole('button', { name: /^Details of/ }).click();
  await expect(item).toContainText('Appointment');
  await expect(item).toContainText('Persistent cough');
  await item.getByRole('link', { name: 'View' }).click();

  // Its details page, then the cancellation with the specification's question.
  await expect(page).toHaveURL(new RegExp(`/healthbook/event-details\\?eventId=${slot.availability_det_id}$`));
  await expect(page.getByText('Persistent cough')).toBeVisible();
  await scan(page);
  await page.getByRole('button', { name: 'Cancel appointment' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Are you sure you want to cancel this meeting?');
  await dialog.getByLabel('Reason for cancelling (optional)').fill('Feeling better');
  await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(page).toHaveURL(/\/healthbook\/cancel-confirmation\?eventId=/);
  await expect(page.getByRole('heading', { name: 'Your appointment is cancelled' })).toBeVisible();
  await scan(page);

  // Gone from the dashboard.
  await page.goto('/healthbook/dashboard');
  await expect(page.getByText('You have no upcoming appointments.')).toBeVisible();

  // Both sides are told, with the .ics cancellation.
  const toPatient = await waitForMail(patient.email, /is cancelled$/);
  expect(toPatient.subject).toBe(`Your appointment with ${PROVIDER.name} is cancelled`);
  expect(toPatient.text).toContain('Feeling better');
  const ics = attachments(toPatient).find((a) => a.filename.endsWith('.ics'))!;
  expect(ics.text).toContain('METHOD:CANCEL');
  expect(ics.text).toContain('STATUS:CANCELLED');
  const toProvider = await waitForMail(PROVIDER.email, new RegExp(`^Cancelled: ${patient.first_name} ${patient.last_name}`));
  expect(attachments(toProvider).some((a) => a.text.includes('METHOD:CANCEL'))).toBe(true);

  // The provider's console shows the cancellation.
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US', timezoneId: 'Europe/Athens' });
  const consolePage = await context.newPage();
  // A provider lands on their console, first in the menu; patients' first steps are not theirs.
  await signIn(consolePage, PROVIDER.email, DEMO_PASSWORD);
  await expect(consolePage).toHaveURL(landing(PROVIDER.email));
  await expect(consolePage.getByRole('navigation', { name: 'Main menu' }).getByRole('link').first()).toHaveAccessibleName('My appointments');
  const row = consolePage.getByRole('row').filter({ hasText: `${patient.first_name} ${patient.last_name}` }).first();
  await expect(row).toContainText('Cancelled');
  await context.close();
});
