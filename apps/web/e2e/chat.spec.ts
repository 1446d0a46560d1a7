// Live Help: the patient's secure chat with a peer coach. The patient joins the queue from
// peer-coaching and waits (position 1); the coach takes them; greeting, texts both ways, a small
// PNG (inline) and a PDF over 32 KB (in slices) reach the coach; minimise and expand; the coach
// ends, the patient sees the exit notice in local time and the end screen; the past chats and
// the transcript. Then the wait that runs out (page.clock), and the dialog in Greek.
// The coach's side goes through the API and a socket (chat-staff.ts) until the console page exists.
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, registeredPatient, scan, signIn } from './accounts';
import { COACH_NAME, endOpenChat, openChatOf, StaffChat } from './chat-staff';

const PATIENT = 'patient@healthbook.example';
/** A tiny PNG (1×1, red). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
/** A PDF of a little over 40 KB: more than one frame can carry, so it goes in slices. */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.from(Array.from({ length: 800 }, (_, i) => `% padding line ${String(i).padStart(4, '0')} of a test document for the chat\n`).join('')),
  Buffer.from('1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
]);

// One demo patient and one coach: the journeys take turns.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const chatDialog = (page: Page, name: string | RegExp = 'Secure chat') => page.getByRole('dialog', { name });

/** The time as the patient's browser shows an instant: yyyy-MM-DD hh:mm, local. */
const localTime = (page: Page, iso: string) =>
  page.evaluate((at) => {
    const d = new Date(at);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  }, iso);

/** On peer-coaching: a peer coach, a reason, Start chat; the dialog opens on the Wait screen. */
async function joinQueue(page: Page, texts = { coach: 'Peer coach', reasonLabel: 'What would you like to talk about?', reason: 'Stress or anxiety', start: 'Start chat' }) {
  await page.getByRole('radio', { name: texts.coach }).check();
  await page.getByRole('combobox', { name: texts.reasonLabel }).click();
  await page.getByRole('option', { name: texts.reason }).click();
  await page.getByRole('button', { name: texts.start }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-help\/peer-coaching\/chat-in-progress$/);
}

