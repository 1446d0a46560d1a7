// Video visits (issue 29) between two real Chromium browsers with made-up cameras and microphones:
// a new provider has an appointment starting in two minutes with a new patient; the patient joins
// from the dashboard's card, checks the camera and microphone and waits; the provider opens the
// waiting room from the console and lets them in; both see the other's video (frames decoded, read
// through getStats) and receive sound; they write in the visit's chat; mute and camera off reach
// the other side; the provider ends the visit, the chat stays with it and the appointment shows its
// length; the provider's note lands in the patient's medical visits. Again through the TURN relay only (coturn,
// started beside the product by e2e/start-server.ts, with the server's credentials), in Greek on a
// phone (the camera refused: video-visit-refused.spec.ts). Every new page passes the axe scan.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { scan, signIn } from './accounts';
import { ALLOW_MEDIA_PROMPT, CHROMIUM, FAKE_MEDIA_DEVICES } from './chromium';
import { appointmentStartingNow } from './visits';

test.describe.configure({ timeout: 240_000 });
test.use({ launchOptions: { ...CHROMIUM, args: [...CHROMIUM.args, FAKE_MEDIA_DEVICES, ALLOW_MEDIA_PROMPT] } });

/**
 * Keeps the page's peer connections where the test can read their statistics, and, for `relay`,
 * makes them use only TURN relays (as `iceTransportPolicy: 'relay'` does).
 */
const trackPeerConnections = (relay: boolean) => `(() => {
  // What a failed journey prints: the peer connections' states and what the visit's socket carried.
  window.__visitLog = [];
  const note = (line) => window.__visitLog.length < 400 && window.__visitLog.push(Math.round(performance.now()) + ' ' + line);
  const Native = window.RTCPeerConnection;
  window.__pcs = [];
  window.RTCPeerConnection = class extends Native {
    constructor(config) {
      super(${relay ? "{ ...config, iceTransportPolicy: 'relay' }" : 'config'});
      const n = window.__pcs.push(this);
      note('pc' + n + ' made');
      for (const what of ['signalingstatechange', 'iceconnectionstatechange', 'connectionstatechange'])
        this.addEventListener(what, () => note('pc' + n + ' ' + this.signalingState + '/' + this.iceConnectionState + '/' + this.connectionState));
    }
  };
  const NativeSocket = window.WebSocket;
  const brief = (text) => {
    try {
      const f = JSON.parse(text);
      const d = f.data || {};
      return f.type + (d.description ? ':' + d.description.type : d.candidate !== undefined ? ':candidate' : d.media ? ':media' : f.status ? ':' + f.status : f.present !== undefined ? ':' + f.present : f.code ? ':' + f.code : '');
    } catch { return '?'; }
  };
  window.WebSocket = class extends NativeSocket {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).includes('/visits/socket/')) return;
      note('socket open');
      this.addEventListener('message', (m) => note('<- ' + brief(m.data)));
      this.addEventListener('close', (c) => note('socket closed ' + c.code));
      const send = this.send.bind(this);
      this.send = (data) => { note('-> ' + brief(data)); send(data); };
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

/** The contexts a journey opened: closed after it (their calls end, their CPU is free for the next). */
const opened: BrowserContext[] = [];
test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status !== testInfo.expectedStatus) {
    for (const context of opened)
      for (const page of context.pages()) console.log(`${page.url()}\n${(await page.evaluate(() => (window as unknown as { __visitLog: string[] }).__visitLog).catch(() => [])).join('\n')}`);
  }
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

/** A signed-in browser context of one side; in Greek, switched after signing in (signIn reads the English page). */
/** In the page: milliseconds until its peer connections have decoded a first video frame (read every 20 ms; 20 s at most). */
function msToFirstFrame(): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const tick = async () => {
      let frames = 0;
      for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
        if (pc.connectionState === 'closed') continue;
        (await pc.getStats()).forEach((s: Record<string, unknown>) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') frames += Number(s.framesDecoded ?? 0);
        });
      }
      if (frames > 0) resolve(performance.now() - start);
      else if (performance.now() - start > 20_000) reject(new Error('no video frame decoded in 20 s'));
      else setTimeout(() => void tick(), 20);
    };
    void tick();
  });
}

async function newSide(browser: Browser, who: { email: string; password: string }, options: { relay: boolean; locale: 'en' | 'el'; phone?: boolean }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: options.phone ? { width: 390, height: 844 } : { width: 1366, height: 900 }, locale: 'en-US', timezoneId: 'Europe/Athens' });
  opened.push(context);
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

test('the patient waits, the provider lets them in, both see and hear each other and chat, mute and camera off reach the other side, the provider ends it and writes the visit note', async ({ browser }) => {
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
  // Each page times, from the moment admit is pressed, its first decoded frame of the other's video.
  const firstFrames = [patient, provider].map((side) => side.evaluate(msToFirstFrame));
  await provider.getByRole('button', { name: 'Let them in' }).click();

  // Both see the other's video playing and receive sound.
  const [patientMs, providerMs] = await Promise.all(firstFrames);
  console.log(`video visit: admit to the first decoded frame: patient ${Math.round(patientMs!)} ms, provider ${Math.round(providerMs!)} ms`);
  for (const side of [patient, provider]) {
    await expect.poll(async () => (await received(side)).frames, { timeout: 20_000 }).toBeGreaterThan(30);
    await expect.poll(async () => (await received(side)).audioPackets, { timeout: 20_000 }).toBeGreaterThan(50);
  }
  await expect(provider.getByText(/^Connection: (good|fair|poor|checking)$/)).toBeVisible();
  await scan(provider);
  await scan(patient);

  // The visit's chat beside the video, both ways.
  await patient.getByRole('textbox', { name: 'Message' }).fill('The rash started a week ago.');
  await patient.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(provider.getByRole('log').getByText('The rash started a week ago.')).toBeVisible();
  await provider.getByRole('textbox', { name: 'Message' }).fill('Please hold your arm up to the camera.');
  await provider.getByRole('button', { name: 'Send' }).click();
  await expect(patient.getByRole('log').getByText('Please hold your arm up to the camera.')).toBeVisible();

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
  // The chat stays with the appointment.
  const transcript = patient.getByRole('region', { name: 'The chat of the visit' });
  await expect(transcript).toContainText('The rash started a week ago.');
  await expect(transcript).toContainText('Please hold your arm up to the camera.');
  await scan(patient);
  await patient.getByRole('link', { name: 'Back to the appointment' }).click();
  await expect(patient.getByText(/Held: it lasted \d+ minutes?/)).toBeVisible();

  // The provider's note of the visit lands in the patient's medical visits, with the provider's name.
  const note = provider.getByRole('region', { name: 'Visit note' });
  await note.getByLabel('Diagnosis').fill('Contact dermatitis');
  await note.getByLabel('Treatment').fill('Hydrocortisone cream 1%, twice a day for a week');
  await note.getByRole('button', { name: 'Save to the health record' }).click();
  await expect(note.getByRole('status')).toHaveText(`Saved in ${booked.patient.name}'s medical visits.`);
  await scan(provider);
  await patient.goto('/healthbook/health-record/medicalvisit');
  const visitRecord = patient.getByRole('link', { name: /Rash on the arm/ }).first();
  await visitRecord.click();
  await expect(patient.getByText('Contact dermatitis')).toBeVisible();
  await expect(patient.getByText(booked.provider.name).first()).toBeVisible();
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
