import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelPath, openOperatorChannel, runThroughServer, type OperatorChannel } from './channel';

const quiet = { warn: () => undefined, error: () => undefined };

describe('the operator channel', () => {
  let dir: string;
  let channel: OperatorChannel | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hb-chan-'));
  });
  afterEach(async () => {
    await channel?.close();
    channel = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("relays a command line to the server's runner, its output in order and its exit code", async () => {
    const seen: string[][] = [];
    channel = await openOperatorChannel(
      dir,
      async (argv, io) => {
        seen.push(argv);
        io.out('first');
        io.err('a problem');
        io.out('ünïcode ✓');
        return 3;
      },
      quiet,
    );
    const lines: string[] = [];
    const code = await runThroughServer(dir, ['create-admin', '--email', 'a b@c.example'], { out: (l) => lines.push(`out:${l}`), err: (l) => lines.push(`err:${l}`) });
    expect(code).toBe(3);
    expect(seen).toEqual([['create-admin', '--email', 'a b@c.example']]);
    expect(lines).toEqual(['out:first', 'err:a problem', 'out:ünïcode ✓']);
  });

  it('a command that throws ends with exit 1 and its message; the channel serves on', async () => {
    let n = 0;
    channel = await openOperatorChannel(dir, async () => {
      if (n++ === 0) throw new Error('database gone');
      return 0;
    }, quiet);
    const errs: string[] = [];
    expect(await runThroughServer(dir, ['orgs'], { out: () => undefined, err: (l) => errs.push(l) })).toBe(1);
    expect(errs).toEqual(['database gone']);
    expect(await runThroughServer(dir, ['orgs'], { out: () => undefined, err: () => undefined })).toBe(0);
  });

  it('refuses what is not a command line with exit 2', async () => {
    channel = await openOperatorChannel(dir, async () => 0, quiet);
    const answer = await new Promise<string>((resolve) => {
      const socket = net.createConnection(channelPath(dir));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.write('{"argv": [1, 2]}\n');
    });
    expect(answer.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ err: 'operator channel: a request is one JSON line {"argv": [..]}' }, { exit: 2 }]);
  });

  it('answers undefined when no server listens: no socket, or a stale socket file; a new server replaces a stale one', async () => {
    expect(await runThroughServer(dir, ['orgs'], { out: () => undefined, err: () => undefined })).toBeUndefined();
    // What a crashed server may leave behind: a file at the socket's path that nothing listens on.
    await mkdir(path.dirname(channelPath(dir)), { recursive: true });
    await writeFile(channelPath(dir), '');
    expect(await runThroughServer(dir, ['orgs'], { out: () => undefined, err: () => undefined })).toBeUndefined();
    channel = await openOperatorChannel(dir, async () => 7, quiet);
    expect(await runThroughServer(dir, ['orgs'], { out: () => undefined, err: () => undefined })).toBe(7);
  });

  it('warns about a DATA_DIR whose socket path would be too long, and offers no channel', async () => {
    const warnings: string[] = [];
    const long = path.join(dir, 'x'.repeat(120));
    expect(await openOperatorChannel(long, async () => 0, { ...quiet, warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings[0]).toMatch(/operator commands cannot reach this server: the socket path .* is longer than 107 bytes/);
  });
});
