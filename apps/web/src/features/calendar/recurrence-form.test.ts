import { describe, expect, it } from 'vitest';
import { parseRecurrence } from '@healthbook/shared/calendar';
import type { CalendarEvent } from '@healthbook/shared/contracts/calendar';
import { checkEvent, eventBody, eventFormValues, newEventValues, type EventFormValues } from './event-values';
import { checkRecurrence, noRecurrence, recurrenceFields, recurrenceRule, weekdayOf, type RecurrenceFields } from './recurrence-form';

const ATHENS = 'Europe/Athens';
// 2026-11-24 is a Tuesday.
const START = '2026-11-24';
const fields = (over: Partial<RecurrenceFields>): RecurrenceFields => ({ ...noRecurrence(START), ...over });

describe('the repeat fields make an RRULE', () => {
  it('none makes no rule', () => {
    expect(recurrenceRule(fields({}), START, ATHENS)).toBeNull();
  });

  it('daily, monthly and yearly, every N', () => {
    expect(recurrenceRule(fields({ repeat: 'DAILY' }), START, ATHENS)).toBe('FREQ=DAILY');
    expect(recurrenceRule(fields({ repeat: 'MONTHLY', interval: '3' }), START, ATHENS)).toBe('FREQ=MONTHLY;INTERVAL=3');
    expect(recurrenceRule(fields({ repeat: 'YEARLY', interval: ' 1 ' }), START, ATHENS)).toBe('FREQ=YEARLY');
  });

  it('weekly on chosen days, Monday first; the start’s weekday alone needs no BYDAY', () => {
    expect(weekdayOf(START)).toBe('TU');
    expect(recurrenceRule(fields({ repeat: 'WEEKLY', byDay: ['WE', 'MO'] }), START, ATHENS)).toBe('FREQ=WEEKLY;BYDAY=MO,WE');
    expect(recurrenceRule(fields({ repeat: 'WEEKLY', byDay: ['TU'] }), START, ATHENS)).toBe('FREQ=WEEKLY');
    expect(recurrenceRule(fields({ repeat: 'WEEKLY', byDay: ['MO', 'WE'], end: 'count', count: '10' }), START, ATHENS)).toBe('FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10');
  });

  it('days of the week only for weekly repeats', () => {
    expect(recurrenceRule(fields({ repeat: 'DAILY', byDay: ['MO', 'WE'] }), START, ATHENS)).toBe('FREQ=DAILY');
  });

  it('ends after the last day in the user’s zone (UNTIL in UTC), or after a count', () => {
    // 23:59:59 in Athens (UTC+2 in December) is 21:59:59Z.
    expect(recurrenceRule(fields({ repeat: 'DAILY', end: 'until', until: '2026-12-31' }), START, ATHENS)).toBe('FREQ=DAILY;UNTIL=20261231T215959Z');
    expect(recurrenceRule(fields({ repeat: 'DAILY', end: 'count', count: '5' }), START, ATHENS)).toBe('FREQ=DAILY;COUNT=5');
    expect(recurrenceRule(fields({ repeat: 'DAILY', end: 'never', count: '5', until: '2026-12-31' }), START, ATHENS)).toBe('FREQ=DAILY');
  });

  it('every rule made is one the server accepts', () => {
    const rules = [
      fields({ repeat: 'WEEKLY', interval: '99', byDay: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], end: 'until', until: '2027-06-30' }),
      fields({ repeat: 'MONTHLY', end: 'count', count: '730' }),
    ].map((f) => recurrenceRule(f, START, ATHENS)!);
    for (const rule of rules) expect(parseRecurrence(rule).ok, rule).toBe(true);
  });

  it('refuses what the server would', () => {
    expect(checkRecurrence(fields({ repeat: 'DAILY', interval: '0' }), START)).toEqual({ interval: 'form.errors.interval' });
    expect(checkRecurrence(fields({ repeat: 'DAILY', interval: '100' }), START)).toEqual({ interval: 'form.errors.interval' });
    expect(checkRecurrence(fields({ repeat: 'DAILY', interval: '1.5' }), START)).toEqual({ interval: 'form.errors.interval' });
    expect(checkRecurrence(fields({ repeat: 'WEEKLY', byDay: [] }), START)).toEqual({ byDay: 'form.errors.byDay' });
    expect(checkRecurrence(fields({ repeat: 'DAILY', end: 'until', until: '2026-11-23' }), START)).toEqual({ until: 'form.errors.until' });
    expect(checkRecurrence(fields({ repeat: 'DAILY', end: 'until', until: '' }), START)).toEqual({ until: 'form.errors.until' });
    expect(checkRecurrence(fields({ repeat: 'DAILY', end: 'count', count: '731' }), START)).toEqual({ count: 'form.errors.count' });
    expect(checkRecurrence(fields({ repeat: 'none', interval: 'x', byDay: [] }), START)).toEqual({});
  });

  it('reads a stored rule back into the fields', () => {
    expect(recurrenceFields('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10', START, ATHENS)).toEqual({
      repeat: 'WEEKLY',
      interval: '2',
      byDay: ['MO', 'WE'],
      end: 'count',
      until: '',
      count: '10',
    });
    expect(recurrenceFields('FREQ=DAILY;UNTIL=20261231T215959Z', START, ATHENS)).toMatchObject({ repeat: 'DAILY', end: 'until', until: '2026-12-31' });
    expect(recurrenceFields(null, START, ATHENS)).toEqual(noRecurrence(START));
  });
});

