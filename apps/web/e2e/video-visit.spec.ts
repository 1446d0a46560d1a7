// Video visits (issue 29) between two real Chromium browsers with made-up cameras and microphones:
// a new provider has an appointment starting in two minutes with a new patient; the patient joins
// from the dashboard's card, checks the camera and microphone and waits; the provider opens the
// waiting room from the console and lets them in; both see the other's video (frames decoded, read
// through getStats) and receive sound; mute and camera off reach the other side; the provider ends
// the visit and the appointment shows its length. Again through the TURN relay only (coturn,
// started beside the product by e2e/start-server.ts, with the server's credentials), in Greek on a
// phone; and with the camera refused, the explanation. Every new page passes the axe scan.
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN, BASE_URL, DEMO_PASSWORD, api, apiLogin, linkParams, mailLink, registeredPatient, scan, signIn, uniqueEmail, uniqueName } from './accounts';
import { ALLOW_MEDIA_PROMPT, CHROMIUM, FAKE_MEDIA_DEVICES } from './chromium';
import { waitForMail } from './mailbox';

test.describe.configure({ timeout: 240_000 });
test.use({ launchOptions: { ...CHROMIUM, args: [...CHROMIUM.args, FAKE_MEDIA_DEVICES, ALLOW_MEDIA_PROMPT] } });

interface Booked {
  slot: number;
  patient: { email: string; password: string; name: string };
  provider: { email: string; password: string; name: string };
}

/** HH:MM and YYYY-MM-DD of an instant in a zone. */
const wall = (at: Date, timeZone: string) => {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
};

/**
 * A provider of their own (no other journey touches their schedule), speaking `language`, with one
 * 30-minute slot starting at the next minute but one, booked by a new patient: its visit can be
 * joined at once.
 */
async function appointmentStartingNow(prefix: string, language: 'en' | 'el' = 'en'): Promise<Booked> {
  const admin = await apiLogin(ADMIN, DEMO_PASSWORD);
  const provider = { email: uniqueEmail(`${prefix}-doc`), password: 'Video#Visit2026', first: uniqueName('Iris'), last: 'Videodoc' };
  const invited = await api('/api/v1/admin/people/staff/', { token: admin, body: { first_name: provider.first, last_name: provider.last, email: provider.email, role: 'provider', speciality: 'General practice', language } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const setup = await api('/api/v1/account_setup/', { body: { ...linkParams(mailLink(await waitForMail(provider.email, /choose your password|επιλέξτε συνθηματικό/))), password: provider.password } });
  expect(setup.status, JSON.stringify(setup.body)).toBeLessThan(300);
  const providerToken = await apiLogin(provider.email, provider.password);

  // An exception today, in a zone where its half hour does not cross midnight.
  const start = new Date(Math.ceil((Date.now() + 90_000) / 60_000) * 60_000);
  const end = new Date(start.getTime() + 30 * 60_000);
  const timezone = ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles'].find((tz) => wall(start, tz).day === wall(end, tz).day)!;
  const from = wall(start, timezone);
  const schedule = await api('/api/v1/provider/me/schedule/', {
    method: 'PUT',
    token: providerToken,
    body: { slot_minutes: 30, timezone, weekly: [], exceptions: [{ date: from.day, start: from.time, end: wall(end, timezone).time }] },
  });
  expect(schedule.status, JSON.stringify(schedule.body)).toBe(200);

  const patient = await registeredPatient(prefix);
  const token = await apiLogin(patient.email, patient.password);
  const providers = await api<Array<{ provider_id: number; provider_name: string }>>('/api/v1/provider/list/', { method: 'GET', token });
  const providerId = providers.body.find((p) => p.provider_name === `${provider.first} ${provider.last}`)!.provider_id;
  const free = await api<{ slots: Array<{ availability_det_id: number; start_time: string }> }>(`/api/v1/provider/${providerId}/availability/?start=${from.day}&end=${from.day}&tz=${encodeURIComponent(timezone)}`, { method: 'GET', token });
  const slot = free.body.slots.find((s) => Date.parse(s.start_time) === start.getTime())!;
  const booked = await api('/api/v1/provider/book_appointment/', { token, body: { provider_id: providerId, availability_det_id: slot.availability_det_id, reason_for_visit: 'Rash on the arm' } });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  return {
    slot: slot.availability_det_id,
    patient: { email: patient.email, password: patient.password, name: `${patient.first_name} ${patient.last_name}` },
    provider: { email: provider.email, password: provider.password, name: `${provider.first} ${provider.last}` },
  };
}

/**
 * Keeps the page's peer connections where the test can read their statistics, and, for `relay`,
 * makes them use only TURN relays (as `iceTransportPolicy: 'relay'` does).
 */
const trackPeerConnections = (relay: boolean) => `(() => {
  const Native = window.RTCPeerConnection;
  window.__pcs = [];
  window.RTCPeerConnection = class extends Native {
    constructor(config) {
      super(${relay ? "{ ...config, iceTransportPolicy: 'relay' }" : 'config'});
      window.__pcs.push(this);
    }
  };
})();`;

/** Video frames decoded and audio packets received over the page's open peer connections, and whether the pair in use is relayed. */
function received(page: Page) {
  return page.evaluate(async () => {
    const result = { frames: 0, audioPackets: 0, relayed: false, servers: 0 };
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      if (pc.connectionState === 'closed') continue;
      result.servers = Math.max(result.servers, pc.getConfiguration().iceServers?.length ?? 0);
      const stats = await pc.getStats();
      stats.forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') result.frames += Number(s.framesDecoded ?? 0);
        if (s.type === 'inbound-rtp' && s.kind === 'audio') result.audioPackets += Number(s.packetsReceived ?? 0);
        if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') {
          const local = stats.get(String(s.localCandidateId)) as { candidateType?: string } | undefined;
          if (local?.candidateType === 'relay') result.relayed = true;
        }
      });
    }
    return result;
  });
}

