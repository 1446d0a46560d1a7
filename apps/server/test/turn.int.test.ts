import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iceServers, turnCredential } from '../src/modules/visits/turn-credentials';
import { freePort } from './process/support';

/**
 * The video visits' TURN credentials against a real TURN server: Debian's coturn, started here on
 * loopback with `use-auth-secret` (as docs/operating/configuration.md tells operators to run it).
 * coturn's own client (turnutils_uclient) allocates a relay with what the server makes, and sends
 * packets through it; a wrong secret and an expired credential are refused. Skipped without coturn
 * (.ci/run installs it).
 */

const SECRET = 'a-secret-shared-with-coturn';
const haveCoturn = await promisify(execFile)('sh', ['-c', 'command -v turnserver && command -v turnutils_uclient']).then(
  () => true,
  () => false,
);

describe.skipIf(!haveCoturn)('TURN credentials, checked by coturn', () => {
  let turn: ChildProcess;
  let port: number;
  let dir: string;
  let log = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hb-turn-'));
    port = await freePort();
    const relayFrom = 40_000 + Math.floor(Math.random() * 20_000);
    turn = spawn('turnserver', [
      '-n',
      '--listening-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--relay-ip=127.0.0.1',
      // The test's peer is on loopback too (a real deployment keeps coturn's default: refused).
      '--allow-loopback-peers',
      '--use-auth-secret',
      `--static-auth-secret=${SECRET}`,
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
  }, 30_000);

  afterAll(async () => {
    turn?.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  });

  /** coturn's client: allocates a relay with the username and password, then echoes packets through it; answers its exit code and output. */
  async function relay(username: string, password: string): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
      execFile('turnutils_uclient', ['-p', String(port), '-u', username, '-w', password, '-n', '2', '-m', '1', '-y', '127.0.0.1'], { timeout: 15_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, out: stdout + stderr });
      });
    });
  }

  it('relays packets for the credentials the server makes from the shared secret', async () => {
    const { iceServers: servers } = iceServers({ urls: [`turn:127.0.0.1:${port}?transport=udp`], secret: SECRET });
    const relayServer = servers.find((s) => s.urls.some((u) => u.startsWith('turn:')));
    expect(relayServer?.username).toBeDefined();
    const { code, out } = await relay(relayServer!.username!, relayServer!.credential!);
    expect(code, `${out}\n${log}`).toBe(0);
    expect(out).toMatch(/tot_send_msgs=(\d+), tot_recv_msgs=\1/);
    expect(out).toContain('Total lost packets 0');
  });

  it('refuses credentials made with another secret, and expired ones', async () => {
    const wrong = turnCredential('not-the-shared-secret', new Date(Date.now() + 3600_000));
    const refused = await relay(wrong.username, wrong.credential);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('Cannot complete Allocation');

    const expired = turnCredential(SECRET, new Date(Date.now() - 60_000));
    const late = await relay(expired.username, expired.credential);
    expect(late.code).not.toBe(0);
    expect(late.out).toContain('Cannot complete Allocation');
  });
});
