// The care network (issue 13, item 1), two people in two browser contexts: a patient invites a
// relative read-only; the relative accepts from the e-mail link, sees the banner and the records
// but not the private one, and can neither edit nor chat nor book; the patient upgrades them to
// full access and the relative books an appointment for the patient; the patient removes them and
// the relative's open page loses access. Then, in Greek at phone width, someone without an account
// accepts through the invitation page and the usual sign-up. Axe on each new page and state.
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, apiLogin, mailLink, registeredPatient, scan, signIn, uniqueEmail, uniqueName } from './accounts';
import { mailFor, waitForMail, type Mail } from './mailbox';

test.describe.configure({ timeout: 240_000 });
test.use({ timezoneId: 'Europe/Athens', locale: 'en-US' });

const PROVIDER = 'Nikos Georgiou';

/** With E2E_SHOTS_DIR set, a screenshot of the page as checked (to look at it). */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: path.join(process.env.E2E_SHOTS_DIR, `care-${name}.png`), fullPage: true });
}

async function newPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context = await browser.newContext({ timezoneId: 'Europe/Athens', locale: 'en-US', ...options });
  return context.newPage();
}

/** The invitation link of the mail: the token travels in the fragment, never in a path or query. */
function invitationLink(mail: Mail): string {
  const link = mailLink(mail);
  const url = new URL(link);
  expect(url.pathname).toBe('/healthbook/caring-person-info');
  expect(url.search).toBe('');
  expect(url.hash).toMatch(/^#token=[A-Za-z0-9_-]{16,}$/);
  return link;
}

const banner = (page: Page) => page.getByRole('region', { name: 'Viewed record' });

test('invite read-only, accept from the e-mail, see without changing; upgrade to full and book for them; removal ends it on the open page', async ({ browser }) => {
  const patient = await registeredPatient('care-patient');
  const relative = await registeredPatient('care-relative');
  const patientName = `${patient.first_name} ${patient.last_name}`;
  const patientToken = await apiLogin(patient.email, patient.password);
  for (const body of [
    { name: 'Seasonal asthma', start_date: '2019-05-01', start_date_part: 'month' },
    { name: 'Hidden matter', private: true },
  ]) {
    const created = await api('/api/v1/hr/condition/', { body, token: patientToken });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }

  // The patient invites the relative, read-only, from the care network page (the menu's CareClub+).
  const owner = await newPage(browser);
  await signIn(owner, patient.email, patient.password);
  await expect(owner).toHaveURL(/\/healthbook\/dashboard$/);
  await owner.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'CareClub+' }).click();
  await expect(owner.getByRole('heading', { level: 1, name: 'Care network' })).toBeVisible();
  await expect(owner.getByText('No one is in your care network yet.', { exact: false })).toBeVisible();
  await expect(owner.getByText('No one has let you into their record.')).toBeVisible();
  await expect(owner.getByText('No one else has opened your record yet.')).toBeVisible();
  await scan(owner);
  await owner.getByRole('button', { name: 'Invite someone' }).click();
  let dialog = owner.getByRole('dialog', { name: 'Invite someone' });
  await expect(dialog.getByRole('radio', { name: /^Read-only/ })).toBeChecked();
  await expect(dialog.getByText('Read-only individuals cannot communicate with providers.')).toBeVisible();
  // Only some categories: the 15 categories to choose from, at least one.
  await dialog.getByRole('switch', { name: 'Only some categories' }).check();
  await expect(dialog.getByRole('group', { name: 'Categories they can see' }).getByRole('checkbox')).toHaveCount(15);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText("Enter the person's name.")).toBeVisible();
  await expect(dialog.getByText('Choose at least one category.')).toBeVisible();
  await scan(owner);
  await dialog.getByRole('switch', { name: 'Only some categories' }).uncheck();
  await dialog.getByLabel('Their name').fill('Dear Relative');
  // Oneself: refused by the server, on the field.
  await dialog.getByLabel('Their e-mail address').fill(patient.email);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByLabel('Their e-mail address')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Their e-mail address').fill(relative.email);
  await shot(owner, 'en-desktop-invite');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(owner.getByText(`The invitation was sent to ${relative.email}.`)).toBeVisible();
  const member = owner.getByRole('article', { name: 'Dear Relative' });
  await expect(member.getByText('Invitation sent')).toBeVisible();
  await expect(member.getByText('Read-only')).toBeVisible();
  await expect(member.getByRole('button', { name: 'Resend the invitation to Dear Relative' })).toBeVisible();

  // The relative opens the e-mail's link signed out: what it offers, then sign in to accept.
  const mail = await waitForMail(relative.email, /invites you into their care network/);
  const link = invitationLink(mail);
  const carer = await newPage(browser);
  await carer.goto(link);
  await expect(carer.getByRole('heading', { level: 1, name: 'Invitation to a health record' })).toBeVisible();
  await expect(carer.getByText(`${patientName} invites you to see their health record with read-only access.`)).toBeVisible();
  // The token left the address bar (kept for the tab only).
  await expect.poll(() => new URL(carer.url()).hash).toBe('');
  await scan(carer);
  await carer.getByRole('link', { name: 'Sign in to accept' }).click();
  await signIn(carer, relative.email, relative.password);
  await expect(carer).toHaveURL(/\/healthbook\/caring-person-info$/);
  await expect(carer.getByRole('button', { name: 'Accept' })).toBeVisible();
  await scan(carer);
  await carer.getByRole('button', { name: 'Accept' }).click();

  // The patient's record opens: the banner on every page, read-only.
  await expect(carer).toHaveURL(/\/healthbook\/dashboard$/);
  await expect(banner(carer).getByText(`Viewing ${patientName}'s record`)).toBeVisible();
  await expect(banner(carer).getByText('Read-only')).toBeVisible();
  // The dashboard's checklist is the relative's own, not the patient's (who has records).
  const checklist = carer.getByRole('region', { name: 'Get started' });
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Add your first health record' })).toContainText('(to do)');
  await shot(carer, 'en-desktop-banner');
  await scan(carer);
  // The avatar menu's Records: back to my own, and to the patient's again.
  await carer.getByRole('button', { name: 'Account menu' }).click();
  await expect(carer.getByRole('menuitemradio', { name: patientName })).toHaveAttribute('aria-checked', 'true');
  await scan(carer);
  await carer.getByRole('menuitemradio', { name: 'My record' }).click();
  await expect(banner(carer)).toHaveCount(0);
  await expect(carer.getByRole('heading', { level: 1, name: `Hello, ${relative.first_name}` })).toBeVisible();
  await carer.getByRole('button', { name: 'Account menu' }).click();
  await carer.getByRole('menuitemradio', { name: new RegExp(`^${patientName}`) }).click();
  await expect(banner(carer).getByText(`Viewing ${patientName}'s record`)).toBeVisible();
  await carer.goto('/healthbook/health-record/condition');
  await expect(banner(carer)).toBeVisible();
  await expect(carer.getByRole('link', { name: 'Seasonal asthma' }).first()).toBeVisible();
  await expect(carer.getByText('Hidden matter')).toHaveCount(0);
  await expect(carer.getByText('Only people with full access can add or change things here: your access to this record is read-only.')).toBeVisible();
  await expect(carer.getByRole('link', { name: /^Add / })).toHaveCount(0);
  await carer.getByRole('link', { name: 'Seasonal asthma' }).first().click();
  await expect(carer.getByRole('heading', { level: 1, name: 'Seasonal asthma' })).toBeVisible();
  await expect(carer.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(carer.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  // No chat with providers, no booking.
  await carer.goto('/healthbook/peer-coaching');
  await expect(carer.getByText('Only people with full access can chat with providers', { exact: false })).toBeVisible();
  await expect(carer.getByRole('button', { name: 'Start chat' })).toHaveCount(0);
  const providers = await api<Array<{ provider_id: number; provider_name: string }>>('/api/v1/provider/list/', { method: 'GET', token: patientToken });
  const gp = providers.body.find((p) => p.provider_name === PROVIDER)!;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const inTen = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
  const free = await api<{ slots: Array<{ availability_det_id: number; start_time: string }> }>(
    `/api/v1/provider/${gp.provider_id}/availability/?start=${tomorrow}&end=${inTen}&tz=Europe%2FAthens`,
    { method: 'GET', token: patientToken },
  );
  const slot = free.body.slots.at(-1)!;
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Athens' }).format(new Date(slot.start_time));
  const confirmPath = `/healthbook/confirm-appointment?selectedProviderDetailsId=${gp.provider_id}&selectedDate=${day}&slot=${slot.availability_det_id}`;
  await carer.goto(confirmPath);
  await expect(carer.getByText('Only people with full access can chat with providers', { exact: false })).toBeVisible();
  await expect(carer.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
  // The server agrees (the header the app sends).
  const relativeToken = await apiLogin(relative.email, relative.password);
  const refused = await fetch(`${new URL(carer.url()).origin}/api/v1/hr/condition/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${relativeToken}`, 'x-patient-id': String((await patientId(patientToken))) },
    body: JSON.stringify({ name: 'Not allowed' }),
  });
  expect(refused.status).toBe(403);
  // A page read-only access does not reach says why, not "could not be loaded".
  await carer.goto('/healthbook/mental-health-survey');
  await expect(carer.getByRole('heading', { level: 1, name: 'Not available with your access' })).toBeVisible();
  await expect(carer.getByText('Only the patient and people with full access can see mental-health surveys.')).toBeVisible();
  await shot(carer, 'en-desktop-refused');
  await scan(carer);

  // The patient sees them active, and gives full access.
  await owner.reload();
  await expect(member.getByText('Active')).toBeVisible();
  await member.getByRole('button', { name: 'Change access of Dear Relative' }).click();
  dialog = owner.getByRole('dialog', { name: "Change Dear Relative's access" });
  await scan(owner);
  await dialog.getByRole('radio', { name: /^Full access/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(owner.getByText("Dear Relative's access was changed.", { exact: false })).toBeVisible();
  await expect(member.getByText('Full access')).toBeVisible();

  // The relative's open page follows (the list of records is asked again within 15 s): the chip goes, booking is offered.
  await expect(banner(carer).getByText('Read-only')).toBeHidden({ timeout: 25_000 });
  await carer.goto(confirmPath);
  await expect(carer.getByRole('heading', { level: 1, name: 'Confirm your appointment' })).toBeVisible();
  await carer.getByLabel('Reason for visit').fill('Check-up, booked by family');
  await carer.getByRole('button', { name: 'Confirm' }).click();
  await expect(carer).toHaveURL(/\/healthbook\/appointment-scheduled\?eventId=\d+$/);
  await expect(carer.getByRole('heading', { level: 1, name: 'Your appointment is booked' })).toBeVisible();
  // It is the patient's appointment.
  const booked = await api<Array<{ availability_det_id: number }> | { results: Array<{ availability_det_id: number }> }>('/api/v1/appointments/', { method: 'GET', token: patientToken });
  const list = Array.isArray(booked.body) ? booked.body : booked.body.results;
  expect(list.map((a) => a.availability_det_id)).toContain(slot.availability_det_id);

  // Who saw my record: the relative's reads and the booking, by name.
  await owner.reload();
  const log = owner.getByRole('region', { name: 'Who saw my record' });
  await expect(log.getByText(`${relative.first_name} ${relative.last_name}`).first()).toBeVisible();
  await expect(log.getByText('Care network').first()).toBeVisible();
  // In sentences, repeated reads of a day as one line.
  await expect(log.getByText(new RegExp(`^${relative.first_name} ${relative.last_name} viewed your health records( \\d+ times)?$`)).first()).toBeVisible();
  await expect(log.getByText(/_/)).toHaveCount(0);
  await shot(owner, 'en-desktop-careclub');
  await scan(owner);

  // The patient removes them: effective at once, also on the relative's open page.
  await carer.goto('/healthbook/health-record/condition');
  await expect(banner(carer)).toBeVisible();
  await member.getByRole('button', { name: 'Remove Dear Relative' }).click();
  const confirm = owner.getByRole('dialog', { name: 'Remove Dear Relative?' });
  await expect(confirm.getByText('effective at once', { exact: false })).toBeVisible();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(owner.getByText('Dear Relative was removed from your care network.')).toBeVisible();
  await expect(owner.getByRole('article', { name: 'Dear Relative' })).toHaveCount(0);
  await expect(carer.getByText(`Your access to ${patientName}'s record has ended.`)).toBeVisible({ timeout: 25_000 });
  await expect(carer).toHaveURL(/\/healthbook\/dashboard$/);
  await expect(banner(carer)).toHaveCount(0);
  await expect(carer.getByRole('heading', { level: 1, name: `Hello, ${relative.first_name}` })).toBeVisible();
});

/** The patient id of the signed-in user (their own record, first in the list). */
async function patientId(token: string): Promise<number> {
  const answer = await api<Array<{ patient_id: number; is_self: boolean }>>('/api/v1/patients/', { method: 'GET', token });
  return answer.body.find((p) => p.is_self)!.patient_id;
}

test('in Greek at phone width: no account yet, the details, the usual sign-up, back to the invitation, accepted', async ({ browser }) => {
  const patient = await registeredPatient('care-greek');
  const patientName = `${patient.first_name} ${patient.last_name}`;
  const patientToken = await apiLogin(patient.email, patient.password);
  const email = uniqueEmail('care-newcomer');
  const invited = await api('/api/v1/care-network/', { token: patientToken, body: { name: 'Newcomer', email, access: 'full', categories: ['condition', 'medication'] } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const link = invitationLink(await waitForMail(email, /./));

  const page = await newPage(browser, { locale: 'el-GR', viewport: { width: 390, height: 844 } });
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Πρόσκληση σε φάκελο υγείας' })).toBeVisible();
  await expect(page.getByText(`Ο/Η ${patientName} σας προσκαλεί να βλέπετε τον φάκελο υγείας του/της με πλήρη πρόσβαση.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /^Εγγραφείτε στο / })).toBeVisible();
  await shot(page, 'el-phone-invitation');
  await scan(page);
  // The details, checked before anything is sent.
  await page.getByRole('button', { name: 'Συνέχεια στην εγγραφή' }).click();
  await expect(page.getByLabel(/^Όνομα/)).toHaveAttribute('aria-invalid', 'true');
  await scan(page);
  const first = uniqueName('Nea');
  await page.getByLabel(/^Όνομα/).fill(first);
  await page.getByLabel(/^Επώνυμο/).fill('Neofytou');
  await page.getByLabel(/^Ημερομηνία γέννησης/).fill('03/15/1990');
  await page.getByRole('radio').first().check();
  await page.getByRole('button', { name: 'Συνέχεια στην εγγραφή' }).click();

  // The usual sign-up, its details filled from the invitation.
  await expect(page).toHaveURL(/\/healthbook\/signup$/);
  await expect(page.locator('input[type=email]')).toHaveValue(email);
  const password = 'Carer#2026x';
  const passwords = page.locator('input[type=password]');
  await passwords.nth(0).fill(password);
  await passwords.nth(1).fill(password);
  await page.locator('input[type=checkbox]').check();
  await page.locator('form button[type=submit]').click();
  await page.getByRole('dialog').getByRole('button').last().click();
  await expect(page).toHaveURL(/\/healthbook\/login$/);

  // The e-mail confirmation (same tab), then signing in brings the tab back to the invitation.
  let confirmLink = '';
  await expect
    .poll(async () => {
      confirmLink = (await mailFor(email)).map((m) => mailLink(m)).find((l) => l.includes('/email/confirm/')) ?? '';
      return confirmLink;
    }, { timeout: 15_000 })
    .not.toBe('');
  await page.goto(confirmLink);
  await expect(page.locator('h1')).toBeVisible();
  await page.goto('/healthbook/login');
  await page.locator('input[type=email]').fill(email);
  await page.locator('input[autocomplete=current-password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await expect(page).toHaveURL(/\/healthbook\/caring-person-info$/);
  await expect(page.getByRole('button', { name: 'Αποδοχή' })).toBeVisible();
  await shot(page, 'el-phone-accept');
  await scan(page);
  await page.getByRole('button', { name: 'Αποδοχή' }).click();
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  const viewed = page.getByRole('region', { name: 'Φάκελος σε προβολή' });
  await expect(viewed.getByText(`Βλέπετε τον φάκελο του/της ${patientName}`)).toBeVisible();
  await expect(viewed.getByText('Μόνο ανάγνωση')).toHaveCount(0);
  await shot(page, 'el-phone-banner');
  await scan(page);
  // Back to one's own record from the banner.
  await viewed.getByRole('button', { name: 'Πίσω στον φάκελό μου' }).click();
  await expect(page.getByRole('region', { name: 'Φάκελος σε προβολή' })).toHaveCount(0);
});

test('a grant limited to allergies: the banner says so, the menu offers only what it reaches, other pages say why', async ({ browser }) => {
  const patient = await registeredPatient('care-limited-patient');
  const relative = await registeredPatient('care-limited-relative');
  const patientName = `${patient.first_name} ${patient.last_name}`;
  const patientToken = await apiLogin(patient.email, patient.password);
  const relativeToken = await apiLogin(relative.email, relative.password);
  expect((await api('/api/v1/hr/allergy/', { body: { code: 'Birch pollen' }, token: patientToken })).status).toBe(201);
  expect((await api('/api/v1/journal/', { body: { entry_date: '2026-11-20', title: 'Not for the network', text: 'A calm day.', mood: 4, private: false }, token: patientToken })).status).toBe(201);
  const invited = await api('/api/v1/care-network/', { body: { name: 'Limited Relative', email: relative.email, access: 'read-only', categories: ['allergy'] }, token: patientToken });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const token = new URL(mailLink(await waitForMail(relative.email, /invites you into their care network/))).hash.replace(/^#token=/, '');
  expect((await api('/api/v1/care-network/invitations/accept/', { body: { token }, token: relativeToken })).status).toBe(200);

  const carer = await newPage(browser);
  await signIn(carer, relative.email, relative.password);
  await expect(carer).toHaveURL(/\/healthbook\/dashboard$/);
  await carer.getByRole('button', { name: 'Account menu' }).click();
  await carer.getByRole('menuitemradio', { name: new RegExp(`^${patientName}`) }).click();
  await expect(banner(carer).getByText(`Viewing ${patientName}'s record`)).toBeVisible();
  await expect(banner(carer).getByText('Only Allergies')).toBeVisible();
  const menu = carer.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Allergies' })).toBeVisible();
  for (const hidden of ['Interactive Calendar', 'Journal', 'Share my record']) await expect(menu.getByRole('link', { name: hidden })).toHaveCount(0);
  await shot(carer, 'en-desktop-limited');
  await scan(carer);
  // Their allergies are there; a page of a part the grant does not reach says why (not "could not be loaded").
  await carer.goto('/healthbook/health-record/allergy');
  await expect(carer.getByRole('link', { name: 'Birch pollen' }).first()).toBeVisible();
  await carer.goto('/healthbook/journal');
  await expect(carer.getByRole('heading', { level: 1, name: 'Not available with your access' })).toBeVisible();
  await expect(carer.getByText('Only people with access to the whole record can see this part of it: you were given some categories only.')).toBeVisible();
  await expect(carer.getByText('Not for the network')).toHaveCount(0);
  await scan(carer);
  await carer.getByRole('link', { name: 'Back to the dashboard' }).click();
  await expect(carer).toHaveURL(/\/healthbook\/dashboard$/);
});
