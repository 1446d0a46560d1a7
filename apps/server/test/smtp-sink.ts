import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 and a random port that keeps every message it receives.
 * Messages are parsed just enough for tests: headers, and the text and HTML bodies
 * (quoted-printable, base64, one level of multipart).
 */

export interface ReceivedMail {
  /** Envelope sender and recipients, as given to MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** Header names in lower case; encoded words decoded. */
  headers: Record<string, string>;
  from: string;
  to: string;
  subject: string;
  text: string | undefined;
  html: string | undefined;
  raw: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> — what SMTP_URL should be set to. */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves with the first message (received or still to come) for this recipient, and with a matching subject if given. */
  waitForMail(to: string, opts?: { timeoutMs?: number; subject?: RegExp }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<{ to: string; subject: RegExp | undefined; resolve: (m: ReceivedMail) => void }> = [];

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const mail = parseMessage(Buffer.concat(chunks).toString('utf8'), {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        messages.push(mail);
        for (const w of [...waiters]) {
          if (matches(mail, w.to, w.subject)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitForMail(to, { timeoutMs = 10_000, subject } = {}) {
      const found = messages.find((m) => matches(m, to, subject));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`No mail for ${to}; received for: ${messages.map((m) => m.envelope.to.join(',')).join('; ') || 'nobody'}`));
        }, timeoutMs);
        const waiter = {
          to,
          subject,
          resolve: (m: ReceivedMail) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const matches = (mail: ReceivedMail, to: string, subject?: RegExp) =>
  mail.envelope.to.some((a) => a.toLowerCase() === to.toLowerCase()) && (!subject || subject.test(mail.subject));

/* ---- minimal RFC 5322 / MIME parsing ---- */

function splitHeadersAndBody(raw: string): { headers: Record<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers: Record<string, string> = {};
  // Unfold continuation lines, then split "Name: value".
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = decodeEncodedWords(line.slice(colon + 1).trim());
    headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
  }
  return { headers, body };
}

/** RFC 2047 encoded words: =?charset?B|Q?text?= (UTF-8 and Latin-1). */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, charset: string, enc: string, text: string) => {
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
      return bytes.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
    });
}

function decodeTransfer(body: string, encoding: string | undefined, contentType: string | undefined): string {
  const charset = /charset="?([^";]+)"?/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  const asText = (b: Buffer) => b.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return asText(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
    case 'quoted-printable': {
      const soft = body.replace(/=\n/g, '');
      const bytes: number[] = [];
      for (let i = 0; i < soft.length; i++) {
        const m = soft[i] === '=' ? /^[0-9A-Fa-f]{2}$/.exec(soft.slice(i + 1, i + 3)) : null;
        if (m) {
          bytes.push(parseInt(m[0], 16));
          i += 2;
        } else {
          bytes.push(...Buffer.from(soft[i]!, 'utf8'));
        }
      }
      return asText(Buffer.from(bytes));
    }
    default:
      return body;
  }
}

interface Part {
  type: string;
  text: string;
}

function parts(headers: Record<string, string>, body: string): Part[] {
  const contentType = headers['content-type'] ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return [];
    const sections = body.split(`--${boundary}`).slice(1);
    return sections
      .filter((s) => !s.startsWith('--'))
      .flatMap((s) => {
        const p = splitHeadersAndBody(s.replace(/^\n/, ''));
        return parts(p.headers, p.body);
      });
  }
  const text = decodeTransfer(body, headers['content-transfer-encoding'], contentType).replace(/\n$/, '');
  return [{ type, text }];
}

export function parseMessage(raw: string, envelope: ReceivedMail['envelope']): ReceivedMail {
  const { headers, body } = splitHeadersAndBody(raw);
  const all = parts(headers, body);
  return {
    envelope,
    headers,
    from: headers.from ?? '',
    to: headers.to ?? '',
    subject: headers.subject ?? '',
    text: all.find((p) => p.type === 'text/plain')?.text,
    html: all.find((p) => p.type === 'text/html')?.text,
    raw,
  };
}
