import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { DEMO_ADMIN, exitWithin, killed, startServer, type ServerProc } from './support';

/**
 * SIGTERM under keep-alive load, on a real server process: clients that keep connections open
 * and send requests in a loop, one slow request in flight (a sign-in whose body is still arriving),
 * and one client that comes back on its idle connection during the grace window. After the
 * signal, requests on existing connections get 503 + Retry-After (never a reset connection), the
 * request in flight completes, and the process exits 0.
 */

interface Answer {
  status?: number;
  retryAfter?: string;
  reusedSocket: boolean;
  error?: string;
}

/** GET /api/health through a keep-alive agent. */
function health(base: string, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.get(`${base}/api/health`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], reusedSocket: req.reusedSocket }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, reusedSocket: req.reusedSocket }));
  });
}

let server: ServerProc | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await killed(server);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it.skipIf(process.env.TEST_DB_KIND === 'postgres')(
  'SIGTERM under keep-alive load: late requests get 503 + Retry-After, the one in flight completes, exit 0',
  async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'hb-sigterm-'));
    // A grace window wider than the default (1 s), so a loaded machine cannot make the late client miss it.
    server = await startServer({ DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: '3000' });
    const { base, port } = server;

    // A sign-in whose headers have arrived (it has passed the server's shutdown check) and whose body has not.
    const body = JSON.stringify(DEMO_ADMIN);
    const slow = net.connect(port, '127.0.0.1');
    let slowAnswer = '';
    slow.on('data', (d: Buffer) => (slowAnswer += d.toString()));
    const slowClosed = new Promise<void>((resolve) => slow.on('close', () => resolve()));
    slow.on('error', () => undefined);
    slow.write(
      `POST /api/v1/login/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );

    // One client that has used its connection and is idle now; it comes back during the grace window.
    const lateAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await health(base, lateAgent)).status).toBe(200);

    // Clients in a loop, each on its own keep-alive connection, until one answer is not a 200.
    let signalled = false;
    const loops = Array.from({ length: 4 }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const answers: Answer[] = [];
      for (;;) {
        const answer = await health(base, agent);
        answers.push(answer);
        if (answer.status !== 200) break;
        if (!signalled && answers.length > 1000) throw new Error('no signal came');
      }
      agent.destroy();
      return answers;
    });
    await sleep(300);

    server.child.kill('SIGTERM');
    signalled = true;
    const looped = await Promise.all(loops);
    slow.write(body.slice(10));
    await sleep(300);
    const late = await health(base, lateAgent);
    lateAgent.destroy();
    const exit = await exitWithin(server, 15_000);
    await slowClosed;

    for (const answers of looped) {
      const last = answers.at(-1)!;
      expect(answers.slice(0, -1).every((a) => a.status === 200)).toBe(true);
      // The connection used before the signal answered 503, not a reset.
      expect(last).toEqual({ status: 503, retryAfter: '5', reusedSocket: true });
    }
    expect(late).toEqual({ status: 503, retryAfter: '5', reusedSocket: true });
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(slowAnswer).toContain('"access":');
    expect(exit).toEqual({ code: 0, signal: null });
  },
  60_000,
);
