import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MailboxMessageSchema } from '@healthbook/shared';
import { OutboxRepository } from '../mail/outbox.repository';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Development mailbox: the mail kept in the outbox when no SMTP_URL is set. Never registered in production. */
export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  const outbox = new OutboxRepository(app.db);

  app.get(
    '/dev/mailbox/messages',
    {
      schema: {
        tags: ['development'],
        summary: 'Outbox messages, newest first (development only)',
        querystring: z.object({ to: z.string().max(254).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: z.array(MailboxMessageSchema) },
      },
    },
    async (request) => {
      const messages = await outbox.latest(request.query.limit);
      const to = request.query.to?.toLowerCase();
      return to ? messages.filter((m) => m.to.toLowerCase() === to) : messages;
    },
  );

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const messages = await outbox.latest(50);
    const items = messages
      .map(
        (m) => `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(m.created_at)}</p><pre>${escapeHtml(m.text)}</pre></article>`,
      )
      .join('\n');
    const notice =
      app.mailer.mode === 'smtp'
        ? '<p>Mail is sent through SMTP_URL; nothing is kept here.</p>'
        : messages.length === 0
          ? '<p>No mail yet.</p>'
          : '';
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Development mailbox</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}.meta{color:#555}pre{white-space:pre-wrap}</style></head><body><main><h1>Development mailbox</h1>${notice}${items}</main></body></html>`,
      );
  });
};
