// The built server on a fresh embedded database with the demo data, sending its mail to a real
// SMTP server started here; the journeys read that mail over HTTP (see mailbox.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpSink } from '../../server/test/smtp-sink';

const port = process.env.E2E_PORT ?? '18765';
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 18767);
const dataDir = mkdtempSync(path.join(tmpdir(), 'hb-e2e-'));
const sink = await startSmtpSink();

const mailbox = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const to = url.searchParams.get('to')?.toLowerCase();
  const messages = sink.messages
    .filter((m) => !to || m.envelope.to.some((r) => r.toLowerCase() === to))
    .map((m) => ({ to: m.envelope.to, subject: m.subject, text: m.text ?? '', html: m.html ?? '' }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(messages));
});
mailbox.listen(mailPort, '127.0.0.1');

const server = path.resolve(import.meta.dirname, '../../server/dist/server.js');
const child = spawn(process.execPath, [server], {
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
    SMTP_URL: sink.url,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Journeys sign in many times from one address.
    AUTH_RATE_LIMIT: '10000',
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', async (code) => {
  mailbox.close();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