/** A signed-in browser context of one side; in Greek, switched after signing in (signIn reads the English page). */
async function newSide(browser: Browser, who: { email: string; password: string }, options: { relay: boolean; locale: 'en' | 'el'; phone?: boolean }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: options.phone ? { width: 390, height: 844 } : { width: 1366, height: 900 }, locale: 'en-US', timezoneId: 'Europe/Athens' });
  await context.addInitScript(trackPeerConnections(options.relay));
  const page = await context.newPage();
  await signIn(page, who.email, who.password);
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  if (options.locale === 'el') {
    await page.evaluate(() => localStorage.setItem('language', 'el'));
    await page.reload();
  }
  return { context, page };
}

test('the patient waits, the provider lets them in, both see and hear each other, mute and camera off reach the other side, the provider ends it', async ({ browser }) => {
  const booked = await appointmentStartingNow('visit');
  const { page: patient } = await newSide(browser, booked.patient, { relay: false, locale: 'en' });
  const { page: provider } = await newSide(browser, booked.provider, { relay: false, locale: 'en' });

  // The patient: "Join video visit" on the dashboard's card, then the device check.
  await expect(patient).toHaveURL(/\/healthbook\/dashboard$/);
  const card = patient.locator('section').filter({ has: patient.getByRole('heading', { name: 'Upcoming appointments' }) });
  await card.getByRole('link', { name: 'Join video visit' }).click();
  await expect(patient).toHaveURL(new RegExp(`/healthbook/video-visit\\?slot=${booked.slot}$`));
  await expect(patient.getByRole('heading', { level: 1, name: `Video visit with ${booked.provider.name}` })).toBeVisible();
  await expect(patient.getByRole('heading', { name: 'Check your camera and microphone' })).toBeVisible();
  await expect(patient.getByRole('combobox', { name: 'Camera' })).toBeVisible();
  // The fake microphone beeps: the level meter moves.
  await expect.poll(async () => Number(await patient.getByRole('progressbar', { name: 'Microphone level' }).getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(0);
  await scan(patient);
  await patient.getByRole('button', { name: 'Join video visit' }).click();
  await expect(patient.getByText(`${booked.provider.name} will let you in`)).toBeVisible();
  await scan(patient);

  // The provider: "Start visit" in the console, the waiting room, "Let them in".
  await expect(provider).toHaveURL(/\/healthbook\/provider\/appointments$/);
  await provider.getByRole('link', { name: new RegExp(`^Start the video visit with ${booked.patient.name}`) }).click();
  await provider.getByRole('button', { name: 'Go to the waiting room' }).click();
  await expect(provider.getByText(`${booked.patient.name} is waiting`)).toBeVisible();
  await scan(provider);
  const admittedAt = Date.now();
  await provider.getByRole('button', { name: 'Let them in' }).click();

  // Both see the other's video playing and receive sound.
  for (const side of [patient, provider]) await expect.poll(async () => (await received(side)).frames, { timeout: 20_000 }).toBeGreaterThan(0);
  const firstFrameMs = Date.now() - admittedAt;
  for (const side of [patient, provider]) {
    await expect.poll(async () => (await received(side)).frames, { timeout: 20_000 }).toBeGreaterThan(30);
    await expect.poll(async () => (await received(side)).audioPackets, { timeout: 20_000 }).toBeGreaterThan(50);
  }
  test.info().annotations.push({ type: 'admit to first decoded frame (ms, both sides, upper bound)', description: String(firstFrameMs) });
  await expect(provider.getByText(/^Connection: (good|fair|poor|checking)$/)).toBeVisible();
  await scan(provider);
  await scan(patient);

  // Mute and camera off reach the other side.
  await patient.getByRole('button', { name: 'Mute' }).click();
  await expect(provider.getByText('Muted', { exact: true })).toBeVisible();
  await patient.getByRole('button', { name: 'Turn camera off' }).click();
  await expect(provider.getByText(`${booked.patient.name} turned their camera off`)).toBeVisible();
  await patient.getByRole('button', { name: 'Unmute' }).click();
  await patient.getByRole('button', { name: 'Turn camera on' }).click();
  await expect(provider.getByText('Muted', { exact: true })).toBeHidden();
  await expect(provider.getByText(`${booked.patient.name} turned their camera off`)).toBeHidden();

  // The provider ends the visit: both are told, and its length is kept with the appointment.
  await provider.getByRole('button', { name: 'End visit' }).click();
  await provider.getByRole('dialog', { name: 'End the visit?' }).getByRole('button', { name: 'End visit' }).click();
  await expect(provider.getByRole('heading', { name: 'The video visit has ended' })).toBeVisible();
  await expect(patient.getByRole('heading', { name: 'The video visit has ended' })).toBeVisible();
  await expect(patient.getByText(/It lasted \d+ minutes?\./)).toBeVisible();
  await scan(patient);
  await patient.getByRole('link', { name: 'Back to the appointment' }).click();
  await expect(patient.getByText(/Held: it lasted \d+ minutes?/)).toBeVisible();
});

test('through the TURN relay only, in Greek on a phone', async ({ browser }) => {
  const booked = await appointmentStartingNow('relay', 'el');
  const { page: patient } = await newSide(browser, booked.patient, { relay: true, locale: 'el', phone: true });
  const { page: provider } = await newSide(browser, booked.provider, { relay: true, locale: 'el', phone: true });

  await patient.goto(`/healthbook/video-visit?slot=${booked.slot}`);
  await expect(patient.getByRole('heading', { name: 'Ελέγξτε την κάμερα και το μικρόφωνό σας' })).toBeVisible();
  await scan(patient);
  await patient.getByRole('button', { name: 'Σύνδεση στη βιντεοεπίσκεψη' }).click();
  await expect(patient.getByText(`Ο/Η ${booked.provider.name} θα σας επιτρέψει να μπείτε`)).toBeVisible();
  await scan(patient);

  await provider.goto(`/healthbook/video-visit?slot=${booked.slot}`);
  await provider.getByRole('button', { name: 'Μετάβαση στην αίθουσα αναμονής' }).click();
  await provider.getByRole('button', { name: 'Να μπει' }).click();

  // The media go through coturn, with the credentials the server made from the shared secret.
  for (const side of [patient, provider]) {
    await expect.poll(async () => (await received(side)).frames, { timeout: 30_000 }).toBeGreaterThan(30);
    const stats = await received(side);
    expect(stats.relayed).toBe(true);
    expect(stats.servers).toBeGreaterThan(0);
  }
  await expect(patient.getByText('Μέσω του διακομιστή αναμετάδοσης')).toBeVisible();
  await scan(patient);
  await scan(provider);

  // The patient leaves; the provider sees it, and the patient can join again.
  await patient.getByRole('button', { name: 'Αποχώρηση' }).click();
  await expect(provider.getByText(`Ο/Η ${booked.patient.name} αποχώρησε από την επίσκεψη. Μπορεί να συνδεθεί ξανά.`)).toBeVisible();
  await patient.getByRole('button', { name: 'Νέα σύνδεση' }).click();
  await expect.poll(async () => (await received(provider)).frames, { timeout: 30_000 }).toBeGreaterThan(30);
});

test('a camera and microphone refused by the browser are explained, with how to allow them', async () => {
  const booked = await appointmentStartingNow('refused');
  // A browser that answers the camera and microphone prompt with "Block".
  const browser = await chromium.launch({ ...CHROMIUM, args: [...CHROMIUM.args, FAKE_MEDIA_DEVICES, `${ALLOW_MEDIA_PROMPT}=deny`] });
  try {
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1366, height: 900 }, locale: 'en-US', timezoneId: 'Europe/Athens' });
    const page = await context.newPage();
    await signIn(page, booked.patient.email, booked.patient.password);
    await page.goto(`/healthbook/event-details?eventId=${booked.slot}`);
    await page.getByRole('link', { name: 'Join video visit' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The camera and microphone are blocked' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('In Chrome or Edge: select the icon left of the address bar');
    await expect(page.getByRole('button', { name: 'Join video visit' })).toHaveCount(0);
    await scan(page);
  } finally {
    await browser.close();
  }
});
