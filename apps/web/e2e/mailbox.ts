import { expect } from '@playwright/test';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The whole message as received (headers and every MIME part). */
  raw: string;
}

const MAIL_URL = `http://127.0.0.1:${process.env.E2E_MAIL_PORT ?? 18767}/messages`;

/** All mail received so far by the SMTP server the journeys' server sends through. */
export async function mailFor(to: string): Promise<Mail[]> {
  const res = await fetch(`${MAIL_URL}?to=${encodeURIComponent(to)}`);
  return (await res.json()) as Mail[];
}

/** Waits for the n-th message (1-based, default: one more than `after`) to that address whose subject matches. */
export async function waitForMail(to: string, subject: RegExp, after = 0): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const matching = (await mailFor(to)).filter((m) => subject.test(m.subject));
        found = matching[after];
        return Boolean(found);
      },
      { timeout: 15_000, message: `mail to ${to} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}

export const firstLink = (mail: Mail) => /(https?:\/\/[^\s<>"]+)/.exec(mail.text)?.[1] ?? '';
export const sixDigitCode = (mail: Mail) => /\b([0-9]{6})\b/.exec(mail.text)?.[1] ?? '';
export const accessCode = (mail: Mail) => /\b([A-HJ-NP-Z2-9]{10})\b/.exec(mail.text)?.[1] ?? '';

/**
 * The attachments of a message: each MIME part with a file name, its content type and its text
 * (base64 decoded). Enough for the .ics files the server attaches.
 */
export function attachments(mail: Mail): Array<{ filename: string; contentType: string; text: string }> {
  const found: Array<{ filename: string; contentType: string; text: string }> = [];
  for (const part of mail.raw.replace(/\r\n/g, '\n').split(/\n--[^\n]+\n/)) {
    const end = part.indexOf('\n\n');
    if (end < 0) continue;
    const head = part.slice(0, end).replace(/\n[ \t]+/g, ' ');
    const filename = /filename="?([^";\n]+)"?/i.exec(head)?.[1];
    if (!filename) continue;
    const contentType = /^content-type:\s*([^;\n]+)/im.exec(head)?.[1]?.trim().toLowerCase() ?? '';
    const body = part.slice(end + 2).replace(/\n--[^\n]*--\s*$/, '');
    const base64 = /^content-transfer-encoding:\s*base64/im.test(head);
    found.push({ filename, contentType, text: base64 ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body });
  }
  return found;
}
