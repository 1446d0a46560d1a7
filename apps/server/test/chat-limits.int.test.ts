// On PostgreSQL too (vitest.config.ts): socket and slice limits under load, across processes.
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_CLOSE, CHAT_FINAL_CLOSE_CODES, CHAT_SLICE_CHARS, patientSocketQuery, type ChatDetails, type ChatTicket, type ServerEvent } from '@healthbook/shared';
import { chatHubs } from '../src/modules/chat/chat.socket';
import type { ChatSocketLimits } from '../src/modules/chat/chat-socket-limits';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { redisReachable } from './redis';
import { TestChatSocket } from './chat-client';
import { bearer, buildOrganization, buildUser, signIn } from './factories';

/**
 * What one user and one socket may hold (issue 24, section 3), with real WebSockets: sockets
 * per user capped (an error frame in the user's language, then a close code of its own); file
 * slices limited per socket and per user (a sender that waits for acknowledgements is slowed,
 * one that does not is refused; across processes with Redis); an unfinished file dropped after
 * a while; and nothing of a socket's files kept once it closed.
 */

const SLICE = 'A'.repeat(CHAT_SLICE_CHARS);
const SLICE_BYTES = (CHAT_SLICE_CHARS / 4) * 3;
const slice = (chunkId: number, clientMessageId = 'limits-file-01') => ({
  action: 'sendMessage',
  chunkId,
  fileName: 'big.pdf',
  chunkSize: SLICE.length,
  isEOF: false,
  Msg: SLICE,
  contentType: 'application/pdf',
  clientMessageId,
});

/** An app with its own limits, listening, and patients who each wait in the queue. */
class World {
  t!: TestApp;
  base!: string;
  private org!: { id: number };
  private readonly tokens = new Map<string, string>();
  private readonly details = new Map<string, ChatDetails>();

  constructor(private readonly opts: { limits: Partial<ChatSocketLimits>; redis?: Redis; databaseUrl?: string }) {}

  async start(orgFrom?: World): Promise<void> {
    this.t = await buildTestApp({
      chatLimits: this.opts.limits,
      ...(this.opts.redis ? { redis: this.opts.redis } : {}),
      ...(this.opts.databaseUrl ? { databaseUrl: this.opts.databaseUrl } : {}),
    });
    await this.t.app.listen({ port: 0, host: '127.0.0.1' });
    this.base = `http://127.0.0.1:${(this.t.app.server.address() as AddressInfo).port}`;
    this.org = orgFrom ? orgFrom.org : await buildOrganization(this.t.app, { name: `limits-${Math.random().toString(36).slice(2, 8)}` });
  }

  get hub() {
    return chatHubs.get(this.t.app.server)!;
  }

