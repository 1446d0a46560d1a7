// The chat console of providers and peer coaches, against the real server and socket: the demo
// peer coach sees the demo patient join the queue (reason and waiting time), takes them, they
// exchange texts and files both ways (a file over 5 MB refused in red), and the coach ends the
// chat; then the patient leaves a chat themselves and the coach's pane turns read-only with the
// exit notice, a second patient's chat taken meanwhile (the first tab counts its new messages),
// and the console fits a phone; and the console is for staff only. The patient's side is a socket driven from
// here, through the API, as the patient's own client drives it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { formatChatExitTime } from '@healthbook/shared/chat';
import type { ChatDetails } from '@healthbook/shared/contracts/chat';
import { PatientChatSocket } from './chat-patient';
import { BASE_URL, DEMO_PASSWORD, api, apiLogin, landing, registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const TZ = 'Europe/Athens';
test.use({ timezoneId: TZ, locale: 'en-US' });

const COACH = { email: 'coach@healthbook.example', name: 'Sofia Antoniou' };
const PATIENT = { email: 'patient@healthbook.example', name: 'Maria Papadopoulou' };
const EMPTY_QUEUE = 'No one is waiting right now. Patients appear here as soon as they join the queue.';

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US', timezoneId: TZ, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, email, DEMO_PASSWORD);
  await expect(page).toHaveURL(landing(email));
  return page;
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

/** A PDF the server accepts (its header is what it checks), `size` bytes long. */
function pdf(size: number, label: string): Buffer {
  const head = Buffer.from(`%PDF-1.4\n% ${label}\n`);
  const tail = Buffer.from('\n%%EOF\n');
  const body = Buffer.alloc(Math.max(0, size - head.length - tail.length), 0x41);
  return Buffer.concat([head, body, tail]);
}

let clientIds = 0;
const clientMessageId = () => `e2e-${Date.now().toString(36)}-${(clientIds++).toString(36)}`;

/** With E2E_SHOTS_DIR set, a screenshot of the console as checked (to look at it). */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: path.join(process.env.E2E_SHOTS_DIR, `console-${name}.png`), fullPage: true });
}

/** A patient (the demo one by default) joins the coaches' queue (POST sendmessagetoqueue/) and opens their socket with a fresh ticket. */
async function patientJoins(reason = 'stress', who: { email: string; password: string } = { email: PATIENT.email, password: DEMO_PASSWORD }) {
  const token = await apiLogin(who.email, who.password);
  // A chat an earlier run left open (the patient has one at a time): ended first.
  await api('/api/v1/peercoaching/endchat/', { token, body: {} });
  const joined = await api<ChatDetails>('/api/v1/peercoaching/sendmessagetoqueue/', { token, body: { provider_type: 'coach', reason } });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  const details = joined.body;
  const ticket = await api<{ ticket: string }>('/api/v1/chat/ticket/', { token, body: {} });
  expect(ticket.status).toBe(200);
  const socket = PatientChatSocket.open(BASE_URL, {
    ticket: ticket.body.ticket,
    userId: details.user_id,
    isPatient: true,
    reason: details.reason,
    providerType: details.provider_type,
    credential: details.credential_id,
    patientId: details.patient_id,
    orgName: details.org_name,
  });
  await socket.opened;
  await socket.next('welcome');
  return { token, details, socket };
}

