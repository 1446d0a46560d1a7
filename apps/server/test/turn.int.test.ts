import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iceServers, turnCredential } from '../src/modules/visits/turn-credentials';
import { haveCoturn, startCoturn, type Coturn } from './coturn';

/**
 * The video visits' TURN credentials against a real TURN server: Debian's coturn, started here on
 * loopback with `use-auth-secret` (test/coturn.ts, as docs/operating/deployment.md tells operators
 * to run it). coturn's own client (turnutils_uclient) allocates a relay with what the server makes,
 * and sends packets through it; a wrong secret and an expired credential are refused. Skipped
 * without coturn (.ci/run installs it).
 */

const SECRET = 'a-secret-shared-with-coturn';

describe.skipIf(!(await haveCoturn()))('TURN credentials, checked by coturn', () => {
  let turn: Coturn;
  let port: number;

  beforeAll(async () => {
    turn = await startCoturn(SECRET);
    port = turn.port;
  }, 30_000);

  afterAll(async () => {
    await turn?.stop();
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
    expect(code, `${out}\n${turn.log()}`).toBe(0);
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
