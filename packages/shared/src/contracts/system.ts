import { z } from 'zod';

export const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  uptime_s: z.number(),
});
export type Health = z.infer<typeof HealthSchema>;

export const MailboxMessageSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  attachments: z.array(z.object({ filename: z.string(), content_type: z.string(), size: z.number().int() })).optional(),
  created_at: z.string(),
});
export type MailboxMessage = z.infer<typeof MailboxMessageSchema>;