test('a peer coach takes the waiting patient, they exchange messages and files, and the coach ends the chat', async ({ browser }) => {
  const coach = await signedInPage(browser, COACH.email);
  await menu(coach).getByRole('link', { name: 'Chat console' }).click();
  await expect(coach).toHaveURL(/\/healthbook\/provider\/chat$/);
  await expect(coach.getByRole('heading', { level: 1, name: 'Chat console' })).toBeVisible();
  await expect(coach.getByRole('status').filter({ hasText: 'Chat connection: connected' })).toBeVisible();
  // A patient of another journey still counted in the queue leaves it within a minute (no socket, no heartbeat).
  await expect(coach.getByText(EMPTY_QUEUE)).toBeVisible({ timeout: 90_000 });
  await expect(coach.getByText('You have no open chats. Take a patient from the queue to start one.')).toBeVisible();
  await scan(coach);

  // The patient joins: the queue shows them live, with the reason in words and the waiting time ticking.
  const patient = await patientJoins('stress');
  const queue = coach.getByRole('table', { name: 'Waiting patients' });
  const row = queue.getByRole('row', { name: new RegExp(PATIENT.name) });
  await expect(row).toBeVisible();
  await expect(coach.getByRole('status').filter({ hasText: '1 patient waiting' })).toBeVisible();
  const cells = row.getByRole('cell');
  await expect(cells.nth(0)).toHaveText('Stress or anxiety');
  await expect(cells.nth(1)).toHaveText('Peer coach');
  await expect(cells.nth(2)).toHaveText(/^\d+ s$/);
  const waited = Number((await cells.nth(2).textContent())!.replace(/\D/g, ''));
  await expect.poll(async () => Number((await cells.nth(2).textContent())!.replace(/\D/g, '')), { timeout: 5_000 }).toBeGreaterThan(waited);
  await expect(cells.nth(3)).toHaveText('1');
  await scan(coach);

  // Taken: the pane opens, the patient is greeted and the queue empties.
  await row.getByRole('button', { name: `Take the chat with ${PATIENT.name}` }).click();
  const panel = coach.getByRole('tabpanel', { name: PATIENT.name });
  await expect(panel.getByRole('heading', { level: 3, name: PATIENT.name })).toBeVisible();
  await expect(panel.getByText('Reason: Stress or anxiety')).toBeVisible();
  const started = await patient.socket.next('started');
  expect(started.provider_name).toBe(COACH.name);
  const greeting = await patient.socket.next('message', (m) => m.kind === 'greeting');
  expect(greeting.Message).toContain('How can I help you today');
  const log = panel.getByRole('log', { name: `Messages with ${PATIENT.name}` });
  await expect(log).toContainText('How can I help you today');
  await expect(coach.getByText(EMPTY_QUEUE)).toBeVisible();

  // The patient writes; the coach answers with Enter.
  patient.socket.send({ action: 'sendMessage', Msg: 'I have been feeling stressed at work.', contentType: 'text/plain', clientMessageId: clientMessageId() });
  await patient.socket.next('ack');
  await expect(log).toContainText('I have been feeling stressed at work.');
  const field = panel.getByRole('textbox', { name: 'Your Message' });
  await field.fill('Thank you for telling me. What helps you relax?');
  await field.press('Enter');
  await expect(field).toHaveValue('');
  const answer = await patient.socket.next('message', (m) => m.kind === 'text' && !m.me);
  expect(answer).toMatchObject({ Message: 'Thank you for telling me. What helps you relax?', SenderName: COACH.name, ProviderType: 'coach' });
  await expect(log).toContainText('Thank you for telling me. What helps you relax?');
  await expect(log.getByText('Sending…')).toHaveCount(0);

  // The patient sends a file (inline): the coach downloads it, the same bytes.
  const labResults = pdf(2_000, 'lab results');
  patient.socket.send({ action: 'sendMessage', Msg: labResults.toString('base64'), contentType: 'application/pdf', fileName: 'lab-results.pdf', clientMessageId: clientMessageId() });
  expect((await patient.socket.next('ack')).id).not.toBeNull();
  const download = log.getByRole('button', { name: /^Download lab-results\.pdf/ });
  await expect(download).toBeVisible();
  const [file] = await Promise.all([coach.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe('lab-results.pdf');
  expect((await readFile((await file.path())!)).equals(labResults)).toBe(true);
  await scan(coach);

  // The coach sends a file larger than the inline limit: in slices, "Sending attachment" meanwhile; the patient gets it whole.
  const carePlan = pdf(100_000, 'care plan');
  let chooser = coach.waitForEvent('filechooser');
  await panel.getByRole('button', { name: 'Attach a file' }).click();
  await (await chooser).setFiles({ name: 'care-plan.pdf', mimeType: 'application/pdf', buffer: carePlan });
  const received = await patient.socket.next('message', (m) => m.kind === 'file', 15_000);
  expect(received.file).toMatchObject({ name: 'care-plan.pdf', size: carePlan.length, content_type: 'application/pdf' });
  const bytes = await fetch(`${BASE_URL}/api/v1/chat/files/${received.file!.id}/`, { headers: { authorization: `Bearer ${patient.token}` } });
  expect(bytes.status).toBe(200);
  expect(Buffer.from(await bytes.arrayBuffer()).equals(carePlan)).toBe(true);
  await expect(log.getByRole('button', { name: /^Download care-plan\.pdf/ })).toBeVisible();
  await expect(panel.getByText(/Sending attachment/)).toHaveCount(0);

  // Over 5 MB: said in red, nothing sent.
  chooser = coach.waitForEvent('filechooser');
  await panel.getByRole('button', { name: 'Attach a file' }).click();
  await (await chooser).setFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: pdf(5_242_881, 'too large') });
  const tooLarge = panel.getByRole('alert').filter({ hasText: 'scan.pdf exceeds file size of 5MB' });
  await expect(tooLarge).toBeVisible();
  const [r, g, b] = (await tooLarge.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)!.map(Number);
  expect(r).toBeGreaterThan(150);
  expect(g! + b!).toBeLessThan(r!);

  // The coach ends the chat, once confirmed: the pane is read-only, the patient is told and let go.
  await panel.getByRole('button', { name: 'End chat' }).click();
  const confirm = coach.getByRole('dialog', { name: 'End the chat' });
  await expect(confirm).toContainText(`End the chat with ${PATIENT.name}?`);
  await confirm.getByRole('button', { name: 'End chat' }).click();
  const ended = await patient.socket.next('ended');
  expect(ended.SenderName).toBe(COACH.name);
  expect((await patient.socket.closed).code).toBe(4000);
  await expect(log).toContainText(`You ended the chat session at ${formatChatExitTime(ended.endedAt, TZ)}`);
  await expect(panel.getByRole('textbox', { name: 'Your Message' })).toHaveCount(0);
  await expect(coach.getByRole('tab', { name: `${PATIENT.name}, ended` })).toBeVisible();

  // Its past chats list it, with its transcript.
  const past = coach.getByRole('table', { name: 'Past chats' });
  const pastRow = past.getByRole('row', { name: new RegExp(PATIENT.name) }).first();
  await expect(pastRow).toContainText('Ended');
  await pastRow.getByRole('button', { name: /^View the chat with/ }).click();
  const transcript = coach.getByRole('dialog', { name: `Chat with ${PATIENT.name}` });
  await expect(transcript.getByRole('log')).toContainText('I have been feeling stressed at work.');
  await expect(transcript.getByRole('button', { name: /^Download care-plan\.pdf/ })).toBeVisible();
  await transcript.getByRole('button', { name: 'Close' }).click();
  await coach.context().close();
});

