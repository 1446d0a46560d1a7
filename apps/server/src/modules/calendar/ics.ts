import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { AppointmentDetail, CalendarEvent } from '@healthbook/shared';

/**
 * iCalendar (RFC 5545) with ical-generator: the invitation or cancellation attached to the
 * appointment e-mails, and the private calendar feed. UIDs are stable per appointment, so a
 * calendar app updates the same entry when the cancellation arrives.
 */

const PROD_ID = { company: 'HealthBook', product: 'healthbook', language: 'EN' };

export const appointmentUid = (appointmentId: number, host: string) => `appointment-${appointmentId}@${host}`;
const eventUid = (eventId: number, host: string) => `event-${eventId}@${host}`;

export interface AppointmentIcsInput {
  appointment: AppointmentDetail;
  summary: string;
  description: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  host: string;
  cancelled: boolean;
}

/** An appointment as a METHOD:REQUEST invitation, or METHOD:CANCEL when it is cancelled (sequence 1). */
export function appointmentIcs(input: AppointmentIcsInput): string {
  const calendar = ical({ prodId: PROD_ID, method: input.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST });
  calendar.createEvent({
    id: appointmentUid(input.appointment.appointment_id, input.host),
    sequence: input.cancelled ? 1 : 0,
    start: new Date(input.appointment.start_time),
    end: new Date(input.appointment.end_time),
    stamp: new Date(),
    summary: input.summary,
    description: input.description,
    organizer: input.organizer,
    attendees: [{ name: input.attendee.name, email: input.attendee.email, rsvp: false }],
    status: input.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

/** A user's calendar as a subscribed feed: events (recurring ones as their rule) and booked appointments. */
export function feedIcs(input: { name: string; host: string; events: CalendarEvent[]; appointments: Array<{ detail: AppointmentDetail; summary: string }> }): string {
  const calendar = ical({ prodId: PROD_ID, name: input.name, method: ICalCalendarMethod.PUBLISH, ttl: 15 * 60 });
  for (const event of input.events) {
    calendar.createEvent({
      id: eventUid(event.event_id, input.host),
      start: new Date(event.start_time),
      end: new Date(event.end_time),
      allDay: event.all_day,
      timezone: event.timezone,
      summary: event.title,
      description: event.description,
      repeating: event.recurrence,
      categories: [{ name: event.type }],
      lastModified: new Date(event.updated_at),
    });
  }
  for (const { detail, summary } of input.appointments) {
    calendar.createEvent({
      id: appointmentUid(detail.appointment_id, input.host),
      start: new Date(detail.start_time),
      end: new Date(detail.end_time),
      summary,
      description: detail.reason_for_visit,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
