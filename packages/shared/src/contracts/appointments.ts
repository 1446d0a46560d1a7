import { z } from 'zod';
import { cleanText } from '../validation';
import { calendarDaySchema, timeZoneSchema } from './calendar';
import { IdParamSchema, IdSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';
import { categoryDefinition } from '../records/categories';
import { VISIT_NOTE_FIELDS } from '../visits';
import { recordFieldsBodySchema } from './records';
import { CANCELLATION_NOTES_MAX, PROVIDER_BIOGRAPHY_MAX, PROVIDER_TEXT_MAX, REASON_FOR_VISIT_MAX, SLOT_MINUTES } from '../appointments';

/**
 * Telehealth: providers (users with the provider role) publish their availability as weekly
 * hours and exceptions, cut into slots (each an availability_det_id); patients book a slot and
 * either side cancels. Paths under /api/v1/provider/ as the specification's client uses them.
 */

// The constants live in the zod-free ../appointments (the web app imports them without zod).
export { SLOT_MINUTES, AVAILABILITY_HORIZON_DAYS, REASON_FOR_VISIT_MAX, CANCELLATION_NOTES_MAX, PROVIDER_TEXT_MAX, PROVIDER_BIOGRAPHY_MAX, ISO_WEEKDAYS } from '../appointments';

const wallTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'validation:timeFormat' }).describe('HH:MM, 24-hour');
const text = (max: number) => z.string().transform(cleanText).pipe(z.string().max(max));

export const ProviderSchema = z
  .object({
    provider_id: z.number().int(),
    provider_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    speciality: z.string().nullable(),
    /** The speciality in Greek, when the provider gives it too (specialityIn picks the reader's). */
    speciality_el: z.string().nullable(),
    credentials: z.string().nullable(),
    languages: z.array(z.string()),
    biography: z.string().nullable(),
    photo_url: z.string().nullable(),
    timezone: z.string(),
    slot_minutes: z.number().int(),
    /** The first free slot from now on, if any. */
    next_available: z.string().nullable(),
  })
  .meta({ id: 'Provider' });
export type Provider = z.infer<typeof ProviderSchema>;
export const ProviderListSchema = z.array(ProviderSchema);

export const ProviderListQuerySchema = z.object({
  speciality: z.string().max(PROVIDER_TEXT_MAX).optional().describe('exact speciality (case-insensitive); empty: all'),
  date: calendarDaySchema.optional().describe('only providers with a free slot that day'),
  tz: timeZoneSchema.optional().describe('the day is a day in this zone (default UTC)'),
});

export const ProviderIdParamsSchema = z.object({ id: IdParamSchema });

export const SlotSchema = z.object({
  availability_det_id: z.number().int(),
  start_time: z.string(),
  end_time: z.string(),
});
export type Slot = z.infer<typeof SlotSchema>;

export const AvailabilityQuerySchema = z.object({
  start: calendarDaySchema,
  end: calendarDaySchema,
  tz: timeZoneSchema.optional(),
});

export const ProviderAvailabilitySchema = z.object({
  provider_id: z.number().int(),
  slots: z.array(SlotSchema).describe('free slots from now on, in the window, by start'),
});
export type ProviderAvailability = z.infer<typeof ProviderAvailabilitySchema>;

export const BookAppointmentBodySchema = z
  .object({
    provider_id: IdSchema,
    availability_det_id: IdSchema,
    reason_for_visit: text(REASON_FOR_VISIT_MAX).pipe(z.string().min(1, { message: 'validation:reasonRequired' })),
  })
  .strict();
export type BookAppointmentBody = z.input<typeof BookAppointmentBodySchema>;

/** The specification's cancel payload. appointment_date (YYYY-MM-DD, the provider's day), when given, must be the appointment's. */
export const CancelAppointmentBodySchema = z
  .object({
    provider_id: IdSchema,
    availability_det_id: IdSchema,
    cancellation_notes: text(CANCELLATION_NOTES_MAX).nullable().optional(),
    appointment_date: z.string().nullable().optional(),
    is_cancel_from_provider: z.boolean().optional().default(false),
  })
  .strict();
