import { z } from 'zod';
import {
  EVENT_COLORS,
  EVENT_DESCRIPTION_MAX,
  EVENT_TITLE_MAX,
  EVENT_TYPE_KEYS,
  REMINDER_MAX_MINUTES,
  isTimeZone,
  parseRecurrence,
} from '../calendar';
import { IdParamSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

/**
 * The calendar API: a patient's events (one-off or recurring), expanded for a window together
 * with their appointments, and the private calendar feed (webcal) of a user.
 */

const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** A calendar day, YYYY-MM-DD, that exists. */
export const calendarDaySchema = z
  .string()
  .regex(DATE_FORMAT, { message: 'validation:dateFormat', abort: true })
  .refine(isRealDate, { message: 'validation:dateFormat' });

/** An instant with its offset or Z (ISO 8601 / RFC 3339). */
export const instantSchema = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'validation:dateTimeFormat',
  })
  .describe('ISO 8601 date and time with offset, e.g. 2026-11-24T09:30:00Z');

export const timeZoneSchema = z.string().refine(isTimeZone, { message: 'validation:timeZoneInvalid' }).describe('IANA time zone, e.g. Europe/Athens');

export const recurrenceSchema = z
  .string()
  .superRefine((value, ctx) => {
    const parsed = parseRecurrence(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `validation:${parsed.problem}` });
  })
  .describe('RFC 5545 RRULE: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, optional INTERVAL (1-99), BYDAY (weekly only: MO..SU), and UNTIL or COUNT (1-730)');

export const EventTypeSchema = z.enum(EVENT_TYPE_KEYS);
export const EventColorSchema = z.enum(EVENT_COLORS);

export const CalendarWindowQuerySchema = z.object({
  start: calendarDaySchema.describe('first day, YYYY-MM-DD'),
  end: calendarDaySchema.describe('last day (included), YYYY-MM-DD'),
  tz: timeZoneSchema.optional().describe('the days are days in this time zone (default UTC)'),
  patient: IdParamSchema.optional().describe('whose calendar (default: your own)'),
});
export type CalendarWindowQuery = z.infer<typeof CalendarWindowQuerySchema>;

export const EventIdParamsSchema = z.object({ event_id: IdParamSchema });

export const CalendarPatientQuerySchema = z.object({ patient: IdParamSchema.optional().describe('whose calendar (default: your own)') });

/**
 * Creating or replacing an event. A colour, when given, must be its type's. The event's
 * read-only fields (CALENDAR_EVENT_READ_ONLY) are accepted and ignored, so an event as GET
 * answers it may be sent back; `is_recurring: true` needs a `recurrence` (it is derived from it).
 */
const EVENT_READ_ONLY = ['event_id', 'is_recurring', 'patient_id', 'created_at', 'updated_at'] as const;
export const CalendarEventBodySchema = writableBody(
  z
    .object({
      title: z.string().trim().min(1, { message: 'validation:required' }).max(EVENT_TITLE_MAX),
      description: z.string().max(EVENT_DESCRIPTION_MAX).nullable().optional(),
      type: EventTypeSchema,
      color: EventColorSchema.optional(),
      start_time: instantSchema,
      end_time: instantSchema,
      all_day: z.boolean().optional().default(false),
      recurrence: recurrenceSchema.nullable().optional(),
      reminder_minutes: z.number().int().min(0).max(REMINDER_MAX_MINUTES).nullable().optional(),
      timezone: timeZoneSchema.optional().describe('the zone the event recurs in (default UTC): a weekly 09:00 stays 09:00 across daylight-saving changes'),
    })
    .strict(),
  EVENT_READ_ONLY,
  [{ field: 'is_recurring', requires: 'recurrence' }],
);
export type CalendarEventBody = z.input<typeof CalendarEventBodySchema>;

/** What an event and a window's item share. */
const eventFields = {
  title: z.string(),
  description: z.string().nullable(),
  color: EventColorSchema,
  type: EventTypeSchema,
  start_time: z.string(),
  end_time: z.string(),
  all_day: z.boolean(),
  is_recurring: z.boolean(),
  recurrence: z.string().nullable(),
  reminder_minutes: z.number().int().nullable(),
};

export const CalendarEventSchema = z
  .object({
    event_id: z.number().int(),
    ...eventFields,
    timezone: z.string(),
    patient_id: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'CalendarEvent' });
export type CalendarEvent = z.infer<typeof CalendarEventSchema>;
/** What an event's answer holds that a client cannot set: sent back, ignored. */
export const CALENDAR_EVENT_READ_ONLY = readOnlyFields(CalendarEventSchema, EVENT_READ_ONLY);

/** What a window holds: events (a recurring one once per occurrence) and appointments, by start. */
export const CalendarItemSchema = z
  .object({
    kind: z.enum(['event', 'appointment']),
    /** The event's id; for an appointment its availability_det_id (the specification). */
    event_id: z.number().int(),
    ...eventFields,
    /** Appointments only. */
    appointment_date: z.string().optional(),
    appointment_time: z.string().optional(),
    provider_name: z.string().optional(),
    provider_id: z.number().int().optional(),
    provider_speciality: z.string().nullable().optional(),
    provider_speciality_el: z.string().nullable().optional(),
    availability_det_id: z.number().int().optional(),
  })
  .meta({ id: 'CalendarItem' });
export type CalendarItem = z.infer<typeof CalendarItemSchema>;
export const CalendarItemListSchema = z.array(CalendarItemSchema);

/** The private calendar feed: whether it is on; the address only when it is made (it is kept hashed). */
export const CalendarFeedSchema = z.object({
  active: z.boolean(),
  created_at: z.string().nullable(),
  url: z.string().nullable().describe('webcal:// address, given once when the feed is made or reset'),
});
export type CalendarFeed = z.infer<typeof CalendarFeedSchema>;
export const CalendarFeedTokenParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}\.ics$/, { message: 'validation:invalid' }) });
