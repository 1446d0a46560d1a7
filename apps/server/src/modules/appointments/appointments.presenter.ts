import { APPOINTMENT_COLOR, APPOINTMENT_TYPE, formatAppointmentTime, type Appointment, type AppointmentDetail, type CalendarItem, type Provider } from '@healthbook/shared';
import { wallClock } from '../calendar/recurrence';
import { avatarUrl } from '../users/users.presenter';
import type { AppointmentRow, ProviderRow } from './appointments.repository';

const iso = (value: Date | string) => new Date(value).toISOString();
export const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ');

/** The provider's wall clock of an appointment: the specification's appointment_date and appointment_time ("hh:mm AM/PM"). */
function wall(row: AppointmentRow): { appointment_date: string; appointment_time: string } {
  const w = wallClock(new Date(row.start_time), row.provider_timezone);
  return { appointment_date: w.date, appointment_time: formatAppointmentTime(w.hour, w.minute) };
}

/** An appointment as /me lists it (the specification's patient_appointment_details). */
export function presentAppointment(row: AppointmentRow): Appointment {
  return {
    ...wall(row),
    provider_name: fullName(row.provider_first_name, row.provider_last_name),
    provider_id: row.provider_id,
    provider_speciality: row.provider_speciality,
    provider_speciality_el: row.provider_speciality_el,
    availability_det_id: row.slot_id,
    start_time: iso(row.start_time),
    end_time: iso(row.end_time),
    reason_for_visit: row.reason_for_visit,
  };
}

export function presentAppointmentDetail(row: AppointmentRow): AppointmentDetail {
  return {
    appointment_id: row.id,
    availability_det_id: row.slot_id,
    provider_id: row.provider_id,
    provider_name: fullName(row.provider_first_name, row.provider_last_name),
    provider_speciality: row.provider_speciality,
    provider_speciality_el: row.provider_speciality_el,
    patient_id: row.patient_id,
    patient_name: fullName(row.patient_first_name, row.patient_last_name),
    ...wall(row),
    start_time: iso(row.start_time),
    end_time: iso(row.end_time),
    reason_for_visit: row.reason_for_visit,
    status: row.status,
    cancellation_notes: row.cancellation_notes,
    cancelled_by_provider: row.cancelled_by_provider,
    cancelled_at: row.cancelled_at ? iso(row.cancelled_at) : null,
    created_at: iso(row.created_at),
    booked_by_name: row.booked_by_name ?? null,
    cancelled_by_name: row.cancelled_by_name ?? null,
  };
}

/** An appointment in a calendar window: blue, its slot's id as the event id (the specification). */
export function appointmentItem(row: AppointmentRow, title: string): CalendarItem {
  const a = presentAppointment(row);
  return {
    kind: 'appointment',
    event_id: row.slot_id,
    title,
    description: row.reason_for_visit,
    color: APPOINTMENT_COLOR,
    type: APPOINTMENT_TYPE,
    start_time: a.start_time,
    end_time: a.end_time,
    all_day: false,
    is_recurring: false,
    recurrence: null,
    reminder_minutes: null,
    appointment_date: a.appointment_date,
    appointment_time: a.appointment_time,
    provider_name: a.provider_name,
    provider_id: a.provider_id,
    provider_speciality: a.provider_speciality,
    provider_speciality_el: a.provider_speciality_el,
    availability_det_id: a.availability_det_id,
  };
}

export function presentProvider(row: ProviderRow, nextAvailable: Date | undefined): Provider {
  return {
    provider_id: row.user_id,
    provider_name: fullName(row.first_name, row.last_name),
    first_name: row.first_name,
    last_name: row.last_name,
    speciality: row.speciality,
    speciality_el: row.speciality_el,
    credentials: row.credentials,
    languages: row.languages,
    biography: row.biography,
    photo_url: avatarUrl(row),
    timezone: row.timezone,
    slot_minutes: row.slot_minutes,
    next_available: nextAvailable ? nextAvailable.toISOString() : null,
  };
}
