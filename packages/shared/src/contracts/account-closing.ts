import { z } from 'zod';
import { ReauthFieldsSchema } from './auth';

/** How long a closed account waits before it is erased; signing in again within it cancels the closing. */
export const ACCOUNT_CLOSING_GRACE_DAYS = 14;

/** A family member managed only by the account being closed: erased with it. */
export const ClosingDependantSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  relationship: z.string().nullable(),
});
export type ClosingDependant = z.infer<typeof ClosingDependantSchema>;

/** GET /api/v1/me/closing/: what closing the account would erase that is not obvious, and whether the account can be closed. */
export const ClosingPreviewSchema = z.object({
  /** Staff accounts (provider, coach, administrator) are closed by an administrator, not here. */
  can_close: z.boolean(),
  grace_days: z.number().int(),
  dependants: z.array(ClosingDependantSchema),
  /** Upcoming appointments that will be cancelled (the provider is told). */
  upcoming_appointments: z.number().int(),
  /** People of the care network who lose access (they are told). */
  care_network: z.number().int(),
  /**
   * What the erasure will delete, counted by the erasure's own plan (every table of patient data,
   * for the account's record and the dependants above): rows per table, and the stored files
   * (documents, insurance card photos, chat files, exports, the avatar).
   */
  erases: z.object({
    rows: z.record(z.string(), z.number().int()).describe('rows per table, e.g. health_records, documents, journal_entries, calendar_events, chat_conversations, shares'),
    files: z.number().int(),
  }),
});
export type ClosingPreview = z.infer<typeof ClosingPreviewSchema>;

/** POST /api/v1/me/closing/: the password (or a second factor's code) again. */
export const CloseAccountBodySchema = ReauthFieldsSchema;
export type CloseAccountBody = z.infer<typeof CloseAccountBodySchema>;

export const ClosingStartedSchema = z.object({
  detail: z.string(),
  /** When the account will be erased, unless its holder signs in before. */
  erase_after: z.string(),
});
export type ClosingStarted = z.infer<typeof ClosingStartedSchema>;

/** An organisation administrator's view of a closing that is still pending. */
export const PendingClosingSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  requested_at: z.string(),
  erase_after: z.string(),
  dependants: z.number().int(),
});
export type PendingClosing = z.infer<typeof PendingClosingSchema>;

export const PendingClosingsQuerySchema = z.object({
  /** Super administrators: the organisation (by id) whose closings to list; others: their own. */
  org: z.coerce.number().int().positive().optional(),
});
export const PendingClosingsSchema = z.object({ results: z.array(PendingClosingSchema) });