describe('the event form makes the request body', () => {
  const values = (over: Partial<EventFormValues>): EventFormValues => ({ ...newEventValues(START), title: 'Physio', ...over });

  it('a timed event: instants with the zone’s offset, the zone, the reminder', () => {
    const body = eventBody(values({ startTime: '09:30', endTime: '10:15', reminder: '15', description: '  knee  ' }), ATHENS);
    expect(body).toEqual({
      title: 'Physio',
      description: 'knee',
      type: 'Reminder',
      start_time: '2026-11-24T09:30:00+02:00',
      end_time: '2026-11-24T10:15:00+02:00',
      all_day: false,
      recurrence: null,
      reminder_minutes: 15,
      timezone: ATHENS,
    });
  });

  it('an all-day event ends at the midnight after its last day', () => {
    const body = eventBody(values({ allDay: true, endDay: '2026-11-25' }), ATHENS);
    expect(body).toMatchObject({ start_time: '2026-11-24T00:00:00+02:00', end_time: '2026-11-26T00:00:00+02:00', all_day: true, reminder_minutes: null, description: null });
  });

  it('a weekly reminder on Monday and Wednesday, ten times', () => {
    const body = eventBody(values({ repeat: 'WEEKLY', byDay: ['MO', 'WE'], end: 'count', count: '10' }), ATHENS);
    expect(body.recurrence).toBe('FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10');
  });

  it('checks title, times and order', () => {
    expect(checkEvent(values({ title: '  ' }))).toEqual({ title: 'form.errors.title' });
    expect(checkEvent(values({ endTime: '09:00' }))).toEqual({ endTime: 'form.errors.endBeforeStart' });
    expect(checkEvent(values({ startTime: '' }))).toEqual({ startTime: 'form.errors.time' });
    expect(checkEvent(values({ allDay: true, startTime: '', endDay: '2026-11-23' }))).toEqual({ endDay: 'form.errors.endBeforeStart' });
    expect(checkEvent(values({ repeat: 'WEEKLY', byDay: [] }))).toEqual({ byDay: 'form.errors.byDay' });
    expect(checkEvent(values({}))).toEqual({});
  });

  it('a new event at 23:30 ends the next day', () => {
    expect(newEventValues(START, '23:30')).toMatchObject({ startDay: START, startTime: '23:30', endDay: '2026-11-25', endTime: '00:30' });
  });

  it('a stored event fills the form in the user’s zone, and makes the same body again', () => {
    const event: CalendarEvent = {
      event_id: 9,
      title: 'Bloods',
      description: null,
      color: 'deep-purple',
      type: 'Exam',
      start_time: '2026-11-24T07:30:00Z',
      end_time: '2026-11-24T08:00:00Z',
      all_day: false,
      is_recurring: false,
      recurrence: null,
      reminder_minutes: 60,
      timezone: ATHENS,
      patient_id: 1,
      created_at: '2026-11-01T00:00:00Z',
      updated_at: '2026-11-01T00:00:00Z',
    };
    const form = eventFormValues(event, ATHENS);
    expect(form).toMatchObject({ title: 'Bloods', type: 'Exam', startDay: START, startTime: '09:30', endTime: '10:00', reminder: '60', repeat: 'none' });
    expect(eventBody(form, ATHENS)).toMatchObject({ start_time: '2026-11-24T09:30:00+02:00', end_time: '2026-11-24T10:00:00+02:00', reminder_minutes: 60 });
    const allDay = eventFormValues({ ...event, all_day: true, start_time: '2026-11-23T22:00:00Z', end_time: '2026-11-25T22:00:00Z' }, ATHENS);
    expect(allDay).toMatchObject({ allDay: true, startDay: '2026-11-24', endDay: '2026-11-25' });
  });
});
