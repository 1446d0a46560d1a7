// The product started the way README tells users (`npm start` runs scripts/start.mjs, which builds
// what is stale and runs the built server), on a fresh embedded database with the demo data, sending
// its mail to a real SMTP server started here; the journeys read that mail over HTTP (see mailbox.ts).
// SIGTERM or SIGINT stops the server (through start.mjs), then the mail servers, and removes DATA_DIR.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { haveCoturn, startCoturn } from '../../server/test/coturn';
import { startSmtpSink } from '../../server/test/smtp-sink';

const root = path.resolve(import.meta.dirname, '../../..');
const port = process.env.E2E_PORT ?? '18765';
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 18767);
// The journeys' configuration names it (operator commands reach the server through it); else a new one.
const dataDir = process.env.E2E_DATA_DIR || mkdtempSync(path.join(tmpdir(), 'hb-e2e-'));
const sink = await startSmtpSink();
// A TURN relay beside the product, as the operator docs describe (the video visit journeys prove
// the relay path through it); without coturn installed the product runs peer to peer only.
const turnSecret = `e2e-turn-${process.pid}-${Date.now()}`;
const turn = (await haveCoturn()) ? await startCoturn(turnSecret) : null;

const mailbox = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const to = url.searchParams.get('to')?.toLowerCase();
  const messages = sink.messages
    .filter((m) => !to || m.envelope.to.some((r) => r.toLowerCase() === to))
    .map((m) => ({ to: m.envelope.to, subject: m.subject, text: m.text ?? '', html: m.html ?? '', raw: m.raw }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(messages));
});
mailbox.listen(mailPort, '127.0.0.1');

const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: sink.url,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Journeys sign in many times from one address.
    AUTH_RATE_LIMIT: '10000',
    ...(turn ? { TURN_URLS: turn.urls.join(','), TURN_SECRET: turnSecret } : {}),
  },
});
// start.mjs passes the signal on to the build or the server; the server stops gracefully.
const stop = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', async (code, signal) => {
  mailbox.close();
  await sink.close();
  await turn?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
