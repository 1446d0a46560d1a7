import { z } from 'zod';

export const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  uptime_s: z.number(),
});
export type Health = z.infer<typeof HealthSchema>;

/** GET /api/health/live: the process answers. */
export const LivenessSchema = z.object({ status: z.literal('ok'), uptime_s: z.number() }).meta({ id: 'Liveness' });

const dependency = z.enum(['ok', 'unavailable', 'not configured']);
/** GET /api/health/ready: whether this process can serve requests now, and what it depends on. */
export const ReadinessSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: dependency,
    redis: dependency,
    storage: dependency,
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof ReadinessSchema>;

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
