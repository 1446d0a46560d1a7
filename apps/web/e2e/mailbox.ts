import { expect } from '@playwright/test';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
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