export type CancelAppointmentBody = z.input<typeof CancelAppointmentBodySchema>;

export const APPOINTMENT_STATUSES = ['booked', 'cancelled'] as const;

export const AppointmentDetailSchema = z
  .object({
    appointment_id: z.number().int(),
    availability_det_id: z.number().int(),
    provider_id: z.number().int(),
    provider_name: z.string(),
    provider_speciality: z.string().nullable(),
    provider_speciality_el: z.string().nullable(),
    patient_id: z.number().int(),
    patient_name: z.string(),
    appointment_date: z.string(),
    appointment_time: z.string(),
    start_time: z.string(),
    end_time: z.string(),
    reason_for_visit: z.string(),
    status: z.enum(APPOINTMENT_STATUSES),
    cancellation_notes: z.string().nullable(),
    cancelled_by_provider: z.boolean(),
    cancelled_at: z.string().nullable(),
    created_at: z.string(),
    booked_by_name: z.string().nullable().optional().describe('who booked it for the patient (a care-network person acting for them); null when the patient booked'),
    cancelled_by_name: z.string().nullable().optional().describe('who cancelled it for the patient (a care-network person acting for them); null otherwise'),
  })
  .meta({ id: 'AppointmentDetail' });
export type AppointmentDetail = z.infer<typeof AppointmentDetailSchema>;
export const AppointmentDetailListSchema = z.array(AppointmentDetailSchema);

export const AppointmentListQuerySchema = z.object({
  start: calendarDaySchema.optional(),
  end: calendarDaySchema.optional(),
  tz: timeZoneSchema.optional(),
  status: z.enum(APPOINTMENT_STATUSES).optional(),
  patient: IdParamSchema.optional().describe('whose appointments (default: your own; patients only)'),
});

export const AppointmentSlotParamsSchema = z.object({ availability_det_id: IdParamSchema });

// --- The provider console ---------------------------------------------------------------------

export const WeeklyHoursSchema = z.object({ weekday: z.number().int().min(1).max(7).describe('1 Monday … 7 Sunday'), start: wallTime, end: wallTime });
export const AvailabilityExceptionSchema = z.object({
  date: calendarDaySchema,
  /** Both null: not available that day; otherwise these hours replace the weekly ones. */
  start: wallTime.nullable(),
  end: wallTime.nullable(),
});

/** What the schedule's answer counts (free slots, horizon): sent back, ignored. */
const SCHEDULE_READ_ONLY = ['open_slots', 'horizon_days'] as const;

export const ProviderScheduleBodySchema = writableBody(
  z
    .object({
      slot_minutes: z
        .number()
        .int()
        .refine((m) => (SLOT_MINUTES as readonly number[]).includes(m), { message: 'validation:slotMinutes' })
        .describe(`one of ${SLOT_MINUTES.join(', ')}`),
      timezone: timeZoneSchema,
      weekly: z.array(WeeklyHoursSchema).max(70),
      exceptions: z.array(AvailabilityExceptionSchema).max(400),
    })
    .strict(),
  SCHEDULE_READ_ONLY,
);
export type ProviderScheduleBody = z.input<typeof ProviderScheduleBodySchema>;

export const ProviderScheduleSchema = z.object({
  slot_minutes: z.number().int(),
  timezone: z.string(),
  weekly: z.array(WeeklyHoursSchema),
  exceptions: z.array(AvailabilityExceptionSchema),
  /** Free slots from now to the horizon. */
  open_slots: z.number().int(),
  horizon_days: z.number().int(),
});
export type ProviderSchedule = z.infer<typeof ProviderScheduleSchema>;
export const PROVIDER_SCHEDULE_READ_ONLY = readOnlyFields(ProviderScheduleSchema, SCHEDULE_READ_ONLY);

