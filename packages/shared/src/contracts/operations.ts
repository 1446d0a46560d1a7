import { z } from 'zod';
import { IdParamSchema } from './common';

const isoDate = z
  .string()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: 'validation:dateFormat' })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
    message: 'validation:dateFormat',
  });

/** The longest period one summary covers (days). */
export const OPERATIONS_MAX_DAYS = 366;

/** GET /api/v1/operationsdashboard/summary/ and /export/ */
export const OperationsQuerySchema = z
  .object({
    organization_id: IdParamSchema,
    from: isoDate,
    to: isoDate,
    tz: z
      .string()
      .max(64)
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, { message: 'validation:timeZoneInvalid' })
      .default('UTC'),
  })
  .refine((q) => q.from <= q.to, { message: 'validation:periodOrder', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < OPERATIONS_MAX_DAYS, { message: 'validation:periodTooLong', path: ['to'] });
export type OperationsQuery = z.output<typeof OperationsQuerySchema>;

export const DailySignInsSchema = z.object({
  date: z.string(),
  sign_ins: z.number().int(),
  failed_sign_ins: z.number().int(),
  lockouts: z.number().int(),
});

export const OperationsSummarySchema = z
  .object({
    organization: z.object({ id: z.number().int(), name: z.string(), org_name: z.string() }),
    period: z.object({ from: z.string(), to: z.string(), tz: z.string() }),
    patients: z.number().int().describe('active patient accounts now'),
    users: z.number().int().describe('active accounts now'),
    active_users: z.object({
      last_7_days: z.number().int().describe('accounts that signed in or used a feature in the 7 days ending with `to`'),
      last_30_days: z.number().int(),
    }),
    daily: z.array(DailySignInsSchema).describe('one row per day of the period, in `tz`'),
    second_factor: z.object({
      users_with: z.number().int(),
      users: z.number().int(),
      share: z.number().describe('users_with / users, 0 when there are no users'),
    }),
    invitations: z.object({ pending: z.number().int(), used: z.number().int(), expired: z.number().int() }),
    feature_usage: z.array(z.object({ feature_id: z.number().int(), key: z.string(), display_name: z.string(), uses: z.number().int() })),
  })
  .meta({ id: 'OperationsSummary' });
export type OperationsSummary = z.infer<typeof OperationsSummarySchema>;
