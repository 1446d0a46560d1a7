// Live Help: the patient's secure chat with a peer coach, both sides in their own browser: the
// demo patient joins the queue from peer-coaching and waits (position 1); the demo coach takes
// them in the chat console (provider/chat); greeting, texts both ways, a small PNG (inline) and a
// PDF over 32 KB (in slices) reach the coach, a file from the console's attachment picker reaches
// the patient, an image shown inline on both sides; the X asks before it ends the chat; minimise
// and expand; signing out and in again mid-chat lands back in it; the coach ends from the console, the patient sees the exit
// notice in local time and the end screen; the past chats and the transcript. Then the wait that
// runs out (page.clock), the dialog in Greek, and a chat in Greek on both sides.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, apiLogin, DEMO_PASSWORD, registeredPatient, landing, scan, signIn, signOut } from './accounts';

const PATIENT = { email: 'patient@healthbook.example', name: 'Maria Papadopoulou' };
const COACH = { email: 'coach@healthbook.example', name: 'Sofia Antoniou' };
/** The patient's time zone: the exit notice is in the patient's local time. */
const TZ = 'Europe/Athens';
/** A tiny PNG (1×1, red). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
/** A PDF of a little over 40 KB: more than one frame can carry, so it goes in slices. */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.from(Array.from({ length: 800 }, (_, i) => `% padding line ${String(i).padStart(4, '0')} of a test document for the chat\n`).join('')),
  Buffer.from('1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
]);
/** The coach's file: a small PDF. */
const CARE_PLAN = Buffer.from('%PDF-1.4\n% care plan\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

// One demo patient and one coach: the journeys take turns.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const chatDialog = (page: Page, name: string | RegExp = 'Secure chat') => page.getByRole('dialog', { name });

/** With E2E_SHOTS_DIR set, a screenshot of the page as checked (to look at it). */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: path.join(process.env.E2E_SHOTS_DIR, `chat-${name}.png`) });
}

/** An image is drawn (loaded, with its own size), not merely in the page. */
const drawn = (image: ReturnType<Page['getByRole']>) => expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

/** The console's words the journeys use, in each language. */
const CONSOLE = {
  en: {
    connected: 'Chat connection: connected',
    queue: 'Waiting patients',
    take: (name: string) => `Take the chat with ${name}`,
    messagesWith: (name: string) => `Messages with ${name}`,
    message: 'Your Message',
    attach: 'Attach a file',
    end: 'End chat',
    endTitle: 'End the chat',
    endConfirm: 'End chat',
    youEnded: 'You ended the chat session at',
  },
  el: {
    connected: 'Σύνδεση συνομιλίας: συνδεδεμένη',
    queue: 'Ασθενείς σε αναμονή',
    take: (name: string) => `Ανάληψη της συνομιλίας με ${name}`,
    messagesWith: (name: string) => `Μηνύματα με ${name}`,
    message: 'Το μήνυμά σας',
    attach: 'Επισύναψη αρχείου',
    end: 'Τερματισμός συνομιλίας',
    endTitle: 'Τερματισμός της συνομιλίας',
    endConfirm: 'Τερματισμός',
    youEnded: 'Τερματίσατε τη συνομιλία στις',
  },
} as const;
type Lang = keyof typeof CONSOLE;

