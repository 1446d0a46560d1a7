// Share my record, the patient's side: a link share of two categories made from a category's
// Share button (the recipient's e-mail arrives), a QR share of one record with its QR code (PNG
// downloaded) and passcode; the recipient opens the link share through the public API, the
// patient sees the opening in "Who saw it", is told by e-mail, and revokes. A private record
// cannot be shared. Axe on the list, the new-share and the share's pages.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, DEMO_PASSWORD, linkParams, mailLink, registeredPatient, scan, signIn, typeCode, uniqueEmail } from './accounts';
import { sixDigitCode, waitForMail } from './mailbox';

test.describe.configure({ timeout: 180_000 });

/** A browser the "Who saw it" table names. */
const RECIPIENT_BROWSER = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';

/** A record of the patient, made through the API as the records pages make them; answers its id. */
async function addRecord(token: string, category: string, body: Record<string, unknown>): Promise<number> {
  const answer = await api<{ id: number }>(`/api/v1/hr/${category}/`, { body, token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id;
}

async function signedIn(page: Page, prefix: string) {
  const user = await registeredPatient(prefix);
  const token = await apiLogin(user.email, user.password);
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  return { user, token };
}

test('shares by link and by QR code; the recipient opens the link in their own browser; the patient sees who opened it and revokes', async ({ page, request, browser }) => {
  const { user, token } = await signedIn(page, 'sharer');
  await addRecord(token, 'condition', { name: 'Asthma' });
  await addRecord(token, 'lab', { test: 'HbA1c', result: 5.6, units: '%' });
  await addRecord(token, 'medicalvisit', { reason: 'Counselling session', private: true });
  await addRecord(token, 'condition', { name: 'Private worry', private: true });
  const doctor = { name: 'Dr Eleni Kosta', email: uniqueEmail('doctor') };

  // "Share my record" is a live item of the menu; nothing shared yet.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Share my record' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Share my record' })).toBeVisible();
  await expect(page.getByText('You have not shared your record yet.')).toBeVisible();
  await scan(page);

  // The Share button of a category's list starts a share of that category.
  await page.goto('/healthbook/health-record/condition');
  await page.getByRole('link', { name: 'Share', exact: true }).click();
  await expect(page).toHaveURL(/\/healthbook\/sharing\/new\?category=condition$/);
  await expect(page.getByRole('heading', { level: 1, name: 'New share' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /^Conditions/ })).toBeChecked();
  await page.getByRole('checkbox', { name: /^Lab results/ }).check();
  await page.getByLabel("Recipient's name").fill(doctor.name);
  await page.getByLabel("Recipient's e-mail").fill(doctor.email);
  await page.getByLabel('Message to the recipient').fill('For our appointment on Monday.');
  await scan(page);
  await page.getByRole('button', { name: 'Share', exact: true }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Your share is ready' })).toBeVisible();
  await expect(page.getByText(`A link was e-mailed to ${doctor.name} (${doctor.email}); they will get a code by e-mail to open it.`)).toBeVisible();
  const mail = await waitForMail(doctor.email, /shared their health record with you$/);
  expect(mail.text).toContain('For our appointment on Monday.');
  const link = mailLink(mail);
  expect(link).toMatch(/\/healthbook\/sharedrecords\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('textbox', { name: 'Link' })).toHaveValue(link);
  await scan(page);

  await page.getByRole('link', { name: 'All my shares' }).click();
  const linkRow = page.getByRole('row').filter({ hasText: doctor.email });
  await expect(linkRow.getByText('Active')).toBeVisible();
  await expect(linkRow.getByText('Conditions, Lab results')).toBeVisible();
  await expect(linkRow.getByText('Link by e-mail')).toBeVisible();
  await expect(linkRow.getByText('Not opened yet')).toBeVisible();
  await scan(page);

  // A QR share of one record: the QR code (a PNG to download) and the passcode, once.
  const nurse = { name: 'Nikos Georgiou', email: uniqueEmail('nurse') };
  await page.getByRole('link', { name: 'New share' }).click();
  await page.getByRole('combobox', { name: 'Records of' }).click();
  await page.getByRole('option', { name: 'Lab results' }).click();
  await page.getByRole('group', { name: 'Records of Lab results' }).getByRole('checkbox', { name: /HbA1c/ }).check();
  await expect(page.getByText('1 record chosen')).toBeVisible();
  await page.getByRole('radio', { name: /^QR code/ }).check();
  await page.getByLabel("Recipient's name").fill(nurse.name);
  await page.getByLabel("Recipient's e-mail").fill(nurse.email);
  await page.getByRole('radio', { name: '1 day' }).check();
  await page.getByRole('button', { name: 'Share', exact: true }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Your share is ready' })).toBeVisible();
  await expect(page.getByRole('img', { name: `QR code of the share for ${nurse.name}` })).toBeVisible();
  await expect(page.getByTestId('share-passcode')).toHaveText(/^[0-9]{6}$/);
  await expect(page.getByText(/it is shown only once/)).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download PNG' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^share-qr-code-[0-9]+\.png$/);
  expect(readFileSync((await download.path())!).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  await scan(page);

  // The doctor opens the e-mailed link in a browser of their own: a code by e-mail, then the records, never the private one.
  const recipientContext = await browser.newContext({ userAgent: RECIPIENT_BROWSER });
  const recipient = await recipientContext.newPage();
  await recipient.goto(link);
  await expect(recipient).toHaveURL(/\/healthbook\/health-record\/recipient-verification$/);
  await recipient.getByRole('button', { name: 'Send me the code' }).click();
  await typeCode(recipient, sixDigitCode(await waitForMail(doctor.email, /^Your code to open /)));
  await expect(recipient).toHaveURL(/\/healthbook\/sharedrecord$/);
  await expect(recipient.getByRole('article', { name: 'Asthma' })).toBeVisible();
  await expect(recipient.getByRole('article', { name: 'HbA1c' })).toBeVisible();
  await expect(recipient.getByText('Private worry')).toHaveCount(0);
  await expect(recipient.getByText('Counselling session')).toHaveCount(0);
  const [pdf] = await Promise.all([recipient.waitForEvent('download', { timeout: 20_000 }), recipient.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(readFileSync((await pdf.path())!).subarray(0, 4).toString('latin1')).toBe('%PDF');
  await waitForMail(user.email, /opened the record you shared$/);

  // The patient sees who opened it.
  await page.getByRole('link', { name: 'All my shares' }).click();
  await expect(page.getByRole('row').filter({ hasText: doctor.email }).getByText(/^[0-9]+ times? · last on /)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: nurse.email }).getByText('QR code')).toBeVisible();
  await page.getByRole('link', { name: new RegExp(`^${doctor.name}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Share with ${doctor.name}` })).toBeVisible();
  const seen = page.getByRole('region', { name: 'Who saw it' });
  await expect(seen.getByRole('row').filter({ hasText: 'Viewed the record' }).first()).toContainText('Firefox on Android');
  await expect(seen.getByRole('row').filter({ hasText: 'Viewed the record' }).first()).toContainText('Conditions, Lab results, 2 records');
  await expect(seen.getByRole('row').filter({ hasText: 'Code accepted' })).toContainText(doctor.name);
  await expect(page.getByRole('region', { name: 'What is shared' }).getByText('Lab results')).toBeVisible();
  await scan(page);

  // Revoked, after the confirmation: the address no longer opens.
  await page.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this share?' });
  await expect(dialog).toContainText(doctor.name);
  await scan(page);
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText(`The share with ${doctor.name} was revoked.`)).toBeVisible();
  await expect(page.getByText('Revoked', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  const gone = await request.post('/api/v1/sharing/public/open/', { data: linkParams(link) });
  expect(gone.status()).toBe(410);
  expect(await gone.json()).toMatchObject({ reason: 'revoked' });
  await page.getByRole('link', { name: 'My shares' }).click();
  await expect(page.getByRole('row').filter({ hasText: doctor.email }).getByText('Revoked', { exact: true })).toBeVisible();

  // The recipient, reloading, sees the revoked page.
  await recipient.reload();
  await expect(recipient).toHaveURL(/\/healthbook\/share-record-link-revoked$/);
  await expect(recipient.getByRole('article', { name: 'Asthma' })).toHaveCount(0);
  await recipientContext.close();
});

test('a private record cannot be shared', async ({ page }) => {
  const { token } = await signedIn(page, 'private-sharer');
  const secret = await addRecord(token, 'medicalvisit', { reason: 'Counselling session', private: true });
  const open = await addRecord(token, 'medicalvisit', { reason: 'Cardiology check' });

  // Its page offers no Share button; another record's does.
  await page.goto(`/healthbook/health-record/medicalvisit/${open}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Cardiology check' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Share', exact: true })).toHaveAttribute('href', `/healthbook/sharing/new?category=medicalvisit&record=${open}`);
  await page.goto(`/healthbook/health-record/medicalvisit/${secret}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Counselling session' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Share', exact: true })).toHaveCount(0);

  // Asked for by its address, on a phone: shown, not chosen, and it cannot be chosen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/healthbook/sharing/new?category=medicalvisit&record=${secret}`);
  const visits = page.getByRole('group', { name: 'Records of Medical visits' });
  await expect(visits.getByRole('checkbox', { name: /Counselling session.*Private — cannot be shared/ })).toBeDisabled();
  await expect(visits.getByRole('checkbox', { name: /Counselling session/ })).not.toBeChecked();
  await expect(page.getByText('"Counselling session" is private: it cannot be shared.')).toBeVisible();
  await page.getByLabel("Recipient's name").fill('Dr Eleni Kosta');
  await page.getByLabel("Recipient's e-mail").fill(uniqueEmail('doctor'));
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByText('Choose what to share: at least one category, record or document.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'New share' })).toBeVisible();
  await scan(page);
  // No horizontal scrolling at phone width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The server refuses it too.
  const refused = await api('/api/v1/sharing/', {
    body: { kind: 'records', record_ids: [secret], recipient_name: 'Dr Eleni Kosta', recipient_email: uniqueEmail('doctor'), method: 'link', expires_in: '1d' },
    token,
  });
  expect(refused.status).toBe(400);
});

test.describe('in Greek', () => {
  test.use({ viewport: { width: 390, height: 844 }, locale: 'el-GR' });

  test('the demo patient’s shares, a share with its openings and a new share, at phone width and on a desktop', async ({ page }) => {
    await page.goto('/healthbook/login');
    await page.locator('input[type=email]').fill('patient@healthbook.example');
    await page.locator('input[autocomplete=current-password]').fill(DEMO_PASSWORD);
    await page.locator('form button[type=submit]').click();
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);

    await page.goto('/healthbook/sharing');
    await expect(page.getByRole('heading', { level: 1, name: 'Κοινοποίηση του φακέλου μου' })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Dr Eleni Papadopoulou/ })).toBeVisible();
    await scan(page);

    await page.getByRole('link', { name: /^Dr Eleni Papadopoulou/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Κοινοποίηση προς Dr Eleni Papadopoulou' })).toBeVisible();
    const seen = page.getByRole('region', { name: 'Ποιος το είδε' });
    await expect(seen.getByText('Προβολή του φακέλου').first()).toBeVisible();
    await scan(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(seen.getByRole('columnheader', { name: 'Πότε' })).toBeVisible();
    await scan(page);
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto('/healthbook/sharing/new');
    await expect(page.getByRole('heading', { level: 1, name: 'Νέα κοινοποίηση' })).toBeVisible();
    await page.getByRole('button', { name: 'Κοινοποίηση', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Επιλέξτε τι θα κοινοποιήσετε: τουλάχιστον μία κατηγορία, εγγραφή ή έγγραφο.' })).toBeVisible();
    await scan(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
