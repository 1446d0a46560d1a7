import { describe, expect, it } from 'vitest';
import { scheduleProblems, slotsOf, type Schedule } from './availability';

const base: Schedule = { slot_minutes: 30, timezone: 'Europe/Athens', weekly: [{ weekday: 1, start: '09:00', end: '11:00' }], exceptions: [] };

describe('slots of a schedule', () => {
  it('cuts weekly hours into slots in the provider zone', () => {
    const slots = slotsOf(base, '2026-11-23', '2026-11-29'); // Monday 23rd
    expect(slots.map((s) => s.start.toISOString())).toEqual(['2026-11-23T07:00:00.000Z', '2026-11-23T07:30:00.000Z', '2026-11-23T08:00:00.000Z', '2026-11-23T08:30:00.000Z']);
    expect(slots.every((s) => s.end.getTime() - s.start.getTime() === 30 * 60_000)).toBe(true);
  });

  it('drops a last slot that does not fit, and follows the clock change', () => {
    const slots = slotsOf({ ...base, slot_minutes: 45, weekly: [{ weekday: 1, start: '09:00', end: '10:00' }] }, '2026-03-23', '2026-03-30');
    expect(slots.map((s) => s.start.toISOString())).toEqual(['2026-03-23T07:00:00.000Z', '2026-03-30T06:00:00.000Z']);
  });

  it('lets an exception take a day off or change its hours', () => {
    const schedule = { ...base, exceptions: [{ date: '2026-11-23', start: null, end: null }, { date: '2026-11-30', start: '15:00', end: '16:00' }] };
    expect(slotsOf(schedule, '2026-11-23', '2026-11-30').map((s) => s.start.toISOString())).toEqual(['2026-11-30T13:00:00.000Z', '2026-11-30T13:30:00.000Z']);
  });
});

describe('schedule problems', () => {
  it('finds overlapping ranges, ranges too short for a slot, half-given exceptions and a day off given twice', () => {
    expect(
      scheduleProblems({
        ...base,
        weekly: [
          { weekday: 1, start: '09:00', end: '12:00' },
          { weekday: 1, start: '11:30', end: '13:00' },
          { weekday: 2, start: '10:00', end: '10:20' },
          { weekday: 3, start: '12:00', end: '09:00' },
        ],
        exceptions: [
          { date: '2026-12-24', start: '10:00', end: null },
          { date: '2026-12-25', start: null, end: null },
          { date: '2026-12-25', start: null, end: null },
        ],
      }),
    ).toEqual({
      'weekly.1': ['validation:hoursOverlap'],
      'weekly.2': ['validation:hoursRange'],
      'weekly.3': ['validation:hoursRange'],
      'exceptions.0': ['validation:hoursRange'],
      'exceptions.2': ['validation:exceptionDuplicate'],
    });
    expect(scheduleProblems(base)).toEqual({});
  });
});
