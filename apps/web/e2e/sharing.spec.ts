// Sharing a health record (issue 10): the recipient's public pages, in a browser of their own.
// The shares are made through the API as the patient; the recipient opens the e-mailed link,
// asks for the code, reads it in the mailbox, sees the records (never the private one) and the
// PDF; the patient sees the opening and revokes; a QR share opened with its passcode; expired,
// unknown and malformed addresses. Axe on every public page, one of them in Greek.
import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { onePagePdf } from '../../server/src/db/seed/demo-files';
import { api, apiLogin, BASE_URL, mailLink, registeredPatient, scan, typeCode, uniqueEmail } from './accounts';
import { sixDigitCode, waitForMail } from './mailbox';

test.describe.configure({ timeout: 120_000 });

interface CreatedShare {
  id: number;
  url: string;
  passcode: string | null;
  status: string;
}

/** A patient with an allergy, two medications (one private) and a condition, signed in through the API. */
async function patientWithRecords(prefix: string) {
  const patient = await registeredPatient(prefix);
  const token = await apiLogin(patient.email, patient.password);
  const add = async (category: string, body: Record<string, unknown>) => {
    const answer = await api(`/api/v1/hr/${category}/`, { body, token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  };
  await add('allergy', { code: 'Penicillin', reaction: 'Skin rash', onset_date: '2019-05-01', onset_date_part: 'month' });
  await add('medication', { code: 'Metformin', dosage: 500 });
  await add('medication', { code: 'Secret pill', private: true });
  await add('condition', { name: 'Unshared condition' });
  return { patient, token };
}

async function createShare(token: string, body: Record<string, unknown>): Promise<CreatedShare> {
  const answer = await api<CreatedShare>('/api/v1/sharing/', { body: { kind: 'records', expires_in: '1d', ...body }, token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** A browser of the recipient's own: nothing of the patient's. */
async function recipientPage(browser: Browser, language?: 'el'): Promise<Page> {
  const context = await browser.newContext();
  if (language) await context.addInitScript((lang) => localStorage.setItem('language', lang), language);
  return context.newPage();
}

test('a link share: e-mail, code, the records without the private one, the PDF; then the patient revokes', async ({ browser }) => {
  const { patient, token } = await patientWithRecords('share-link');
  const doctor = uniqueEmail('doctor');
  const share = await createShare(token, { categories: ['allergy', 'medication'], recipient_name: 'Dr Nikos Test', recipient_email: doctor, method: 'link' });

  // The recipient's e-mail, opened in their own browser: the token leaves the address bar at once.
  const invitation = await waitForMail(doctor, /shared their health record with you/);
  const link = mailLink(invitation);
  expect(link).toBe(share.url);
  const page = await recipientPage(browser);
  await page.goto(link);
  await expect(page).toHaveURL(/\/healthbook\/health-record\/recipient-verification$/);
  await expect(page.getByRole('heading', { level: 1, name: `${patient.first_name} shared their health record with you` })).toBeVisible();
  await expect(page.getByText(/available until/)).toBeVisible();
  // The address with the token was replaced, not pushed: the history holds the blank page and this one.
  expect(await page.evaluate(() => history.length)).toBe(2);
  await scan(page);

  // The code, to the masked address.
  await page.getByRole('button', { name: 'Send me the code' }).click();
  await expect(page.getByText(/We sent a code to d•••@e2e\.example/)).toBeVisible();
  const code = sixDigitCode(await waitForMail(doctor, /Your code to open/));
  await typeCode(page, code);
  await expect(page).toHaveURL(/\/healthbook\/sharedrecord$/);

  // The records of the two categories, read-only; neither the private one nor another category.
  await expect(page.getByRole('heading', { level: 1, name: `Health record of ${patient.first_name} ${patient.last_name}` })).toBeVisible();
  await expect(page.getByText('Shared with Dr Nikos Test · available until', { exact: false })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Allergies' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Medications' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Penicillin' })).toContainText('Skin rash');
  await expect(page.getByRole('article', { name: 'Penicillin' })).toContainText('May 2019');
  await expect(page.getByRole('article', { name: 'Metformin' })).toBeVisible();
  await expect(page.getByText('Secret pill')).toHaveCount(0);
  await expect(page.getByText('Unshared condition')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
  await scan(page);

  // The PDF.
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 20_000 }), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(download.suggestedFilename()).toBe('health-record.pdf');
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');

  // The patient sees the openings, and revokes.
  const accesses = await api<Array<{ action: string; recipient_name: string; shown: { categories: string[] } }>>(`/api/v1/sharing/${share.id}/accesses/`, { token });
  expect(accesses.status).toBe(200);
  expect(accesses.body.map((a) => a.action)).toEqual(expect.arrayContaining(['verified', 'viewed']));
  const viewed = accesses.body.find((a) => a.action === 'viewed')!;
  expect(viewed.recipient_name).toBe('Dr Nikos Test');
  expect(viewed.shown.categories.sort()).toEqual(['allergy', 'medication']);
  const revoked = await api<CreatedShare>(`/api/v1/sharing/${share.id}/revoke/`, { method: 'POST', token });
  expect(revoked.status).toBe(200);
  expect(revoked.body.status).toBe('revoked');

  // The recipient, reloading, sees the revoked page, with nothing of the record.
  await page.reload();
  await expect(page).toHaveURL(/\/healthbook\/share-record-link-revoked$/);
  await expect(page.getByRole('heading', { level: 1, name: 'This share has been revoked' })).toBeVisible();
  await expect(page.getByText('Penicillin')).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('shareRecipient'))).toBeNull();
  await scan(page);

  // The e-mailed link opened again: revoked as well.
  await page.goto(link);
  await expect(page).toHaveURL(/\/healthbook\/share-record-link-revoked$/);
  await page.context().close();
});

test('a QR share opened with its passcode after one wrong try; five wrong ones lock another', async ({ browser }) => {
  const { patient, token } = await patientWithRecords('share-qr');
  const share = await createShare(token, { categories: ['allergy'], recipient_name: 'Nurse Anna', recipient_email: uniqueEmail('nurse'), method: 'qr' });
  expect(share.passcode).toMatch(/^[0-9]{6}$/);
  expect(new URL(share.url).pathname).toMatch(/^\/healthbook\/sharedqrcoderecords\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/);

  const page = await recipientPage(browser);
  await page.goto(share.url);
  await expect(page).toHaveURL(/\/healthbook\/health-record\/recipient-qr-code-verification$/);
  await expect(page.getByRole('heading', { level: 1, name: `${patient.first_name} shared their health record with you` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send me the code' })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Passcode' })).toBeVisible();
  await scan(page);

  const wrong = share.passcode === '000000' ? '111111' : '000000';
  await typeCode(page, wrong);
  await expect(page.getByRole('alert').filter({ hasText: /Attempts left: 4/ })).toBeVisible();
  await scan(page);

  await typeCode(page, share.passcode!);
  await expect(page).toHaveURL(/\/healthbook\/sharedrecord$/);
  await expect(page.getByRole('article', { name: 'Penicillin' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Medications' })).toHaveCount(0);

  // Revoked: the QR share's own page.
  expect((await api(`/api/v1/sharing/${share.id}/revoke/`, { method: 'POST', token })).status).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(/\/healthbook\/share-health-record-link-revoked$/);
  await expect(page.getByRole('heading', { level: 1, name: 'This share has been revoked' })).toBeVisible();
  await expect(page.getByText(/new QR code/)).toBeVisible();
  await scan(page);

  // Five wrong passcodes lock a share: the page says so, and whom to ask.
  const other = await createShare(token, { categories: ['allergy'], recipient_name: 'Nurse Anna', recipient_email: uniqueEmail('nurse'), method: 'qr' });
  const never = other.passcode === '000000' ? '111111' : '000000';
  await page.goto(other.url);
  for (let left = 4; left >= 1; left--) {
    await typeCode(page, never);
    await expect(page.getByRole('alert').filter({ hasText: `Attempts left: ${left}.` })).toBeVisible();
  }
  await typeCode(page, never);
  await expect(page.getByRole('heading', { level: 1, name: 'This share is locked' })).toBeVisible();
  await expect(page.getByText(`This share is locked after too many wrong passcodes. Ask ${patient.first_name} for a new QR code.`)).toBeVisible();
  await scan(page);
  // Opened again later: still locked, even with the right passcode nothing is asked.
  await page.goto(other.url);
  await expect(page.getByRole('heading', { level: 1, name: 'This share is locked' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveCount(0);
  await page.context().close();
});

test('a documents share by link: the Document Center check, the list, a download', async ({ browser }) => {
  const patient = await registeredPatient('share-docs');
  const token = await apiLogin(patient.email, patient.password);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(onePagePdf({ title: 'ECG', lines: ['Sinus rhythm'] }))], { type: 'application/pdf' }), 'ECG report.pdf');
  const uploaded = await fetch(`${BASE_URL}/api/v1/documents/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(uploaded.status).toBe(201);
  const document = (await uploaded.json()) as { id: number };
  const recipient = uniqueEmail('docs-recipient');
  const share = await createShare(token, { kind: 'documents', document_ids: [document.id], recipient_name: 'Dr Docs', recipient_email: recipient, method: 'link' });
  expect(new URL(share.url).pathname).toMatch(/^\/healthbook\/shareddocs\//);

  const page = await recipientPage(browser);
  await page.goto(share.url);
  await expect(page).toHaveURL(/\/healthbook\/health-vault\/health-vault-recipient-verification$/);
  await expect(page.getByRole('heading', { level: 1, name: `${patient.first_name} shared documents with you` })).toBeVisible();
  await page.getByRole('button', { name: 'Send me the code' }).click();
  await typeCode(page, sixDigitCode(await waitForMail(recipient, /Your code to open/)));
  await expect(page).toHaveURL(/\/healthbook\/shared-documents$/);
  await expect(page.getByRole('heading', { level: 1, name: `Documents of ${patient.first_name} ${patient.last_name}` })).toBeVisible();
  await expect(page.getByText('ECG report.pdf')).toBeVisible();
  await scan(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download ECG report.pdf' }).click()]);
  expect(download.suggestedFilename()).toBe('ECG report.pdf');
  expect((await readFile((await download.path())!)).subarray(0, 4).toString('latin1')).toBe('%PDF');
  const accesses = await api<Array<{ action: string }>>(`/api/v1/sharing/${share.id}/accesses/`, { token });
  expect(accesses.body.map((a) => a.action)).toEqual(expect.arrayContaining(['verified', 'viewed', 'document']));
  await page.context().close();
});

test('expired, unknown and malformed addresses: the expired page, never an error, nothing of a share', async ({ browser }) => {
  const page = await recipientPage(browser);
  // An address that never existed, well formed (the server cannot tell it from an expired one, nor can the page).
  const random = (n: number) => Array.from({ length: n }, () => 'abcdefghijkmnpqrstuvwxyzABCDEFGH0123456789_-'[Math.floor(Math.random() * 44)]).join('');
  for (const path of [`/healthbook/sharedrecords/${random(16)}/${random(43)}`, `/healthbook/shareddocs/${random(16)}/${random(43)}`, `/healthbook/sharedqrcoderecords/${random(16)}/${random(43)}`]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/healthbook\/share-record-link-expired$/);
    await expect(page.getByRole('heading', { level: 1, name: 'This link has expired or is not valid' })).toBeVisible();
  }
  await scan(page);
  // Malformed: too short, odd characters, a part missing.
  for (const path of ['/healthbook/sharedrecords/abc/def', `/healthbook/sharedrecords/${random(16)}/${random(20)}%3Cscript%3E`, `/healthbook/shareddocs/${random(16)}`, '/healthbook/sharedqrcoderecords']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/healthbook\/share-record-link-expired$/);
  }
  // The verification and content pages with nothing opened in this browser.
  await page.goto('/healthbook/health-record/recipient-verification');
  await expect(page).toHaveURL(/\/healthbook\/share-record-link-expired$/);
  await page.goto('/healthbook/sharedrecord');
  await expect(page).toHaveURL(/\/healthbook\/share-record-link-expired$/);
  await page.context().close();
});

test('a share that expires: the link opened in time, then the expired page, also for the session already open', async ({ browser }) => {
  const { token } = await patientWithRecords('share-expiry');
  // The shortest expiry the patient may choose is an hour; a moment a few seconds ahead is a custom one.
  const expiresAt = new Date(Date.now() + 8_000).toISOString();
  const share = await createShare(token, { categories: ['allergy'], method: 'qr', expires_in: 'custom', expires_at: expiresAt, recipient_name: 'Dr Brief', recipient_email: uniqueEmail('brief') });
  const page = await recipientPage(browser);
  await page.goto(new URL(share.url).pathname);
  await expect(page).toHaveURL(/\/healthbook\/health-record\/recipient-qr-code-verification$/);
  await typeCode(page, share.passcode!);
  await expect(page).toHaveURL(/\/healthbook\/sharedrecord$/);
  await expect(page.getByRole('article', { name: 'Penicillin' })).toBeVisible();
  await page.waitForTimeout(Math.max(0, new Date(expiresAt).getTime() - Date.now() + 500));
  await page.reload();
  await expect(page).toHaveURL(/\/healthbook\/share-record-link-expired$/);
  await expect(page.getByRole('article', { name: 'Penicillin' })).toHaveCount(0);
  await page.goto(new URL(share.url).pathname);
  await expect(page).toHaveURL(/\/healthbook\/share-record-link-expired$/);
  await scan(page);
  // The patient sees it as expired.
  const listed = await api<Array<{ id: number; status: string }>>('/api/v1/sharing/', { token });
  expect(listed.body.find((s) => s.id === share.id)?.status).toBe('expired');
  await page.context().close();
});

test('the public pages in Greek, on a phone', async ({ browser }) => {
  const { patient, token } = await patientWithRecords('share-el');
  const share = await createShare(token, { categories: ['allergy'], recipient_name: 'Γιατρός Νίκος', recipient_email: uniqueEmail('giatros'), method: 'qr' });
  const page = await recipientPage(browser, 'el');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(share.url);
  await expect(page.getByRole('heading', { level: 1, name: `${patient.first_name} μοιράστηκε μαζί σας τον φάκελο υγείας` })).toBeVisible();
  await scan(page);
  await page.getByRole('textbox', { name: 'Ψηφίο 1 από 6' }).click();
  await page.keyboard.type(share.passcode!, { delay: 20 });
  await expect(page.getByRole('heading', { level: 1, name: `Φάκελος υγείας: ${patient.first_name} ${patient.last_name}` })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Αλλεργίες' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Λήψη PDF' })).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await scan(page);
  await page.goto('/healthbook/share-record-link-expired');
  await expect(page.getByRole('heading', { level: 1, name: 'Ο σύνδεσμος έχει λήξει ή δεν είναι έγκυρος' })).toBeVisible();
  await scan(page);
  await page.context().close();
});