  /** A patient in the queue (made once per name). */
  async patient(name: string, from?: World): Promise<void> {
    if (from) {
      this.tokens.set(name, from.tokens.get(name)!);
      this.details.set(name, from.details.get(name)!);
      return;
    }
    const user = await buildUser(this.t.app, { org: this.org, roles: ['patient'], first_name: name, last_name: 'Limits', dob: '1980-01-01' });
    const token = (await signIn(this.t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    this.tokens.set(name, token);
    const joined = await this.t.app.inject({ method: 'POST', url: '/api/v1/peercoaching/sendmessagetoqueue/', headers: bearer(token), payload: { provider_type: 'coach', reason: 'stress' } });
    expect([200, 201], joined.body).toContain(joined.statusCode);
    this.details.set(name, joined.json<ChatDetails>());
  }

  /** Opens a socket for the patient (its ticket asked for in `lang`), not waiting for anything. */
  async open(name: string, lang = 'en'): Promise<TestChatSocket> {
    const res = await this.t.app.inject({ method: 'POST', url: '/api/v1/chat/ticket/', headers: { ...bearer(this.tokens.get(name)!), 'accept-language': lang } });
    expect(res.statusCode, res.body).toBe(200);
    return TestChatSocket.open(this.base, { ticket: res.json<ChatTicket>().ticket, ...patientSocketQuery(this.details.get(name)!) });
  }

  /** An open socket, welcomed. */
  async socket(name: string): Promise<TestChatSocket> {
    const s = await this.open(name);
    await s.next('welcome');
    return s;
  }
}

/** Sends slices, each after the answer to the one before; the answers. */
async function sendSlices(s: TestChatSocket, from: number, count: number, clientMessageId?: string): Promise<ServerEvent[]> {
  const answers: ServerEvent[] = [];
  for (let i = from; i < from + count; i++) {
    s.send(slice(i, clientMessageId));
    answers.push(await s.nextOf(['ack', 'error']));
  }
  return answers;
}

const codes = (answers: ServerEvent[]) => answers.map((a) => (a.type === 'error' ? a.code : a.type));

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a server whose slices wait for their turn', () => {
  const w = new World({ limits: { socketsPerUser: 2, sliceBurst: 5, slicesPerS: 10, userSlicesPerS: 1000, sliceWaitMaxMs: 5000, pendingFramesMax: 8, fileIdleMs: 400 } });
  beforeAll(async () => {
    await w.start();
    for (const name of ['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jon']) await w.patient(name);
  });
  afterAll(async () => {
    await w.t?.close();
  });

  it('caps the sockets of one user: one more gets an error in their language and the close code 4429, the others stay', async () => {
    const first = await w.socket('Ann');
    const second = await w.socket('Ann');
    const third = await w.open('Ann', 'el');
    const refused = await third.next('error');
    expect(refused).toMatchObject({ code: 'tooManySockets', Message: 'Έχετε ανοιχτά πάρα πολλά παράθυρα συνομιλίας. Κλείστε ένα και δοκιμάστε ξανά.' });
    expect(await third.closed).toEqual({ code: CHAT_CLOSE.tooManySockets, reason: 'too many sockets' });
    expect(CHAT_FINAL_CLOSE_CODES).toContain(CHAT_CLOSE.tooManySockets);
    const english = await w.open('Ann');
    expect((await english.next('error')).Message).toBe('You have too many chat windows open. Close one and try again.');
    await english.closed;
    // The two still work; another user is not concerned.
    expect(codes(await sendSlices(first, 0, 1))).toEqual(['ack']);
    expect(codes(await sendSlices(second, 0, 1))).toEqual(['ack']);
    const ben = await w.socket('Ben');
    // One closes: there is room for one again.
    first.close();
    await first.closed;
    await until(() => w.hub.stats().sockets === 2);
    const again = await w.socket('Ann');
    for (const s of [second, again, ben]) s.close();
    await Promise.all([second.closed, again.closed, ben.closed]);
  });

  it('sockets opened together: only as many as allowed are welcomed', async () => {
    const sockets = await Promise.all(Array.from({ length: 5 }, () => w.open('Cat')));
    const outcomes = await Promise.all(sockets.map((s) => s.nextOf(['welcome', 'error']).then((e) => (e.type === 'error' ? e.code : e.type))));
    expect(outcomes.filter((o) => o === 'welcome')).toHaveLength(2);
    expect(outcomes.filter((o) => o === 'tooManySockets')).toHaveLength(3);
    for (const s of sockets) s.close();
    await Promise.all(sockets.map((s) => s.closed));
  });

  it('slows down a sender that waits for acknowledgements: every slice is taken, at the socket’s rate', async () => {
    const s = await w.socket('Dan');
    const started = Date.now();
    const answers = await sendSlices(s, 0, 15);
    const elapsed = Date.now() - started;
    expect(codes(answers)).toEqual(Array(15).fill('ack'));
    // A burst of 5, then 10 a second: the last 10 slices need about a second.
    expect(elapsed).toBeGreaterThanOrEqual(900);
    s.close();
    await s.closed;
  });

  it('refuses what a sender that does not wait for acknowledgements sends beyond the queue, and drops its file', async () => {
    const s = await w.socket('Eve');
    for (let i = 0; i < 30; i++) s.send(slice(i));
    const refused = await s.next('error', (e) => e.code === 'rateLimited');
    expect(refused).toMatchObject({ clientMessageId: 'limits-file-01', Message: 'You are sending messages too quickly. Please wait a moment.' });
    // Too many refusals close it, and nothing of its file is kept.
    expect((await s.closed).code).toBe(CHAT_CLOSE.protocol);
    await until(() => w.hub.stats().sockets === 0);
    expect(w.hub.stats()).toMatchObject({ transfers: 0, bufferedBytes: 0 });
  });

  it('drops an unfinished file after a while without slices, and says so', async () => {
    const s = await w.socket('Fay');
    expect(codes(await sendSlices(s, 0, 2, 'stalled-file-01'))).toEqual(['ack', 'ack']);
    expect(w.hub.stats()).toMatchObject({ transfers: 1, bufferedBytes: 2 * SLICE_BYTES });
    const dropped = await s.next('error', (e) => e.code === 'fileTimeout', 3000);
    expect(dropped).toMatchObject({ clientMessageId: 'stalled-file-01', chunkId: 1, Message: 'The file took too long to arrive and was dropped; send it again.' });
    expect(w.hub.stats()).toMatchObject({ transfers: 0, bufferedBytes: 0 });
    // What follows the dropped file is out of order; a new file starts again.
    expect(codes(await sendSlices(s, 2, 1))).toEqual(['sliceOrder']);
    expect(codes(await sendSlices(s, 0, 1, 'fresh-file-01'))).toEqual(['ack']);
    s.close();
    await s.closed;
  });

  it('keeps nothing of the files of sockets that closed', async () => {
    await until(() => w.hub.stats().sockets === 0);
    const names = ['Gus', 'Hal', 'Ivy', 'Jon', 'Dan'];
    const sockets = (await Promise.all(names.map(async (n) => [await w.socket(n), await w.socket(n)]))).flat();
    await Promise.all(sockets.map(async (s) => expect(codes(await sendSlices(s, 0, 4))).toEqual(Array(4).fill('ack'))));
    expect(w.hub.stats()).toMatchObject({ sockets: 10, users: 5, transfers: 10, bufferedBytes: 10 * 4 * SLICE_BYTES });
    // Half close politely, half just vanish.
    sockets.forEach((s, i) => (i % 2 ? s.close() : s.ws.terminate()));
    await Promise.all(sockets.map((s) => s.closed));
    await until(() => w.hub.stats().sockets === 0);
    expect(w.hub.stats()).toEqual({ sockets: 0, users: 0, conversations: 0, transfers: 0, bufferedBytes: 0, sliceCounters: 0 });
  });
});