test('a chat with a peer coach: queue, greeting, texts and files both ways, minimise, the coach ends, the end screen and the past chats', async ({ browser }) => {
  await endOpenChat(PATIENT);
  const patientContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await patientContext.newPage();
  const coach = await StaffChat.open();
  try {
    await signIn(page, PATIENT, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);

    // The dashboard's card and the help page lead to peer-coaching.
    await expect(page.getByRole('region', { name: 'Peer Coaching' })).toBeVisible();
    await page.goto('/healthbook/healthhelp');
    await expect(page.getByRole('link', { name: /Peer Coaching/ })).toBeVisible();
    await page.getByRole('link', { name: /Peer Coaching/ }).click();
    await expect(page).toHaveURL(/\/healthbook\/peer-coaching$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Peer Coaching' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start chat' })).toBeVisible();
    await scan(page);

    await joinQueue(page);
    const dialog = chatDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Your secure chat session will begin soon. You are in queue')).toBeVisible();
    await expect(dialog.getByTestId('queue-position')).toHaveText('1');
    await expect(page.getByRole('heading', { name: 'You have a chat in progress' })).toBeVisible();
    await scan(page);

    // The coach takes the patient: the greeting opens the Chat screen.
    const open = await openChatOf(PATIENT);
    expect(open?.status).toBe('queued');
    const conversationId = open!.conversation_id;
    await coach.take(conversationId);
    await expect(dialog.getByText(/How can I help you today\?/)).toBeVisible();
    await expect(dialog.getByText(COACH_NAME, { exact: true })).toBeVisible();
    await expect(dialog.getByText('Peer coach', { exact: true })).toBeVisible();
    const message = dialog.getByRole('textbox', { name: 'Your Message' });
    await expect(message).toBeEnabled();
    await scan(page);

    // Texts both ways: Enter sends, Shift+Enter is a new line, whitespace is not sent.
    await message.fill('   ');
    await message.press('Enter');
    await message.fill('Hello, I have been');
    await message.press('Shift+Enter');
    await message.pressSequentially('feeling stressed at work.');
    await message.press('Enter');
    await expect(message).toHaveValue('');
    await expect(dialog.getByRole('log').getByText('feeling stressed at work.')).toBeVisible();
    const fromPatient = await coach.next('message', (e) => e.conversationId === conversationId && e.kind === 'text');
    expect(fromPatient.Message).toBe('Hello, I have been\nfeeling stressed at work.');
    expect(fromPatient.me).toBe(false);
    expect(coach.events.filter((e) => e.type === 'message' && e.kind === 'text')).toHaveLength(1);

    coach.say(conversationId, 'Thank you for telling me. What happens at work?');
    await expect(dialog.getByText('Thank you for telling me. What happens at work?')).toBeVisible();

    // A small PNG (inline) and a PDF over 32 KB (slices): both reach the coach, byte for byte.
    const files = dialog.locator('input[type=file]');
    await files.setInputFiles({ name: 'rash.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog.getByRole('button', { name: 'Download rash.png' })).toBeVisible();
    const png = await coach.next('message', (e) => e.kind === 'file' && e.file?.name === 'rash.png');
    expect(png.file?.content_type).toBe('image/png');
    expect((await coach.file(png.file!.id)).equals(PNG)).toBe(true);

    expect(PDF.length).toBeGreaterThan(32_000);
    await files.setInputFiles({ name: 'work-letter.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(dialog.getByRole('button', { name: 'Download work-letter.pdf' })).toBeVisible();
    await expect(dialog.getByText('Sending attachment')).toHaveCount(0);
    const pdf = await coach.next('message', (e) => e.kind === 'file' && e.file?.name === 'work-letter.pdf');
    expect(pdf.file?.size).toBe(PDF.length);
    expect((await coach.file(pdf.file!.id)).equals(PDF)).toBe(true);
    // The file can be downloaded from the dialog too.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download work-letter.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('work-letter.pdf');

    // Minimise and expand: the chat goes on meanwhile.
    await dialog.getByRole('button', { name: 'Minimize' }).click();
    await expect(message).toBeHidden();
    coach.say(conversationId, 'Take your time.');
    await expect(dialog.getByText('1 new message')).toBeVisible();
    await dialog.getByRole('button', { name: 'Expand' }).click();
    await expect(message).toBeVisible();
    await expect(dialog.getByText('Take your time.')).toBeVisible();

    // The dialog stays across pages.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    await expect(dialog.getByText('Take your time.')).toBeVisible();

    // The coach ends: the exit notice in the patient's local time, then the end screen.
    const endedAt = await coach.end(conversationId);
    const time = await localTime(page, endedAt);
    await expect(dialog.getByText(`${COACH_NAME} exited the chat session at ${time}`)).toBeVisible();
    await expect(dialog.getByText('This chat has ended.')).toBeVisible();
    await expect(message).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Close the chat' }).click();
    await expect(page).toHaveURL(/\/healthbook\/chat\/end-secure-chat-screen$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your chat has ended' })).toBeVisible();
    await expect(chatDialog(page)).toHaveCount(0);
    expect(await page.evaluate(() => sessionStorage.getItem('chatInProgress'))).toBeNull();
    await scan(page);

    // The past chats: this one, with its transcript, its files downloadable and savable.
    await page.getByRole('link', { name: 'See your past chats' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Past chats' })).toBeVisible();
    const row = page.getByRole('listitem').filter({ hasText: `${COACH_NAME}, Peer coach` }).first();
    await expect(row.getByText('Stress or anxiety')).toBeVisible();
    await expect(row.getByText('Ended')).toBeVisible();
    await scan(page);
    await row.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: /^Chat of / })).toBeVisible();
    await expect(page.getByText('Thank you for telling me. What happens at work?')).toBeVisible();
    await expect(page.getByText(`${COACH_NAME} exited the chat session at ${time}`)).toBeVisible();
    await expect(page.getByRole('textbox')).toHaveCount(0);
    const again = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download rash.png' }).click();
    expect((await again).suggestedFilename()).toBe('rash.png');
    await page.getByRole('button', { name: 'Save work-letter.pdf to the Document Center' }).click();
    await expect(page.getByText('Saved to your Document Center')).toBeVisible();
    await scan(page);
  } finally {
    coach.close();
    await patientContext.close();
  }
});

test('nobody answers within 10 minutes: the Wait screen says a provider cannot respond, and the patient leaves the queue', async ({ browser }) => {
  const user = await registeredPatient('chat-wait');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  try {
    await page.clock.install();
    await signIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    await page.goto('/healthbook/peer-coaching');
    await joinQueue(page);
    const dialog = chatDialog(page);
    await expect(dialog.getByTestId('queue-position')).toHaveText(/^\d+$/);
    expect((await openChatOf(user.email, user.password))?.status).toBe('queued');

    // Ten minutes of silence (the patient moves the mouse halfway, so the session's own idle alert stays shut).
    await page.clock.fastForward('05:00');
    await page.mouse.move(200, 200);
    await page.clock.fastForward('05:00');
    await expect(dialog.getByText("We're sorry, a provider is not able to respond at the moment. Please try again later.")).toBeVisible();
    await expect(dialog.getByTestId('queue-position')).toHaveCount(0);
    await expect.poll(() => openChatOf(user.email, user.password)).toBeNull();
    await scan(page);

    await dialog.getByRole('button', { name: 'Close Chat' }).click();
    await expect(page).toHaveURL(/\/healthbook\/chat\/end-secure-chat-screen$/);
  } finally {
    await context.close();
  }
});

test('the dialog in Greek: the Wait screen, the Chat screen, a file too large, the end', async ({ browser }) => {
  const user = await registeredPatient('chat-el');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'el-GR' });
  const page = await context.newPage();
  const coach = await StaffChat.open();
  try {
    await page.goto('/healthbook/login');
    await page.locator('input[type=email]').fill(user.email);
    await page.locator('input[autocomplete=current-password]').fill(user.password);
    await page.locator('form button[type=submit]').click();
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    await page.goto('/healthbook/peer-coaching');
    await expect(page.getByRole('heading', { level: 1, name: 'Συμβουλευτική ομοτίμων' })).toBeVisible();
    await joinQueue(page, { coach: 'Σύμβουλος ομοτίμων', reasonLabel: 'Για ποιο θέμα θέλετε να μιλήσετε;', reason: 'Άγχος ή στρες', start: 'Έναρξη συνομιλίας' });

    const dialog = chatDialog(page, 'Ασφαλής συνομιλία');
    await expect(dialog.getByText('Η ασφαλής συνομιλία σας θα ξεκινήσει σύντομα. Βρίσκεστε σε αναμονή')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Ελαχιστοποίηση' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Κλείσιμο συνομιλίας' })).toBeVisible();
    await scan(page);

    const open = await openChatOf(user.email, user.password);
    await coach.take(open!.conversation_id);
    await expect(dialog.getByText(/Πώς μπορώ να σας βοηθήσω σήμερα;/)).toBeVisible();
    await expect(dialog.getByText('Σύμβουλος ομοτίμων', { exact: true })).toBeVisible();
    const message = dialog.getByRole('textbox', { name: 'Το μήνυμά σας' });
    await expect(message).toBeEnabled();
    await expect(dialog.getByRole('button', { name: 'Αποστολή' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Επισύναψη PDF ή εικόνας' })).toBeEnabled();

    // Over 5 MB: not sent, said in red.
    await dialog.locator('input[type=file]').setInputFiles({ name: 'σάρωση.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5_242_881)]) });
    const tooLarge = dialog.getByText('Το σάρωση.pdf υπερβαίνει το μέγεθος αρχείου των 5MB');
    await expect(tooLarge).toBeVisible();
    expect(await tooLarge.evaluate((el) => getComputedStyle(el).color)).toMatch(/^rgb\((19[0-9]|2\d\d), \d{1,2}, \d{1,2}\)$/);
    await scan(page);

    await message.fill('Γεια σας');
    await message.press('Enter');
    await coach.next('message', (e) => e.Message === 'Γεια σας');

    // The patient ends the chat: the end screen, in Greek.
    await dialog.getByRole('button', { name: 'Κλείσιμο συνομιλίας' }).click();
    await expect(page).toHaveURL(/\/healthbook\/chat\/end-secure-chat-screen$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Η συνομιλία σας ολοκληρώθηκε' })).toBeVisible();
    const exit = await coach.next('ended', (e) => e.conversationId === open!.conversation_id);
    expect(exit.reason).toBe('patient');
    await scan(page);
  } finally {
    coach.close();
    await context.close();
  }
});
