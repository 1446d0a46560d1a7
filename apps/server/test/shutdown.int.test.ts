import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './build-app';

/**
 * Graceful shutdown (SIGTERM in production calls app.close()): requests in flight finish,
 * requests that still arrive get a 503, no new connection is accepted, and the database is
 * closed last. Gates, not sleeps, order the steps.
 */

/** A deferred promise. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

let t: TestApp | undefined;
const entered = gate();
const release = gate();
const closingStarted = gate();

afterAll(async () => {
  // Never leave the slow request (and with it app.close()) waiting, even when a check failed.
  release.open();
  await t?.close();
});

/** Reads a whole HTTP/1.1 answer from a socket the server closes after answering. */
function readAnswer(socket: net.Socket): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

it('finishes requests in flight, turns late ones away with 503, then closes the database', async () => {
  t = await buildTestApp({
    setup(app) {
      app.get('/api/test/slow', async () => {
        entered.open();
        await release.promise;
        return { done: true };
      });
      // Runs after the app's own preClose hook, which is registered first.
      app.addHook('preClose', async () => closingStarted.open());
    },
  });
  const { app, db } = t;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  // 1. A slow request is in flight.
  const slow = fetch(`${url}/api/test/slow`);
  await entered.promise;

  // 2. Another client has an open connection and is halfway through sending its request.
  const late = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => late.once('connect', resolve));
  const lateAnswer = readAnswer(late);
  late.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept-Language: en\r\n`);

  // 3. Shutdown begins.
  const closed = app.close();
  await closingStarted.promise;

  // 4. The late request completes now, and is turned away.
  late.write('\r\n');
  const answer = await lateAnswer;
  expect(answer.status).toBe(503);
  expect(answer.headers['connection']).toBe('close');
  expect(answer.headers['retry-after']).toBe('5');
  expect(JSON.parse(answer.body)).toEqual({ detail: 'The service is restarting. Please try again in a moment.' });

  // 5. A new connection is refused: the listener is closed.
  await expect(fetch(`${url}/api/health`)).rejects.toThrow();

  // 6. The database is still open while the request in flight may need it.
  await expect(sql`select 1 as one`.execute(db)).resolves.toMatchObject({ rows: [{ one: 1 }] });

  // 7. The request in flight finishes normally.
  release.open();
  const res = await slow;
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ done: true });

  // 8. Close completes, and the database is closed after it.
  await closed;
  await expect(sql`select 1`.execute(db)).rejects.toThrow();
});
