import { describe, expect, it } from 'vitest';
import { colorOfType, fetchWindow, formatAppointmentTime, formatRecurrence, isInPast, parseRecurrence, typeOfColor } from './calendar';

describe('event types', () => {
  it('follow the specification table, keeping its "Excercise" key', () => {
    expect(colorOfType('Appointment')).toBe('blue');
    expect(colorOfType('Excercise')).toBe('green');
    expect(colorOfType('Exam')).toBe('deep-purple');
    expect(typeOfColor('violet')).toBe('Developer Event');
  });
});

describe('recurrence rules', () => {
  it('reads the offered subset and writes it canonically', () => {
    const parsed = parseRecurrence('RRULE:count=10;byday=WE,MO;FREQ=WEEKLY;INTERVAL=2');
    expect(parsed).toEqual({ ok: true, value: { freq: 'WEEKLY', interval: 2, byDay: ['MO', 'WE'], until: null, count: 10 } });
    expect(parsed.ok && formatRecurrence(parsed.value)).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10');
    const until = parseRecurrence('FREQ=DAILY;UNTIL=20261231');
    expect(until.ok && formatRecurrence(until.value)).toBe('FREQ=DAILY;UNTIL=20261231T235959Z');
  });

  it.each([
    ['', 'recurrenceInvalid'],
    ['FREQ=HOURLY', 'recurrenceFrequency'],
    ['INTERVAL=2', 'recurrenceFrequency'],
    ['FREQ=DAILY;INTERVAL=0', 'recurrenceInterval'],
    ['FREQ=DAILY;INTERVAL=100', 'recurrenceInterval'],
    ['FREQ=MONTHLY;BYDAY=MO', 'recurrenceByDay'],
    ['FREQ=WEEKLY;BYDAY=MO,MO', 'recurrenceByDay'],
    ['FREQ=WEEKLY;BYDAY=XX', 'recurrenceByDay'],
    ['FREQ=DAILY;COUNT=2;UNTIL=20260101', 'recurrenceEnd'],
    ['FREQ=DAILY;COUNT=0', 'recurrenceCount'],
    ['FREQ=DAILY;COUNT=731', 'recurrenceCount'],
    ['FREQ=DAILY;UNTIL=20260231', 'recurrenceUntil'],
    ['FREQ=DAILY;BYMONTH=2', 'recurrenceInvalid'],
    ['FREQ=DAILY;FREQ=WEEKLY', 'recurrenceInvalid'],
  ])('refuses %j (%s)', (rule, problem) => {
    expect(parseRecurrence(rule)).toEqual({ ok: false, problem });
  });
});

describe('appointments as the specification shows them', () => {
  it('formats hh:mm AM/PM', () => {
    expect(formatAppointmentTime(0, 5)).toBe('12:05 AM');
    expect(formatAppointmentTime(9, 30)).toBe('09:30 AM');
    expect(formatAppointmentTime(12, 0)).toBe('12:00 PM');
    expect(formatAppointmentTime(23, 45)).toBe('11:45 PM');
  });
  it('is in the past once started', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    expect(isInPast('2026-11-24T10:00:00Z', now)).toBe(true);
    expect(isInPast('2026-11-24T10:00:01Z', now)).toBe(false);
  });
  it('fetches the selected day plus 10 days, across a month end', () => {
    expect(fetchWindow('2026-11-24')).toEqual({ start: '2026-11-24', end: '2026-12-04' });
    expect(fetchWindow('2028-02-25')).toEqual({ start: '2028-02-25', end: '2028-03-06' });
  });
});