/** A browser context of one's own, signed in; in Greek the language is switched on the sign-in page, as a user does. */
async function signedIn(browser: Browser, email: string, password: string, lang: Lang = 'en', viewport = { width: 1366, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: TZ, acceptDownloads: true });
  const page = await context.newPage();
  if (lang === 'el') {
    await page.goto('/healthbook/login');
    await page.getByRole('button', { name: 'Ελληνικά' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await page.locator('input[type=email]').fill(email);
    await page.locator('input[autocomplete=current-password]').fill(password);
    await page.locator('form button[type=submit]').click();
  } else {
    await signIn(page, email, password);
  }
  await expect(page).toHaveURL(landing(email));
  return page;
}

/** The demo coach on the chat console, its socket connected. */
async function openConsole(browser: Browser, lang: Lang = 'en'): Promise<Page> {
  const coach = await signedIn(browser, COACH.email, DEMO_PASSWORD, lang);
  await coach.goto('/healthbook/provider/chat');
  await expect(coach.getByRole('status').filter({ hasText: CONSOLE[lang].connected })).toBeVisible();
  return coach;
}

/** The coach takes the waiting patient from the console's queue: their pane, its message log and its field. */
async function takeInConsole(coach: Page, patientName: string, lang: Lang = 'en') {
  const words = CONSOLE[lang];
  const row = coach.getByRole('table', { name: words.queue }).getByRole('row', { name: new RegExp(patientName) });
  await row.getByRole('button', { name: words.take(patientName) }).click();
  const panel = coach.getByRole('tabpanel', { name: patientName });
  return { panel, log: panel.getByRole('log', { name: words.messagesWith(patientName) }), field: panel.getByRole('textbox', { name: words.message }) };
}

/** The coach ends the chat from its pane, once confirmed; the pane turns read-only. */
async function endInConsole(coach: Page, pane: Awaited<ReturnType<typeof takeInConsole>>, lang: Lang = 'en') {
  const words = CONSOLE[lang];
  await pane.panel.getByRole('button', { name: words.end }).click();
  await coach.getByRole('dialog', { name: words.endTitle }).getByRole('button', { name: words.endConfirm }).click();
  await expect(pane.log).toContainText(words.youEnded);
  await expect(pane.field).toHaveCount(0);
}

/** The patient's open chat (GET /api/v1/chat/current/), as the patient's own client sees it. */
async function openChatOf(email: string, password = DEMO_PASSWORD): Promise<{ conversation_id: number; status: string } | null> {
  const token = await apiLogin(email, password);
  const current = await api<{ chat: { conversation_id: number; status: string } | null }>('/api/v1/chat/current/', { token });
  expect(current.status).toBe(200);
  return current.body.chat;
}

/** When the patient's chat ended (ISO), from its transcript as the patient reads it. */
async function endedAtOf(email: string, conversationId: number, password = DEMO_PASSWORD): Promise<string> {
  const token = await apiLogin(email, password);
  const transcript = await api<{ conversation: { ended_at: string | null; status: string } }>(`/api/v1/chat/conversations/${conversationId}/`, { token });
  expect(transcript.status).toBe(200);
  expect(transcript.body.conversation.status).toBe('ended');
  return transcript.body.conversation.ended_at!;
}

/** The time as the patient's browser shows an instant: yyyy-MM-DD hh:mm, local. */
const localTime = (page: Page, iso: string) =>
  page.evaluate((at) => {
    const d = new Date(at);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  }, iso);

const JOIN = {
  en: { coach: 'Peer coach', reasonLabel: 'What would you like to talk about?', reason: 'Stress or anxiety', start: 'Start chat' },
  el: { coach: 'Σύμβουλος ομοτίμων', reasonLabel: 'Για ποιο θέμα θέλετε να μιλήσετε;', reason: 'Άγχος ή στρες', start: 'Έναρξη συνομιλίας' },
};

/** On peer-coaching: a peer coach, a reason, Start chat; the dialog opens on the Wait screen. */
async function joinQueue(page: Page, texts: (typeof JOIN)[Lang] = JOIN.en) {
  await page.getByRole('radio', { name: texts.coach }).check();
  await page.getByRole('combobox', { name: texts.reasonLabel }).click();
  await page.getByRole('option', { name: texts.reason }).click();
  await page.getByRole('button', { name: texts.start }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-help\/peer-coaching\/chat-in-progress$/);
}

/** Ends whatever chat the demo patient has open (left over from an earlier attempt). */
async function endOpenChat(email: string, password = DEMO_PASSWORD): Promise<void> {
  const token = await apiLogin(email, password);
  await api('/api/v1/peercoaching/endchat/', { body: {}, token });
}

test('a chat with a peer coach: queue, greeting, texts and files both ways, minimise, the coach ends, the end screen and the past chats', async ({ browser }) => {
  await endOpenChat(PATIENT.email);
  const page = await signedIn(browser, PATIENT.email, DEMO_PASSWORD);
  const coach = await openConsole(browser);
  try {
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

    // The coach sees the patient in the console's queue and takes them: the greeting opens the Chat screen.
    const open = await openChatOf(PATIENT.email);
    expect(open?.status).toBe('queued');
    const pane = await takeInConsole(coach, PATIENT.name);
    await expect(pane.panel.getByText('Reason: Stress or anxiety')).toBeVisible();
    await expect(pane.log).toContainText('How can I help you today');
    await expect(dialog.getByText(/How can I help you today\?/)).toBeVisible();
    await expect(dialog.getByText(COACH.name, { exact: true })).toBeVisible();
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
    await expect(pane.log).toContainText('Hello, I have been');
    await expect(pane.log).toContainText('feeling stressed at work.');
    // One text reached the coach (the whitespace did not): the greeting and it.
    await expect(pane.log.getByText(/feeling stressed at work\./)).toHaveCount(1);

    await pane.field.fill('Thank you for telling me. What happens at work?');
    await pane.field.press('Enter');
    await expect(pane.field).toHaveValue('');
    await expect(dialog.getByText('Thank you for telling me. What happens at work?')).toBeVisible();

    // A small PNG (inline) and a PDF over 32 KB (slices): both reach the coach, byte for byte.
    const files = dialog.locator('input[type=file]');
    await files.setInputFiles({ name: 'rash.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog.getByRole('button', { name: 'Download rash.png' })).toBeVisible();
    const pngButton = pane.log.getByRole('button', { name: /^Download rash\.png/ });
    await expect(pngButton).toBeVisible();
    // The image shows inline on both sides (fetched with the session), and stays a download.
    await drawn(dialog.getByRole('img', { name: 'rash.png' }));
    await drawn(pane.log.getByRole('img', { name: 'rash.png' }));
    await shot(coach, 'console-image-1366');
    const [png] = await Promise.all([coach.waitForEvent('download'), pngButton.click()]);
    expect(png.suggestedFilename()).toBe('rash.png');
    expect((await readFile((await png.path())!)).equals(PNG)).toBe(true);

    expect(PDF.length).toBeGreaterThan(32_000);
    await files.setInputFiles({ name: 'work-letter.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(dialog.getByRole('button', { name: 'Download work-letter.pdf' })).toBeVisible();
    await expect(dialog.getByText('Sending attachment')).toHaveCount(0);
    const pdfButton = pane.log.getByRole('button', { name: /^Download work-letter\.pdf/ });
    await expect(pdfButton).toBeVisible();
    const [pdf] = await Promise.all([coach.waitForEvent('download'), pdfButton.click()]);
    expect(pdf.suggestedFilename()).toBe('work-letter.pdf');
    expect((await readFile((await pdf.path())!)).equals(PDF)).toBe(true);
    // The file can be downloaded from the dialog too.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download work-letter.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('work-letter.pdf');

    // The coach sends a file from the console's attachment picker: the patient gets it, byte for byte.
    const chooser = coach.waitForEvent('filechooser');
    await pane.panel.getByRole('button', { name: 'Attach a file' }).click();
    await (await chooser).setFiles({ name: 'care-plan.pdf', mimeType: 'application/pdf', buffer: CARE_PLAN });
    await expect(pane.log.getByRole('button', { name: /^Download care-plan\.pdf/ })).toBeVisible();
    const carePlanButton = dialog.getByRole('button', { name: 'Download care-plan.pdf' });
    await expect(carePlanButton).toBeVisible();
    const [carePlan] = await Promise.all([page.waitForEvent('download'), carePlanButton.click()]);
    expect(carePlan.suggestedFilename()).toBe('care-plan.pdf');
    expect((await readFile((await carePlan.path())!)).equals(CARE_PLAN)).toBe(true);
    await scan(coach);

    // The X asks before it ends the chat; "Keep chatting" leaves it as it was.
    await dialog.getByRole('button', { name: 'Close Chat' }).click();
    const ask = page.getByRole('dialog', { name: 'End this chat?' });
    await expect(ask).toContainText(`The chat with ${COACH.name} will end`);
    await shot(page, 'end-ask-1366');
    await scan(page);
    await ask.getByRole('button', { name: 'Keep chatting' }).click();
    await expect(ask).toHaveCount(0);
    await expect(message).toBeEnabled();

    // Minimise and expand (one click each): the chat goes on meanwhile.
    await dialog.getByRole('button', { name: 'Minimize' }).click();
    await expect(message).toBeHidden();
    await pane.field.fill('Take your time.');
    await pane.field.press('Enter');
    await expect(dialog.getByText('1 new message')).toBeVisible();
    await dialog.getByRole('button', { name: 'Expand' }).click();
    await expect(message).toBeVisible();
    await expect(dialog.getByText('Take your time.')).toBeVisible();

    // The dialog stays across pages.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    await expect(dialog.getByText('Take your time.')).toBeVisible();

    // Signing out and in again mid-chat: back in the chat (asked of the server), its messages so far, still with the coach.
    await signOut(page);
    await signIn(page, PATIENT.email, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    await expect(dialog.getByText('Take your time.')).toBeVisible();
    await expect(dialog.getByText(COACH.name, { exact: true })).toBeVisible();
    await expect(message).toBeEnabled();
    await message.fill('I am back.');
    await message.press('Enter');
    await expect(pane.log).toContainText('I am back.');
    await drawn(dialog.getByRole('img', { name: 'rash.png' }));
    await shot(page, 'back-1366');

    // The coach ends from the console: the exit notice in the patient's local time, then the end screen.
    await endInConsole(coach, pane);
    const time = await localTime(page, await endedAtOf(PATIENT.email, open!.conversation_id));
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await expect(dialog.getByText(`${COACH.name} exited the chat session at ${time}`)).toBeVisible();
    await expect(dialog.getByText('This chat has ended.')).toBeVisible();
    await expect(message).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Close the chat' }).click();
    await expect(page).toHaveURL(/\/healthbook\/chat\/end-secure-chat-screen$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your chat has ended' })).toBeVisible();
    await expect(chatDialog(page)).toHaveCount(0);
    await scan(page);

    // The past chats: this one, with its transcript, its files downloadable and savable.
    await page.getByRole('link', { name: 'See your past chats' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Past chats' })).toBeVisible();
    const row = page.getByRole('listitem').filter({ hasText: `${COACH.name}, Peer coach` }).first();
    await expect(row.getByText('Stress or anxiety')).toBeVisible();
    await expect(row.getByText('Ended')).toBeVisible();
    await scan(page);
    await row.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: /^Chat of / })).toBeVisible();
    await expect(page.getByText('Thank you for telling me. What happens at work?')).toBeVisible();
    await expect(page.getByText(`${COACH.name} exited the chat session at ${time}`)).toBeVisible();
    await expect(page.getByRole('textbox')).toHaveCount(0);
    const again = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download rash.png' }).click();
    expect((await again).suggestedFilename()).toBe('rash.png');
    await page.getByRole('button', { name: 'Save work-letter.pdf to the Document Center' }).click();
    await expect(page.getByText('Saved to your Document Center')).toBeVisible();
    await scan(page);
  } finally {
    await coach.context().close();
    await page.context().close();
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

test('the dialog in Greek: the Wait screen, the Chat screen, a file too large, the patient ends', async ({ browser }) => {
  const user = await registeredPatient('chat-el');
  const name = `${user.first_name} ${user.last_name}`;
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'el-GR' });
  const page = await context.newPage();
  const coach = await openConsole(browser);
  try {
    await page.goto('/healthbook/login');
    await page.locator('input[type=email]').fill(user.email);
    await page.locator('input[autocomplete=current-password]').fill(user.password);
    await page.locator('form button[type=submit]').click();
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    await page.goto('/healthbook/peer-coaching');
    await expect(page.getByRole('heading', { level: 1, name: 'Συμβουλευτική ομοτίμων' })).toBeVisible();
    await joinQueue(page, JOIN.el);

    const dialog = chatDialog(page, 'Ασφαλής συνομιλία');
    await expect(dialog.getByText('Η ασφαλής συνομιλία σας θα ξεκινήσει σύντομα. Βρίσκεστε σε αναμονή')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Ελαχιστοποίηση' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Κλείσιμο συνομιλίας' })).toBeVisible();
    await scan(page);

    const pane = await takeInConsole(coach, name);
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
    await expect(pane.log).toContainText('Γεια σας');
    await expect(pane.log).not.toContainText('σάρωση.pdf');
    await dialog.locator('input[type=file]').setInputFiles({ name: 'εξάνθημα.png', mimeType: 'image/png', buffer: PNG });
    await drawn(dialog.getByRole('img', { name: 'εξάνθημα.png' }));
    await shot(page, 'image-el-390');

    // The patient ends the chat, once confirmed: the end screen, in Greek; the coach's pane says so and turns read-only.
    await dialog.getByRole('button', { name: 'Κλείσιμο συνομιλίας' }).click();
    const ask = page.getByRole('dialog', { name: 'Να τερματιστεί η συνομιλία;' });
    await expect(ask.getByRole('button', { name: 'Συνέχεια συνομιλίας' })).toBeVisible();
    await shot(page, 'end-ask-el-390');
    await scan(page);
    await ask.getByRole('button', { name: 'Τερματισμός' }).click();
    await expect(page).toHaveURL(/\/healthbook\/chat\/end-secure-chat-screen$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Η συνομιλία σας ολοκληρώθηκε' })).toBeVisible();
    await expect(pane.log).toContainText(`${name} exited the chat session at`);
    await expect(pane.field).toHaveCount(0);
    await scan(page);
  } finally {
    await coach.context().close();
    await context.close();
  }
});

test('a chat in Greek on both sides: the coach’s console and the patient’s dialog, a message each way, the coach ends', async ({ browser }) => {
  const user = await registeredPatient('chat-el-both');
  const name = `${user.first_name} ${user.last_name}`;
  const page = await signedIn(browser, user.email, user.password, 'el');
  const coach = await openConsole(browser, 'el');
  try {
    await expect(coach.getByRole('heading', { level: 1, name: 'Κονσόλα συνομιλιών' })).toBeVisible();
    await page.goto('/healthbook/peer-coaching');
    await joinQueue(page, JOIN.el);
    const dialog = chatDialog(page, 'Ασφαλής συνομιλία');
    await expect(dialog.getByText('Η ασφαλής συνομιλία σας θα ξεκινήσει σύντομα. Βρίσκεστε σε αναμονή')).toBeVisible();
    const open = await openChatOf(user.email, user.password);

    // In the Greek console: the queue, the reason in Greek, Take.
    const row = coach.getByRole('table', { name: CONSOLE.el.queue }).getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Άγχος ή στρες');
    const pane = await takeInConsole(coach, name, 'el');
    await expect(pane.panel.getByText('Αιτία: Άγχος ή στρες')).toBeVisible();
    await expect(dialog.getByText(/Πώς μπορώ να σας βοηθήσω σήμερα;/)).toBeVisible();
    await scan(coach);

    // A message each way.
    const message = dialog.getByRole('textbox', { name: 'Το μήνυμά σας' });
    await message.fill('Καλημέρα, νιώθω άγχος στη δουλειά.');
    await message.press('Enter');
    await expect(pane.log).toContainText('Καλημέρα, νιώθω άγχος στη δουλειά.');
    await pane.field.fill('Ευχαριστώ που μου το λέτε. Τι συμβαίνει στη δουλειά;');
    await pane.field.press('Enter');
    await expect(dialog.getByText('Ευχαριστώ που μου το λέτε. Τι συμβαίνει στη δουλειά;')).toBeVisible();
    await scan(page);
    await shot(coach, 'console-el-1366');

    // The Greek console on a phone: nothing wider than the screen.
    await coach.setViewportSize({ width: 390, height: 844 });
    await expect(pane.field).toBeVisible();
    const widths = await coach.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll, JSON.stringify(widths)).toBeLessThanOrEqual(widths.client);
    await shot(coach, 'console-el-390');
    await coach.setViewportSize({ width: 1366, height: 900 });

    // The coach ends, in Greek; the patient is told in Greek, at the local time.
    await endInConsole(coach, pane, 'el');
    const time = await localTime(page, await endedAtOf(user.email, open!.conversation_id, user.password));
    await expect(dialog.getByText(`${COACH.name} αποχώρησε από τη συνομιλία στις ${time}`)).toBeVisible();
    await expect(dialog.getByText('Αυτή η συνομιλία ολοκληρώθηκε.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Κλείσιμο της συνομιλίας' }).click();
    await expect(page).toHaveURL(/\/healthbook\/chat\/end-secure-chat-screen$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Η συνομιλία σας ολοκληρώθηκε' })).toBeVisible();
  } finally {
    await coach.context().close();
    await page.context().close();
  }
});
