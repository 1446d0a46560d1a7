import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailboxMessage } from '@healthbook/shared';
import { SmtpMailer } from '../src/plugins/mail';
import { buildTestApp, captureLogs, useTestApp, type TestApp } from './build-app';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

describe('with SMTP_URL: mail goes to the SMTP server', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp({ env: { SMTP_URL: sink.url, MAIL_FROM: 'HealthBook Test <no-reply@healthbook.test>' } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('delivers a plain-text message', async () => {
    expect(t.app.mailer.mode).toBe('smtp');
    await t.app.mailer.send({
      to: 'maria@example.test',
      subject: 'Your sign-in code',
      text: 'Your code is 482913.\nΚαλή συνέχεια!',
    });
    const mail = await sink.waitForMail('maria@example.test');
    expect(mail.envelope).toEqual({ from: 'no-reply@healthbook.test', to: ['maria@example.test'] });
    expect(mail.from).toBe('HealthBook Test <no-reply@healthbook.test>');
    expect(mail.to).toBe('maria@example.test');
    expect(mail.subject).toBe('Your sign-in code');
    expect(mail.text).toBe('Your code is 482913.\nΚαλή συνέχεια!');
  });

  it('delivers text and HTML, with a Greek subject', async () => {
    await t.app.mailer.send({
      to: 'nikos@example.test',
      subject: 'Επιβεβαίωση λογαριασμού',
      text: 'Open https://healthbook.example/confirm/abc to confirm.',
      html: '<p>Open <a href="https://healthbook.example/confirm/abc">this link</a> to confirm.</p>',
    });
    const mail = await sink.waitForMail('nikos@example.test');
    expect(mail.subject).toBe('Επιβεβαίωση λογαριασμού');
    expect(mail.text).toContain('https://healthbook.example/confirm/abc');
    expect(mail.html).toContain('<a href="https://healthbook.example/confirm/abc">this link</a>');
  });

  it('keeps nothing in the outbox', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox/messages' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.body).toContain('Mail is sent through SMTP_URL');
  });

  it('fails loudly when the SMTP server cannot be reached', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@healthbook.test');
    try {
      await expect(mailer.send({ to: 'x@example.test', subject: 's', text: 't' })).rejects.toThrow(/ECONNREFUSED|connect/i);
    } finally {
      mailer.close();
    }
  });
});

describe('without SMTP_URL: mail is kept in the outbox', () => {
  const t = useTestApp();

  it('lists the message at /dev/mailbox/messages?to=', async () => {
    expect(t.app.mailer.mode).toBe('outbox');
    await t.app.mailer.send({ to: 'John.Carter@example.test', subject: 'Reset your password', text: 'Reset code 771204' });
    await t.app.mailer.send({ to: 'someone-else@example.test', subject: 'Other', text: 'Other body' });

    const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox/messages?to=john.carter@example.test' });
    expect(res.statusCode).toBe(200);
    const messages = res.json<MailboxMessage[]>();
    expect(messages).toEqual([
      {
        id: expect.any(Number),
        to: 'John.Carter@example.test',
        subject: 'Reset your password',
        text: 'Reset code 771204',
        html: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    const all = (await t.app.inject({ method: 'GET', url: '/dev/mailbox/messages' })).json<MailboxMessage[]>();
    expect(all.map((m) => m.subject)).toEqual(['Other', 'Reset your password']); // newest first
  });

  it('shows the messages, escaped, on the /dev/mailbox page', async () => {
    await t.app.mailer.send({ to: 'html@example.test', subject: 'Hello <b>there</b>', text: 'a & b' });
    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Hello &lt;b&gt;there&lt;/b&gt;');
    expect(page.body).toContain('a &amp; b');
    expect(page.body).not.toContain('<b>there</b>');
  });

  it('logs that a message arrived, never its content', async () => {
    const logs = captureLogs(t.app);
    try {
      await t.app.mailer.send({
        to: 'secret-recipient@example.test',
        subject: 'Your code 918273',
        text: 'Use code 918273 to sign in.',
        html: '<p>Use code <b>918273</b></p>',
      });
    } finally {
      logs.restore();
    }
    const line = logs.lines.find((l) => l.includes('mail kept in the outbox'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ outboxId: expect.any(Number) });
    expect(logs.lines.join('')).not.toContain('918273');
  });
});
