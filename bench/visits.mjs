// The video visits' part of `npm run bench` (issue 29: "Signalling for 200 simultaneous visits (400
// sockets): offer-to-answer relay p99 under 50 ms beside the bare relay of `npm run bench`").
//
// Each scenario runs against one of the chat's four servers (bench/chat.mjs), the same processes:
//   bare    bench/chat-baseline.mjs's /visit path: a plain `ws` relay of the visit's frames, no ticket, database or checks
//   one     the real server the bench started (no Redis: its in-process bus)
//   bare2   two bare relays joined by Redis pub/sub (patients on the first, providers on the second)
//   two     two real server processes on the bench's database and one Redis, patients on process A,
//           providers on process B: every signal crosses Redis
//
// Setup (real servers): BENCH_VISITS patients and as many providers are inserted into the server's
// own tables (createBenchUsers, as the chat's) and sign in through POST /api/v1/login/; then, per
// scenario, BENCH_VISITS appointments are inserted (patient i with provider i, booked, started a
// minute ago, an hour long: the visit's window is open), each patient opens the visit's socket with
// a ticket (POST …/visit/ticket/: waiting), then each provider (told the patient is waiting), then
// each provider admits (POST …/visit/start/: both sockets are told `visit` active); afterwards
// each provider ends the visit (POST …/visit/end/: the server closes both sockets).
//
// Load: every ROUND_INTERVAL_MS, each visit's patient side sends an offer (a session description of
// an audio and video call, ~5.5 KB of SDP as a browser makes it) and the provider side answers it on
// receipt (~4 KB); one round of warm-up, not counted, then BENCH_VISITS_ROUNDS rounds, each visit at
// its own random phase in the interval. Measured: offer sent (just before ws.send) to answer received
// on the patient's socket, on this process's clock (and the offer's one-way time to the provider).
// Every offer must be answered exactly once; nothing else may arrive (lost, duplicated and unexpected
// signals, error events and sockets the server closed are counted).

import { randomBytes, randomInt } from 'node:crypto';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import {
  BenchSocket,
  SERVERS,
  api,
  chatSettings,
  cpuMeter,
  createBenchUsers,
  describeCpu,
  describeDiagnosis,
  latencySummary,
  numberFromEnv,
  percentile,
  pool,
  query,
  redisUnreachable,
  round1,
  serverErrors,
  startDiagnostics,
  wsBase,
} from './chat.mjs';

// packages/shared/src/visit-protocol.ts
const VISIT_SOCKET_PATH = '/api/v1/visits/socket/';
const VISIT_FRAME_MAX_CHARS = 32 * 1024;

const BENCH_ORG = 'visitbench';
const OFFER_ANSWER_P99_GOAL_MS = 50;
const ROUND_INTERVAL_MS = 1_000;
const WARMUP_ROUNDS = 1;
/** After the last offer: wait for answers while they keep arriving (no progress for DRAIN_IDLE_MS: stop), at most DRAIN_MAX_MS. */
const DRAIN_IDLE_MS = 3_000;
const DRAIN_MAX_MS = 15_000;

/** The visits part's settings, read once. */
export function visitSettings() {
  return {
    visits: numberFromEnv('BENCH_VISITS', 200, { min: 1, integer: true }),
    rounds: numberFromEnv('BENCH_VISITS_ROUNDS', 5, { min: 1, integer: true }),
    redisUrl: chatSettings().redisUrl,
  };
}

