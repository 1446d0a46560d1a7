import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The operator's channel to the server that owns an embedded DATA_DIR. One process owns an
 * embedded database (db/data-dir-lock.ts), so a CLI command cannot open it while the server
 * runs; instead the CLI hands the command line to the server, which runs the same command
 * module against its own database, mailer and file store and streams back what it prints and
 * its exit code.
 *
 * The channel is a Unix domain socket inside DATA_DIR, in a directory only the owner may enter
 * (0700) and itself 0600: only the machine's operator (the account the server runs as, and
 * root) can connect. It is never a TCP port nor an HTTP route: nothing on the network reaches it.
 *
 * The protocol: one JSON line from the CLI, `{"argv": ["create-admin", "--email", …]}`; then
 * JSON lines from the server, `{"out": "…"}` and `{"err": "…"}` as the command prints, and a
 * last `{"exit": <code>}`.
 */

/** Where the socket lives in a DATA_DIR. */
export function channelPath(dataDir: string): string {
  return path.join(dataDir, 'run', 'cli.sock');
}

/** A Unix socket's path is limited to 107 bytes on Linux (sun_path). */
const MAX_SOCKET_PATH = 107;
/** A command line is small; anything larger is not one. */
const MAX_REQUEST_BYTES = 64 * 1024;

export type Frame = { out: string } | { err: string } | { exit: number };

export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface OperatorChannel {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Opens the channel for a server that holds DATA_DIR's lock (so a socket file left there by a
 * process that died is stale and is replaced). `run` carries out one command line. Answers
 * undefined, after a warning, when the path is too long for a Unix socket.
 */
export async function openOperatorChannel(
  dataDir: string,
  run: (argv: string[], io: CommandIo) => Promise<number>,
  log: { warn: (msg: string) => void; error: (obj: object, msg: string) => void },
): Promise<OperatorChannel | undefined> {
  const file = channelPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    log.warn(`operator commands cannot reach this server: the socket path ${file} is longer than ${MAX_SOCKET_PATH} bytes (choose a shorter DATA_DIR)`);
    return undefined;
  }
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  rmSync(file, { force: true });

  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    let started = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (started) return;
      buffered += chunk;
      if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) {
        socket.destroy();
        return;
      }
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      started = true;
      void serve(socket, buffered.slice(0, end));
    });
  });

  const send = (socket: net.Socket, frame: Frame) => {
    if (!socket.destroyed) socket.write(JSON.stringify(frame) + '\n');
  };
  const serve = async (socket: net.Socket, line: string) => {
    let argv: unknown;
    try {
      argv = (JSON.parse(line) as { argv?: unknown }).argv;
    } catch {
      argv = undefined;
    }
    if (!Array.isArray(argv) || !argv.every((a): a is string => typeof a === 'string')) {
      send(socket, { err: 'operator channel: a request is one JSON line {"argv": [..]}' });
      send(socket, { exit: 2 });
      socket.end();
      return;
    }
    let code: number;
    try {
      code = await run(argv, { out: (text) => send(socket, { out: text }), err: (text) => send(socket, { err: text }) });
    } catch (err) {
      log.error({ err }, 'an operator command failed');
      send(socket, { err: err instanceof Error ? err.message : String(err) });
      code = 1;
    }
    send(socket, { exit: code });
    socket.end();
  };

  // Created 0600 from the start: the umask is tightened only while the socket file is made.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const umask = process.umask(0o177);
    try {
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
  chmodSync(file, 0o600);

  return {
    path: file,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      rmSync(file, { force: true });
    },
  };
}

/**
 * The CLI's side: sends the command line to the server holding DATA_DIR and relays what it
 * prints. Answers the command's exit code, or undefined when no server listens there (none
 * offers the channel: another kind of process holds the lock, or a stale socket file).
 */
export function runThroughServer(dataDir: string, argv: string[], io: CommandIo): Promise<number | undefined> {
  const file = channelPath(dataDir);
  if (!existsSync(file)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(file);
    let connected = false;
    let exit: number | undefined;
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(JSON.stringify({ argv }) + '\n');
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const frame = JSON.parse(buffered.slice(0, end)) as Frame;
        buffered = buffered.slice(end + 1);
        if ('out' in frame) io.out(frame.out);
        else if ('err' in frame) io.err(frame.err);
        else if ('exit' in frame) exit = frame.exit;
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === 'ECONNREFUSED' || err.code === 'ENOENT')) resolve(undefined);
      else reject(err);
    });
    socket.on('close', () => {
      if (!connected) return;
      if (exit === undefined) reject(new Error('the server closed the operator channel before the command finished'));
      else resolve(exit);
    });
  });
}