/** A provider's answer beyond the profile: who they are (their account), their photo, their schedule's zone and slots, the next free slot. */
export const PROVIDER_PROFILE_READ_ONLY = readOnlyFields(ProviderSchema, [
  'provider_id',
  'provider_name',
  'first_name',
  'last_name',
  'photo_url',
  'timezone',
  'slot_minutes',
  'next_available',
]);

export const ProviderProfileBodySchema = writableBody(
  z
    .object({
      speciality: text(PROVIDER_TEXT_MAX).nullable().optional(),
      speciality_el: text(PROVIDER_TEXT_MAX).nullable().optional(),
      credentials: text(PROVIDER_TEXT_MAX).nullable().optional(),
      languages: z.array(text(40).pipe(z.string().min(1))).max(20).optional(),
      biography: z.string().max(PROVIDER_BIOGRAPHY_MAX).nullable().optional(),
    })
    .strict(),
  PROVIDER_PROFILE_READ_ONLY,
);
export type ProviderProfileBody = z.input<typeof ProviderProfileBodySchema>;

/** One entry of the browser's RTCConfiguration.iceServers: STUN as it is, TURN with short-lived credentials. */
export const VisitIceServerSchema = z
  .object({
    urls: z.array(z.string()),
    username: z.string().optional(),
    credential: z.string().optional(),
  })
  .meta({ id: 'VisitIceServer' });

/**
 * A telehealth appointment's video visit as one participant sees it: whether it may be joined now
 * (its window: VISIT_EARLY_MINUTES before the start to the end), who is on each side, and, while
 * it is open, the ICE servers for the call (none: peer to peer only).
 */
export const VisitSchema = z
  .object({
    appointment_id: z.number().int(),
    availability_det_id: z.number().int(),
    /** The side of the one asking: the appointment's provider, or its patient (or a full-access carer acting for them). */
    role: z.enum(['patient', 'provider']),
    /** The patient side is someone of the patient's care network, not the patient: the provider is told. */
    acting_for_patient: z.boolean(),
    phase: z.enum(['early', 'open', 'over']),
    /** none: not started; waiting: the patient side waits to be let in; active: admitted; ended. */
    status: z.enum(['none', 'waiting', 'active', 'ended']),
    admitted_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    /** The call's length in seconds, from admission to its end (null until it ended). */
    duration_s: z.number().int().nullable(),
    start_time: z.string(),
    end_time: z.string(),
    opens_at: z.string(),
    closes_at: z.string(),
    patient_name: z.string(),
    provider_name: z.string(),
    ice_servers: z.array(VisitIceServerSchema),
    /** When the TURN credentials stop working (null without TURN, or outside the window). */
    ice_expires_at: z.string().nullable(),
    /**
     * The visit's chat: a chat conversation kept with the appointment, made when the provider
     * starts the visit and ended with it (null before). Open it on the chat socket with
     * `conversationId` (chat-protocol.ts SocketQuerySchema); read it afterwards with
     * GET /api/v1/chat/conversations/{id}/.
     */
    chat_conversation_id: z.number().int().nullable(),
  })
  .meta({ id: 'Visit' });
export type Visit = z.infer<typeof VisitSchema>;

/**
 * POST /api/v1/appointments/{availability_det_id}/visit/note/: the provider's note of a video visit,
 * the medical-visit category's own fields (VISIT_NOTE_FIELDS, with the category's limits).
 * `reason` defaults to the appointment's reason for visit; `professional` (the provider's name) and
 * `date` (the visit's day) are set by the server. The answer is the medical-visit record.
 */
export type VisitNoteBody = Partial<Record<(typeof VISIT_NOTE_FIELDS)[number], string | null>>;
// Each of these fields is a text field of the category: a string, null or absent (recordFieldsBodySchema).
export const VisitNoteBodySchema = recordFieldsBodySchema(categoryDefinition('medicalvisit')!, VISIT_NOTE_FIELDS).meta({ id: 'VisitNoteBody' }) as unknown as z.ZodType<VisitNoteBody>;
