/**
 * Telehealth constants shared by the server and the web app, without zod (the contracts in
 * contracts/appointments.ts re-export them): slot lengths, the booking horizon, text limits.
 */

export const SLOT_MINUTES = [15, 20, 30, 45, 60] as const;
/** Slots are published this many days ahead (kept rolling by the scheduler). */
export const AVAILABILITY_HORIZON_DAYS = 56;
export const REASON_FOR_VISIT_MAX = 500;
export const CANCELLATION_NOTES_MAX = 500;
export const PROVIDER_TEXT_MAX = 200;
export const PROVIDER_BIOGRAPHY_MAX = 2000;
/** Weekdays as ISO numbers: 1 Monday … 7 Sunday. */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** A provider's speciality as a reader of `language` sees it: the Greek wording for Greek readers when given, else the other. */
export function specialityIn(language: string, speciality: string | null | undefined, specialityEl: string | null | undefined): string | null {
  return (language.startsWith('el') ? specialityEl || speciality : speciality || specialityEl) || null;
}
