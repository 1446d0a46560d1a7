import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './process/support';

/**
 * Debian's coturn on loopback, as docs/operating/deployment.md ("The TURN relay") tells operators
 * to run it (`use-auth-secret`: TURN REST credentials from a shared secret), for the tests that
 * prove the relay path: the TURN integration test and the browser journeys' video visits
 * (e2e/start-server.ts).
 */

/** Whether coturn and its client are installed (.ci/run installs them). */
export const haveCoturn = (): Promise<boolean> =>
  promisify(execFile)('sh', ['-c', 'command -v turnserver && command -v turnutils_uclient']).then(
    () => true,
    () => false,
  );

export interface Coturn {
  port: number;
  /** TURN_URLS for the server (UDP and TCP on the one port). */
  urls: string[];
  /** What coturn printed (for a failing test's message). */
  log: () => string;
  stop: () => Promise<void>;
}

export async function startCoturn(secret: string): Promise<Coturn> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hb-turn-'));
  const port = await freePort();
  const relayFrom = 40_000 + Math.floor(Math.random() * 20_000);
  let log = '';
  const turn: ChildProcess = spawn('turnserver', [
    '-n',
    '--listening-ip=127.0.0.1',
    `--listening-port=${port}`,
    '--relay-ip=127.0.0.1',
    // The tests' peers are on loopback too (a real deployment keeps coturn's default: refused).
    '--allow-loopback-peers',
    '--use-auth-secret',
    `--static-auth-secret=${secret}`,
    '--realm=healthbook.test',
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    `--min-port=${relayFrom}`,
    `--max-port=${relayFrom + 100}`,
    `--userdb=${path.join(dir, 'turndb')}`,
    `--pidfile=${path.join(dir, 'turnserver.pid')}`,
    '--log-file=stdout',
    '--simple-log',
  ]);
  turn.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  turn.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  // Ready once it accepts a TCP connection on its port (it listens on UDP and TCP alike).
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  for (let i = 0; i < 100 && !(await listening()); i++) await sleep(100);
  return {
    port,
    urls: [`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`],
    log: () => log,
    stop: async () => {
      turn.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