// ---------------------------------------------------------------- the scenarios, in the order they are reported
const NAME = 'visits signalling';
/** The order servers run in: the (quick) baselines first. */
const RUN_ORDER = ['bare', 'bare2', 'one', 'two'];
export const visitScenarios = [
  { name: `${NAME}: ${SERVERS.bare}`, server: 'bare' },
  { name: `${NAME}: ${SERVERS.one}`, server: 'one', baseline: `${NAME}: ${SERVERS.bare}`, maxP99Ms: OFFER_ANSWER_P99_GOAL_MS },
  { name: `${NAME}: ${SERVERS.bare2}`, server: 'bare2' },
  { name: `${NAME}: ${SERVERS.two}`, server: 'two', baseline: `${NAME}: ${SERVERS.bare2}`, maxP99Ms: OFFER_ANSWER_P99_GOAL_MS },
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

// ---------------------------------------------------------------- session descriptions
const hex = (bytes) => randomBytes(bytes).toString('hex');
const token = (chars) => randomBytes(chars).toString('base64').replace(/[+/=]/g, 'x').slice(0, chars);
const VIDEO_CODECS = [
  ['VP8/90000'],
  ['VP9/90000', 'profile-id=0'],
  ['VP9/90000', 'profile-id=2'],
  ['H264/90000', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f'],
  ['H264/90000', 'level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f'],
  ['H264/90000', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f'],
  ['H264/90000', 'level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f'],
  ['H264/90000', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f'],
  ['AV1/90000', 'level-idx=5;profile=0;tier=0'],
  ['H264/90000', 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=64001f'],
];

/**
 * A session description of an audio and video call as a browser makes it (one side's ICE
 * credentials, fingerprint, tracks and codecs), its `o=` line's version left to fill: answers
 * [before, after] the round number. An offer lists every video codec, an answer `videoCodecs` of them.
 */
function sessionDescription({ offer, videoCodecs = VIDEO_CODECS.length }) {
  const stream = token(36);
  const cname = token(16);
  const ice = [`a=ice-ufrag:${token(4)}`, `a=ice-pwd:${token(24)}`, 'a=ice-options:trickle', `a=fingerprint:sha-256 ${hex(32).toUpperCase().match(/../g).join(':')}`, `a=setup:${offer ? 'actpass' : 'active'}`];
  const media = (kind, mid, pts) => [`m=${kind} 9 UDP/TLS/RTP/SAVPF ${pts.join(' ')}`, 'c=IN IP4 0.0.0.0', 'a=rtcp:9 IN IP4 0.0.0.0', ...ice, `a=mid:${mid}`];
  const ssrcs = (track, ...ids) => ids.flatMap((id) => [`a=ssrc:${id} cname:${cname}`, `a=ssrc:${id} msid:${stream} ${track}`]);
  const [audioTrack, videoTrack] = [token(36), token(36)];
  const audioSsrc = randomInt(1, 2 ** 31);
  const audio = [
    ...media('audio', 0, [111, 63, 9, 0, 8, 13, 110, 126]),
    'a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level',
    'a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time',
    'a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
    'a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid',
    'a=sendrecv',
    `a=msid:${stream} ${audioTrack}`,
    'a=rtcp-mux',
    'a=rtcp-rsize',
    'a=rtpmap:111 opus/48000/2',
    'a=rtcp-fb:111 transport-cc',
    'a=fmtp:111 minptime=10;useinbandfec=1',
    'a=rtpmap:63 red/48000/2',
    'a=fmtp:63 111/111',
    'a=rtpmap:9 G722/8000',
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:8 PCMA/8000',
    'a=rtpmap:13 CN/8000',
    'a=rtpmap:110 telephone-event/48000',
    'a=rtpmap:126 telephone-event/8000',
    ...ssrcs(audioTrack, audioSsrc),
  ];
  const codecs = VIDEO_CODECS.slice(0, videoCodecs);
  const pts = codecs.flatMap((_, i) => [96 + 2 * i, 97 + 2 * i]);
  const [videoSsrc, rtxSsrc] = [randomInt(1, 2 ** 31), randomInt(1, 2 ** 31)];
  const video = [
    ...media('video', 1, [...pts, 120, 121, 122]),
    'a=extmap:14 urn:ietf:params:rtp-hdrext:toffset',
    'a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time',
    'a=extmap:13 urn:3gpp:video-orientation',
    'a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
    'a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay',
    'a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type',
    'a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing',
    'a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space',
    'a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid',
    'a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id',
    'a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id',
    'a=sendrecv',
    `a=msid:${stream} ${videoTrack}`,
    'a=rtcp-mux',
    'a=rtcp-rsize',
    ...codecs.flatMap(([name, fmtp], i) => {
      const pt = 96 + 2 * i;
      return [
        `a=rtpmap:${pt} ${name}`,
        `a=rtcp-fb:${pt} goog-remb`,
        `a=rtcp-fb:${pt} transport-cc`,
        `a=rtcp-fb:${pt} ccm fir`,
        `a=rtcp-fb:${pt} nack`,
        `a=rtcp-fb:${pt} nack pli`,
        ...(fmtp ? [`a=fmtp:${pt} ${fmtp}`] : []),
        `a=rtpmap:${pt + 1} rtx/90000`,
        `a=fmtp:${pt + 1} apt=${pt}`,
      ];
    }),
    'a=rtpmap:120 red/90000',
    'a=rtpmap:121 rtx/90000',
    'a=fmtp:121 apt=120',
    'a=rtpmap:122 ulpfec/90000',
    `a=ssrc-group:FID ${videoSsrc} ${rtxSsrc}`,
    ...ssrcs(videoTrack, videoSsrc, rtxSsrc),
  ];
  const head = ['v=0', `o=- ${BigInt(`0x${hex(7)}`)} `];
  const rest = [' IN IP4 127.0.0.1', 's=-', 't=0 0', 'a=group:BUNDLE 0 1', 'a=extmap-allow-mixed', `a=msid-semantic: WMS ${stream}`, ...audio, ...video, ''];
  return [head.join('\r\n'), rest.join('\r\n')];
}

/** The `signal` frame of a description for round `round`. */
const signalFrame = (type, [before, after], round) => JSON.stringify({ type: 'signal', data: { description: { type, sdp: `${before}${round}${after}` } } });
/** The round of a description (its `o=` line's version). */
const roundOf = (sdp) => Number(/^v=0\r\no=- \d+ (\d+) /.exec(sdp ?? '')?.[1] ?? -1);

// ---------------------------------------------------------------- visits on the real server
/**
 * The appointments of one scenario, straight into the server's tables: for each pair, a slot of
 * provider i and an appointment of patient i with it, booked by the patient, started a minute ago,
 * an hour long (its visit's window is open). Answers the slots, in the pairs' order.
 */
async function bookAppointments({ databaseUrl, users, count }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const patients = users.patients.slice(0, count);
    const providers = users.providers.slice(0, count);
    const { rows } = await client.query(
      `with pairs as (
         select * from unnest($2::int[], $3::int[], $4::int[]) with ordinality as p(provider_id, patient_id, patient_user_id, i)
       ), slots as (
         insert into availability_slots (org_id, provider_id, start_time, end_time)
         select $1, provider_id, date_trunc('second', now()) - interval '1 minute', date_trunc('second', now()) + interval '59 minutes' from pairs
         returning id, provider_id, start_time, end_time
       )
       insert into appointments (org_id, patient_id, provider_id, slot_id, start_time, end_time, reason_for_visit, booked_by, status)
       select $1, pairs.patient_id, slots.provider_id, slots.id, slots.start_time, slots.end_time, 'Bench video visit', pairs.patient_user_id, 'booked'
       from slots join pairs using (provider_id)
       returning slot_id, provider_id`,
      [users.orgId, providers.map((p) => p.id), patients.map((p) => p.patientId), patients.map((p) => p.id)],
    );
    const slotOf = new Map(rows.map((r) => [r.provider_id, r.slot_id]));
    return providers.map((p) => slotOf.get(p.id));
  } finally {
    await client.end();
  }
}

/** One side's socket of a visit on the real server: its ticket (REST), then the socket, welcomed. */
async function joinVisit(base, user, slot, role) {
  const { ticket } = await api(base, user.token, 'POST', `/api/v1/appointments/${slot}/visit/ticket/`);
  const s = new BenchSocket(`${wsBase(base)}${VISIT_SOCKET_PATH}?${query({ ticket, slot })}`);
  const { event } = await s.waitFor((e) => e.type === 'welcome', 20_000, `welcome (${role})`);
  if (event.role !== role) throw new Error(`slot ${slot}: welcomed as ${event.role}, not ${role}`);
  return s;
}

/**
 * Opens the visits on the real server(s): the patients join (waiting), then the providers (each
 * told its patient is here), then each provider admits (POST …/visit/start/, on the providers'
 * process) and both sides wait for `visit` active. Answers the visits, with the steps' times and
 * the time from each admission's request to its patient's `visit` event.
 */
async function openRealVisits({ users, count, databaseUrl, patientBase, providerBase }) {
  const steps = [];
  let stepAt = now();
  const step = (name) => {
    steps.push(`${name} ${((now() - stepAt) / 1000).toFixed(1)} s`);
    stepAt = now();
  };
  const slots = await bookAppointments({ databaseUrl, users, count });
  const visits = slots.map((slot, i) => ({ index: i, slot, patientUser: users.patients[i], providerUser: users.providers[i] }));
  step('booked');
  await pool(visits, 32, async (v) => {
    v.patient = await joinVisit(patientBase, v.patientUser, v.slot, 'patient');
  });
  step('patient sockets');
  await pool(visits, 32, async (v) => {
    v.provider = await joinVisit(providerBase, v.providerUser, v.slot, 'provider');
    await v.provider.waitFor((e) => e.type === 'peer' && e.role === 'patient' && e.present, 20_000, 'the waiting patient (provider)');
  });
  step('provider sockets');
  const admitMs = [];
  await pool(visits, 16, async (v) => {
    const active = (e) => e.type === 'visit' && e.status === 'active';
    const told = Promise.all([v.patient.waitFor(active, 20_000, 'visit active (patient)'), v.provider.waitFor(active, 20_000, 'visit active (provider)')]);
    told.catch(() => undefined);
    const t0 = now();
    const visit = await api(providerBase, v.providerUser.token, 'POST', `/api/v1/appointments/${v.slot}/visit/start/`);
    if (visit.status !== 'active') throw new Error(`slot ${v.slot}: ${visit.status} after the start`);
    const [{ at }] = await told;
    admitMs.push(at - t0);
  });
  step('admitted');
  // What the openings sent (peer, visit) is not load.
  for (const v of visits) {
    v.patient.backlog.length = 0;
    v.provider.backlog.length = 0;
  }
  visits.steps = steps;
  admitMs.sort((a, b) => a - b);
  visits.admitMs = { p50: round1(percentile(admitMs, 50)), p99: round1(percentile(admitMs, 99)), max: round1(admitMs.at(-1) ?? 0) };
  return visits;
}

/** Each provider ends the visit (the server closes both sockets with 4000); the rest are closed. */
async function closeRealVisits(visits, providerBase) {
  await pool(visits, 16, async (v) => {
    if (!v.provider) return;
    await api(providerBase, v.providerUser.token, 'POST', `/api/v1/appointments/${v.slot}/visit/end/`).catch(() => undefined);
    await Promise.race([Promise.all([v.patient?.closed, v.provider.closed]), sleep(10_000)]);
  });
  await Promise.all(visits.flatMap((v) => [v.patient?.close(), v.provider?.close()]));
}

// ---------------------------------------------------------------- visits on the bare relay
async function openBareVisits({ count, patientBase, providerBase }) {
  const visits = Array.from({ length: count }, (_, i) => ({ index: i }));
  await pool(visits, 64, async (v) => {
    v.patient = new BenchSocket(`${wsBase(patientBase)}/visit?pair=${v.index}&side=patient`);
    v.provider = new BenchSocket(`${wsBase(providerBase)}/visit?pair=${v.index}&side=provider`);
    await Promise.all([v.patient.opened, v.provider.opened]);
  });
  return visits;
}

// ---------------------------------------------------------------- the offer/answer load
/**
 * Every ROUND_INTERVAL_MS each visit's patient side sends an offer, which its provider side answers
 * on receipt; WARMUP_ROUNDS rounds not counted, then `rounds`. Answers the row.
 */
async function exchangeLoad(visits, { rounds, serverPids, diagnose }) {
  const total = WARMUP_ROUNDS + rounds;
  /** `${visit}:${round}` -> the exchange */
  const exchanges = new Map();
  const errors = {};
  let unexpected = 0;
  let duplicates = 0;
  const roundTrips = [];
  const oneWay = [];
  let offerChars = 0;
  let answerChars = 0;
  for (const v of visits) {
    const offer = sessionDescription({ offer: true });
    const answer = sessionDescription({ offer: false, videoCodecs: 4 });
    offerChars = signalFrame('offer', offer, 0).length;
    answerChars = signalFrame('answer', answer, 0).length;
    const onError = (event) => {
      if (event.type === 'error') errors[event.code] = (errors[event.code] ?? 0) + 1;
      else unexpected++;
    };
    v.provider.handler = (event, at) => {
      if (event.type !== 'signal' || event.from !== 'patient' || event.data?.description?.type !== 'offer') return onError(event);
      const round = roundOf(event.data.description.sdp);
      const x = exchanges.get(`${v.index}:${round}`);
      if (!x) return void unexpected++;
      if (x.offerAt !== null) return void duplicates++;
      x.offerAt = at;
      v.provider.send(signalFrame('answer', answer, round));
    };
    v.patient.handler = (event, at) => {
      if (event.type !== 'signal' || event.from !== 'provider' || event.data?.description?.type !== 'answer') return onError(event);
      const x = exchanges.get(`${v.index}:${roundOf(event.data.description.sdp)}`);
      if (!x) return void unexpected++;
      if (x.answerAt !== null) return void duplicates++;
      x.answerAt = at;
      if (x.measured) {
        roundTrips.push(at - x.sentAt);
        if (x.offerAt !== null) oneWay.push(x.offerAt - x.sentAt);
      }
    };
    v.offer = offer;
  }
  if (Math.max(offerChars, answerChars) > VISIT_FRAME_MAX_CHARS) throw new Error(`a description of ${Math.max(offerChars, answerChars)} characters is past the visit's frame limit`);

  const sockets = visits.flatMap((v) => [v.patient, v.provider]);
  const closedBefore = sockets.filter((s) => s.closedCode !== null).length;
  let meter;
  let diagnostics;
  // The bench's own event loop, as the chat's: its lateness is in every latency measured here.
  const LOOP_RESOLUTION_MS = 5;
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const meterStart = setTimeout(() => {
    meter = cpuMeter(serverPids);
    loopDelay.enable();
    if (diagnose) diagnostics = startDiagnostics(diagnose);
  }, WARMUP_ROUNDS * ROUND_INTERVAL_MS);
  const t0 = now();
  await Promise.all(
    visits.map(
      (v) =>
        new Promise((resolve) => {
          const phase = Math.random() * ROUND_INTERVAL_MS;
          let round = 0;
          const tick = () => {
            if (round >= total || v.patient.closedCode !== null) return resolve();
            const frame = signalFrame('offer', v.offer, round);
            exchanges.set(`${v.index}:${round}`, { sentAt: now(), offerAt: null, answerAt: null, measured: round >= WARMUP_ROUNDS });
            v.patient.send(frame);
            round++;
            setTimeout(tick, Math.max(0, t0 + phase + round * ROUND_INTERVAL_MS - now()));
          };
          setTimeout(tick, phase);
        }),
    ),
  );
  clearTimeout(meterStart);
  const unanswered = () => [...exchanges.values()].filter((x) => x.answerAt === null).length;
  const stoppedAt = now();
  let left = unanswered();
  let progressAt = now();
  while (left > 0 && now() - progressAt < DRAIN_IDLE_MS && now() - stoppedAt < DRAIN_MAX_MS && sockets.some((s) => s.closedCode === null)) {
    await sleep(50);
    const n = unanswered();
    if (n < left) progressAt = now();
    left = n;
  }
  const cpu = meter?.() ?? null;
  loopDelay.disable();
  if (cpu) cpu.benchLoopP99Ms = round1(Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS));
  const diagnosis = (await diagnostics?.stop()) ?? null;
  for (const s of sockets) s.handler = null;

  const measured = [...exchanges.values()].filter((x) => x.measured);
  const closeCodes = {};
  for (const s of sockets) if (s.closedCode !== null) closeCodes[s.closedCode] = (closeCodes[s.closedCode] ?? 0) + 1;
  roundTrips.sort((a, b) => a - b);
  oneWay.sort((a, b) => a - b);
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  return {
    visits: visits.length,
    sockets: sockets.length,
    rounds,
    offerChars,
    answerChars,
    exchanges: measured.length,
    answered: roundTrips.length,
    latencyMs: latencySummary(roundTrips),
    offerMs: { p50: round1(percentile(oneWay, 50)), p99: round1(percentile(oneWay, 99)) },
    lost: [...exchanges.values()].filter((x) => x.answerAt === null).length,
    duplicates,
    unexpected,
    errors,
    errorCount,
    socketsClosed: sockets.filter((s) => s.closedCode !== null).length - closedBefore,
    closeCodes,
    cpu,
    diagnosis,
  };
}

// ---------------------------------------------------------------- running the chosen scenarios
/**
 * Runs the chosen visit scenarios, server by server: opens the visits, runs the exchanges, and
 * ends them. The servers and relays come from the caller (the same processes as the chat's).
 *
 * @param {object} o
 * @param {Array<typeof visitScenarios[number]>} o.chosen
 * @typedef {{ base: string, pid: number, logTail: () => string[] }} BenchProcess
 * @param {BenchProcess} o.app            the real server the bench started (no Redis)
 * @param {string} o.databaseUrl          the bench database
 * @param {(name: string, env: object) => Promise<BenchProcess>} o.startServer      another real server process, same database and data directory
 * @param {(name: string, env: object) => Promise<BenchProcess>} o.startBareRelay   a bare relay (bench/chat-baseline.mjs)
 * @param {(line: string) => void} o.log
 */
export async function runVisitsBench({ chosen, app, databaseUrl, startServer, startBareRelay, log }) {
  const settings = visitSettings();
  const startedAt = now();
  const rows = [];
  const skipped = [];
  const servers = RUN_ORDER.filter((server) => chosen.some((s) => s.server === server));
  log(
    `visits: ${settings.visits} visits (${settings.visits * 2} sockets), ${WARMUP_ROUNDS} warm-up + ${settings.rounds} offer/answer rounds each, ` +
      `one a second per visit at its own phase; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const redisProblem = servers.some((s) => s === 'two' || s === 'bare2') ? await redisUnreachable(settings.redisUrl) : null;
  let users = null;

  for (const server of servers) {
    const scenario = chosen.find((s) => s.server === server);
    if ((server === 'two' || server === 'bare2') && redisProblem) {
      skipped.push({ name: scenario.name, why: redisProblem });
      log(`${scenario.name}: SKIPPED — ${redisProblem}`);
      continue;
    }
    const real = server === 'one' || server === 'two';
    let procs;
    if (server === 'bare') procs = [await startBareRelay('bare relay', {})];
    else if (server === 'bare2') procs = await Promise.all(['A', 'B'].map((x) => startBareRelay(`bare relay ${x} (Redis)`, { REDIS_URL: settings.redisUrl })));
    else if (server === 'one') procs = [app];
    else procs = await Promise.all(['A', 'B'].map((x) => startServer(`server ${x} (Redis)`, { REDIS_URL: settings.redisUrl })));
    const patientBase = procs[0].base;
    const providerBase = procs.at(-1).base;
    if (real && !users) {
      const made = await createBenchUsers({
        databaseUrl,
        appBase: app.base,
        org: BENCH_ORG,
        title: 'Visit Bench',
        count: settings.visits,
        groups: [
          { prefix: 'visit-patient-', roles: ['patient'], firstName: 'Patient' },
          { prefix: 'visit-provider-', roles: ['professional', 'provider'], firstName: 'Provider' },
        ],
        log: (took) => log(`visit users: ${settings.visits} patients and ${settings.visits} providers in organisation "${BENCH_ORG}" ${took}`),
      });
      users = { orgId: made.orgId, patients: made.groups[0], providers: made.groups[1] };
    }

    const setupAt = now();
    const visits = real
      ? await openRealVisits({ users, count: settings.visits, databaseUrl, patientBase, providerBase })
      : await openBareVisits({ count: settings.visits, patientBase, providerBase });
    const setupS = (now() - setupAt) / 1000;
    log(`${SERVERS[server]}: ${visits.length} visits (${visits.length * 2} sockets) open${real ? ' and admitted' : ''} in ${setupS.toFixed(1)} s${visits.steps ? ` (${visits.steps.join(', ')})` : ''}`);
    try {
      process.stdout.write(`[bench] ${scenario.name}: ${visits.length} visits x ${settings.rounds} offer/answer rounds … `);
      const diagnose = real ? { databaseUrl, bases: [...new Set([patientBase, providerBase])] } : null;
      const result = await exchangeLoad(visits, { rounds: settings.rounds, serverPids: procs.map((p) => p.pid), diagnose });
      const row = { name: scenario.name, server, processes: procs.length, setupS: round1(setupS), ...(visits.admitMs ? { admitMs: visits.admitMs } : {}), ...result };
      if (scenario.baseline) row.baseline = scenario.baseline;
      if (scenario.maxP99Ms !== undefined) row.maxP99Ms = scenario.maxP99Ms;
      rows.push(row);
      console.log(`offer-to-answer p99 ${result.latencyMs.p99} ms, lost ${result.lost}, errors ${result.errorCount}`);
      if (result.cpu) log(`  CPU while measured (% of one core): ${describeCpu(result.cpu, server)}`);
      if (result.diagnosis) log(`  ${describeDiagnosis(result.diagnosis)}`);
      if (real && (result.errorCount > 0 || result.socketsClosed > 0)) {
        result.serverErrors = serverErrors(procs.map((p) => p.logTail()));
        for (const [message, n] of Object.entries(result.serverErrors)) log(`  the server logged: ${n} x ${message}`);
      }
    } finally {
      await (real ? closeRealVisits(visits, providerBase) : Promise.all(visits.flatMap((v) => [v.patient.close(), v.provider.close()])));
    }
  }

  rows.sort((a, b) => visitScenarios.findIndex((s) => s.name === a.name) - visitScenarios.findIndex((s) => s.name === b.name));
  for (const row of rows) {
    const base = row.baseline && rows.find((r) => r.name === row.baseline);
    if (base) row.ratio = { p99: base.latencyMs.p99 > 0 ? row.latencyMs.p99 / base.latencyMs.p99 : null, p50: base.latencyMs.p50 > 0 ? row.latencyMs.p50 / base.latencyMs.p50 : null };
  }
  const elapsedS = (now() - startedAt) / 1000;
  log(`visits part took ${elapsedS.toFixed(0)} s`);
  return { settings: { ...settings, roundIntervalMs: ROUND_INTERVAL_MS, warmupRounds: WARMUP_ROUNDS }, rows, skipped, elapsedS, checks: visitChecks(rows) };
}

function visitChecks(rows) {
  const checks = [];
  for (const r of rows) {
    if (r.maxP99Ms !== undefined) {
      const base = rows.find((b) => b.name === r.baseline);
      checks.push({
        name: `${r.name} offer-to-answer p99 <= ${r.maxP99Ms} ms`,
        pass: r.latencyMs.p99 <= r.maxP99Ms && r.answered > 0,
        value: r.latencyMs.p99,
        threshold: r.maxP99Ms,
        line: `${r.name}: offer-to-answer p99 ${r.latencyMs.p99} ms (${r.baseline}: ${base ? `p99 ${base.latencyMs.p99} ms` : 'not run'}); target ≤ ${r.maxP99Ms} ms`,
      });
    }
    const faults = r.lost + r.duplicates + r.unexpected + r.errorCount + r.socketsClosed;
    checks.push({
      name: `${r.name}: every offer answered exactly once`,
      pass: faults === 0 && r.exchanges > 0,
      value: faults,
      threshold: 0,
      line:
        `${r.name}: ${r.exchanges.toLocaleString('en-US')} exchanges measured: ${r.lost} unanswered, ${r.duplicates} duplicated, ${r.unexpected} unexpected events, ` +
        `${r.errorCount} error events${r.errorCount ? ` ${JSON.stringify(r.errors)}` : ''}, ${r.socketsClosed} sockets closed by the server${r.socketsClosed ? ` (codes ${JSON.stringify(r.closeCodes)})` : ''}`,
    });
  }
  return checks;
}

/** The visits table, as printed. */
export function printVisitsTable(result) {
  if (!result.rows.length) return;
  const head = ['visits signalling (offer → answer)', 'sockets', 'exchanges', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'offer p99', 'admit p99', 'lost', 'errors', 'closed', 'vs baseline'];
  const x = (ratio) => (ratio === null || ratio === undefined ? '?' : `${ratio.toFixed(1)}x`);
  const body = result.rows.map((r) => [
    r.name,
    String(r.sockets),
    String(r.exchanges),
    String(r.latencyMs.p50),
    String(r.latencyMs.p95),
    String(r.latencyMs.p99),
    String(r.latencyMs.max),
    String(r.offerMs.p99),
    r.admitMs ? String(r.admitMs.p99) : '',
    String(r.lost),
    String(r.errorCount),
    String(r.socketsClosed),
    r.ratio ? `p99 ${x(r.ratio.p99)}, p50 ${x(r.ratio.p50)} ${r.baseline.slice(r.baseline.indexOf(': ') + 2)}'s` : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
  const r = result.rows[0];
  console.log(`(offer ${r.offerChars.toLocaleString('en-US')} characters, answer ${r.answerChars.toLocaleString('en-US')}, as sent; offer p99: its one-way time to the provider; admit p99: POST …/visit/start/ to the patient's \`visit\` event)`);
  console.log('');
}