/** Waits for the start of a second, so that a few slices fall in one second's window of the per-user limit. */
async function startOfSecond(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

const STRICT: Partial<ChatSocketLimits> = { socketsPerUser: 3, sliceBurst: 5, slicesPerS: 1, userSlicesPerS: 8, sliceWaitMaxMs: 0 };

describe('a server that refuses slices over the limits at once', () => {
  const w = new World({ limits: STRICT });
  beforeAll(async () => {
    await w.start();
    for (const name of ['Kim', 'Lou']) await w.patient(name);
  });
  afterAll(async () => {
    await w.t?.close();
  });

  it('per socket: the slice after the burst is refused and its file dropped', async () => {
    const s = await w.socket('Kim');
    expect(codes(await sendSlices(s, 0, 6))).toEqual(['ack', 'ack', 'ack', 'ack', 'ack', 'rateLimited']);
    expect(w.hub.stats()).toMatchObject({ transfers: 0, bufferedBytes: 0 });
    s.close();
    await s.closed;
  });

  it('per user: two sockets of one user share the user’s slices a second', async () => {
    const a = await w.socket('Lou');
    const b = await w.socket('Lou');
    await startOfSecond();
    expect(codes(await sendSlices(a, 0, 5))).toEqual(Array(5).fill('ack'));
    expect(codes(await sendSlices(b, 0, 4))).toEqual(['ack', 'ack', 'ack', 'rateLimited']);
    a.close();
    b.close();
    await Promise.all([a.closed, b.closed]);
  });
});

describe.runIf(testDbKind() === 'postgres')('two server processes sharing Redis', () => {
  it('count one user’s slices together', async (ctx) => {
    if (!(await redisReachable())) ctx.skip();
    const redisA = new Redis({ host: '127.0.0.1', port: 6379 });
    const redisB = new Redis({ host: '127.0.0.1', port: 6379 });
    const a = new World({ limits: STRICT, redis: redisA });
    let b: World | undefined;
    try {
      await a.start();
      b = new World({ limits: STRICT, redis: redisB, databaseUrl: a.t.databaseUrl! });
      await b.start(a);
      await a.patient('Max');
      await b.patient('Max', a);
      const onA = await a.socket('Max');
      const onB = await b.socket('Max');
      await startOfSecond();
      expect(codes(await sendSlices(onA, 0, 5))).toEqual(Array(5).fill('ack'));
      expect(codes(await sendSlices(onB, 0, 4))).toEqual(['ack', 'ack', 'ack', 'rateLimited']);
      onA.close();
      onB.close();
      await Promise.all([onA.closed, onB.closed]);
    } finally {
      await b?.t.close();
      await a.t?.close();
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});