test('the patient leaves: the exit notice in local time, a read-only pane, and the patient’s previous chats at hand', async ({ browser }) => {
  const coach = await signedInPage(browser, COACH.email);
  await coach.goto('/healthbook/provider/chat');
  await expect(coach.getByRole('status').filter({ hasText: 'Chat connection: connected' })).toBeVisible();
  const patient = await patientJoins('loneliness');
  await expect(coach.getByRole('table', { name: 'Waiting patients' }).getByRole('row', { name: new RegExp(PATIENT.name) })).toContainText('Feeling lonely');
  await expect(coach.getByRole('status').filter({ hasText: '1 patient waiting' })).toBeVisible({ timeout: 90_000 });

  await coach.getByRole('button', { name: 'Take next patient' }).click();
  const panel = coach.getByRole('tabpanel', { name: PATIENT.name });
  const log = panel.getByRole('log', { name: `Messages with ${PATIENT.name}` });
  await expect(log).toContainText('How can I help you today');
  await expect(panel.getByRole('textbox', { name: 'Your Message' })).toBeEnabled();
  await scan(coach);

  // On a phone, a second patient waits and is taken: the console fits (nothing wider than the
  // screen), the new chat's tab is shown, and the first one's counts its new messages (nothing when none).
  await coach.setViewportSize({ width: 390, height: 844 });
  const other = await registeredPatient('console-unread');
  const otherName = `${other.first_name} ${other.last_name}`;
  const second = await patientJoins('stress', other);
  const otherRow = coach.getByRole('table', { name: 'Waiting patients' }).getByRole('row', { name: new RegExp(otherName) });
  await expect(otherRow).toBeVisible();
  const fits = async () => {
    const widths = await coach.evaluate(() => {
      const client = document.documentElement.clientWidth;
      // What is wider than the screen, or placed past its edge, named in the failure (outermost first).
      const wide = [...document.querySelectorAll('body *')]
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.width > client + 0.5 || (box.right > client + 0.5 && getComputedStyle(el).position === 'absolute');
        })
        .slice(0, 6)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${(el.textContent ?? '').slice(0, 40)}`);
      return { scroll: document.documentElement.scrollWidth, client, wide };
    });
    expect(widths.scroll, JSON.stringify(widths)).toBeLessThanOrEqual(widths.client);
  };
  await fits();
  await shot(coach, 'queue-390');
  await otherRow.getByRole('button', { name: `Take the chat with ${otherName}` }).click();
  await expect(coach.getByRole('tabpanel', { name: otherName }).getByRole('log')).toContainText('How can I help you today');
  const firstTab = coach.getByRole('tab', { name: new RegExp(`^${PATIENT.name}`) });
  await expect(firstTab).toHaveAccessibleName(PATIENT.name);
  await expect(firstTab.getByTestId('unread-count')).toHaveCount(0);
  for (const text of ['Are you still there?', 'I can wait.']) {
    patient.socket.send({ action: 'sendMessage', Msg: text, contentType: 'text/plain', clientMessageId: clientMessageId() });
    await patient.socket.next('ack');
  }
  await expect(firstTab).toHaveAccessibleName(`${PATIENT.name}, 2 new messages`);
  await expect(firstTab.getByTestId('unread-count')).toHaveText('2');
  await fits();
  await shot(coach, 'unread-390');
  await firstTab.click();
  await expect(log).toContainText('I can wait.');
  await expect(firstTab.getByTestId('unread-count')).toHaveCount(0);
  await expect(firstTab).toHaveAccessibleName(PATIENT.name);
  await fits();
  await scan(coach);
  await coach.setViewportSize({ width: 1366, height: 900 });
  second.socket.send({ action: 'endChat' });
  expect((await second.socket.closed).code).toBe(4000);

  // The chat of the first journey, from here.
  await panel.getByRole('button', { name: 'Previous chats' }).click();
  const previous = coach.getByRole('dialog', { name: `Previous chats with ${PATIENT.name}` });
  await previous.getByRole('button', { name: /^View the chat with/ }).first().click();
  // The same dialog shows that chat (named by it), with a way back to the list.
  const earlier = coach.getByRole('dialog', { name: new RegExp(`^Chat with ${PATIENT.name}, `) });
  await expect(earlier.getByRole('log')).toContainText('I have been feeling stressed at work.');
  await scan(coach);
  await earlier.getByRole('button', { name: 'Back to the list' }).click();
  await previous.getByRole('button', { name: 'Close' }).click();
  await expect(previous).toHaveCount(0);

  // The patient ends it.
  patient.socket.send({ action: 'endChat' });
  expect((await patient.socket.closed).code).toBe(4000);
  const transcript = await api<{ conversation: { ended_at: string; status: string } }>(`/api/v1/chat/conversations/${patient.details.conversation_id}/`, { token: patient.token });
  expect(transcript.body.conversation.status).toBe('ended');
  const endedAt = transcript.body.conversation.ended_at;
  await expect(log).toContainText(`${PATIENT.name} exited the chat session at ${formatChatExitTime(endedAt, TZ)}`);
  expect(formatChatExitTime(endedAt, TZ)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await expect(panel.getByRole('textbox', { name: 'Your Message' })).toHaveCount(0);
  await expect(panel.getByText('This chat has ended: it can be read but no longer written in.')).toBeVisible();
  await panel.getByRole('button', { name: `Close the chat with ${PATIENT.name}` }).click();
  await coach.getByRole('tabpanel', { name: otherName }).getByRole('button', { name: `Close the chat with ${otherName}` }).click();
  await expect(coach.getByText('You have no open chats. Take a patient from the queue to start one.')).toBeVisible();
  await coach.context().close();
});

test('the console is for staff: a patient is sent away, and a peer coach sees no telehealth provider pages', async ({ browser }) => {
  const patient = await signedInPage(browser, PATIENT.email);
  await expect(menu(patient).getByRole('link', { name: 'Chat console' })).toHaveCount(0);
  await patient.goto('/healthbook/provider/chat');
  await expect(patient).toHaveURL(/\/healthbook\/dashboard$/);
  await patient.context().close();

  const coach = await signedInPage(browser, COACH.email);
  const group = menu(coach).getByRole('list', { name: 'Peer coaching' });
  await expect(group.getByRole('link')).toHaveText(['Chat console']);
  for (const name of ['My availability', 'My appointments', 'My provider profile']) await expect(menu(coach).getByRole('link', { name })).toHaveCount(0);
  for (const page of ['availability', 'appointments', 'profile']) {
    await coach.goto(`/healthbook/provider/${page}`);
    await expect(coach).toHaveURL(/\/healthbook\/dashboard$/);
  }
  await coach.context().close();
});
