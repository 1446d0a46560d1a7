import type { EventType } from '@healthbook/shared/calendar';
import type { CalendarEvent, CalendarEventBody } from '@healthbook/shared/contracts/calendar';
import { addDays, dayjs, inZone, wallToInstant } from './calendar-time';
import { checkRecurrence, noRecurrence, recurrenceFields, recurrenceRule, type RecurrenceFields } from './recurrence-form';

/** What the event form holds: text as typed, days YYYY-MM-DD, times HH:mm in the user's zone. */
export interface EventFormValues extends RecurrenceFields {
  title: string;
  type: EventType;
  allDay: boolean;
  startDay: string;
  startTime: string;
  endDay: string;
  endTime: string;
  description: string;
  /** '' for none, else minutes before. */
  reminder: string;
}

export const DEFAULT_EVENT_TYPE: EventType = 'Reminder';
/** The choices of "Remind me": minutes before the start. */
export const REMINDER_CHOICES = [0, 5, 15, 30, 60, 120, 1440, 2880, 10080] as const;

/** A new event on a day (at a time, for an hour; otherwise 09:00-10:00). */
export function newEventValues(day: string, time?: string, allDay = false): EventFormValues {
  const start = time ?? '09:00';
  const [h = 9, m = 0] = start.split(':').map(Number);
  const endHour = h + 1;
  const crossesMidnight = endHour >= 24;
  return {
    title: '',
    type: DEFAULT_EVENT_TYPE,
    allDay,
    startDay: day,
    startTime: start,
    endDay: crossesMidnight ? addDays(day, 1) : day,
    endTime: `${String(endHour % 24).padStart(2, '0')}:${String(m).padStart(2, '0')}`,
    description: '',
    reminder: '',
    ...noRecurrence(day),
  };
}

/** The form of a stored event. An all-day event ends at the midnight after its last day. */
export function eventFormValues(event: CalendarEvent, tz: string): EventFormValues {
  const start = inZone(event.start_time, tz);
  const end = inZone(event.end_time, tz);
  const startDay = start.format('YYYY-MM-DD');
  return {
    title: event.title,
    type: event.type,
    allDay: event.all_day,
    startDay,
    startTime: start.format('HH:mm'),
    endDay: event.all_day ? addDays(end.format('YYYY-MM-DD'), -1) : end.format('YYYY-MM-DD'),
    endTime: end.format('HH:mm'),
    description: event.description ?? '',
    reminder: event.reminder_minutes === null ? '' : String(event.reminder_minutes),
    ...recurrenceFields(event.recurrence, startDay, tz),
  };
}

export type EventFormErrors = Partial<Record<keyof EventFormValues, string>>;

/** The form's own rules (keys of the calendar catalog); the server checks again. */
export function checkEvent(values: EventFormValues): EventFormErrors {
  const errors: EventFormErrors = {};
  if (!values.title.trim()) errors.title = 'form.errors.title';
  const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && dayjs.utc(v).isValid();
  const isTime = (v: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v);
  if (!isDay(values.startDay)) errors.startDay = 'form.errors.date';
  if (!isDay(values.endDay)) errors.endDay = 'form.errors.date';
  if (!values.allDay) {
    if (!isTime(values.startTime)) errors.startTime = 'form.errors.time';
    if (!isTime(values.endTime)) errors.endTime = 'form.errors.time';
  }
  if (!errors.startDay && !errors.endDay && !errors.startTime && !errors.endTime) {
    const before = values.allDay ? values.endDay < values.startDay : `${values.endDay}T${values.endTime}` <= `${values.startDay}T${values.startTime}`;
    if (before) errors[values.allDay ? 'endDay' : 'endTime'] = 'form.errors.endBeforeStart';
  }
  if (!errors.startDay) Object.assign(errors, checkRecurrence(values, values.startDay));
  return errors;
}

/** The request body of valid values, in the user's zone (which the series recurs in). */
export function eventBody(values: EventFormValues, tz: string): CalendarEventBody {
  const start = values.allDay ? wallToInstant(values.startDay, '00:00', tz) : wallToInstant(values.startDay, values.startTime, tz);
  const end = values.allDay ? wallToInstant(addDays(values.endDay, 1), '00:00', tz) : wallToInstant(values.endDay, values.endTime, tz);
  const description = values.description.trim();
  return {
    title: values.title.trim(),
    description: description === '' ? null : description,
    type: values.type,
    start_time: start,
    end_time: end,
    all_day: values.allDay,
    recurrence: recurrenceRule(values, values.startDay, tz),
    reminder_minutes: values.reminder === '' ? null : Number(values.reminder),
    timezone: tz,
  };
}
