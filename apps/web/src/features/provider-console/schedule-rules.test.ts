import { describe, expect, it } from 'vitest';
import { checkSchedule, formOf, nextRange, payloadOf, type ScheduleForm } from './schedule-rules';

const form = (over: Partial<ScheduleForm> = {}): ScheduleForm => ({ slot_minutes: 30, timezone: 'Europe/Athens', weekly: [], exceptions: [], ...over });
const problems = (f: ScheduleForm) => checkSchedule(f).map((e) => `${e.path}:${e.problem}`);

describe('the availability editor’s rules', () => {
  it('accepts several ranges a day that touch but do not overlap, and the same hours on other days', () => {
    expect(
      problems(
        form({
          weekly: [
            { weekday: 1, start: '09:00', end: '12:00' },
            { weekday: 1, start: '12:00', end: '13:00' },
            { weekday: 1, start: '14:00', end: '18:00' },
            { weekday: 2, start: '09:00', end: '12:00' },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('refuses an end that is not after the start', () => {
    expect(problems(form({ weekly: [{ weekday: 3, start: '10:00', end: '09:00' }] }))).toEqual(['weekly.0.end:endBeforeStart']);
    expect(problems(form({ weekly: [{ weekday: 3, start: '10:00', end: '10:00' }] }))).toEqual(['weekly.0.end:endBeforeStart']);
  });

  it('refuses a missing time, and a range shorter than one slot', () => {
    expect(problems(form({ weekly: [{ weekday: 4, start: '', end: '10:00' }] }))).toEqual(['weekly.0.start:timeRequired']);
    expect(problems(form({ weekly: [{ weekday: 4, start: '09:00', end: '9:30' }] }))).toEqual(['weekly.0.end:timeRequired']);
    expect(problems(form({ slot_minutes: 45, weekly: [{ weekday: 4, start: '09:00', end: '09:30' }] }))).toEqual(['weekly.0.end:shorterThanSlot']);
  });

  it('marks an overlap on the range that starts later, whatever the order they were entered in', () => {
    const weekly = [
      { weekday: 5, start: '13:00', end: '15:00' },
      { weekday: 5, start: '09:00', end: '13:30' },
      { weekday: 6, start: '13:00', end: '15:00' },
    ];
    expect(problems(form({ weekly }))).toEqual(['weekly.0.start:overlap']);
  });

  it('finds a range inside a longer one, and an overlap with any earlier range of the day', () => {
    const weekly = [
      { weekday: 7, start: '08:00', end: '18:00' },
      { weekday: 7, start: '10:00', end: '11:00' },
      { weekday: 7, start: '17:00', end: '19:00' },
    ];
    expect(problems(form({ weekly }))).toEqual(['weekly.1.start:overlap', 'weekly.2.start:overlap']);
  });

  it('does not report an overlap for a range that is already wrong', () => {
    const weekly = [
      { weekday: 1, start: '09:00', end: '12:00' },
      { weekday: 1, start: '11:00', end: '10:00' },
    ];
    expect(problems(form({ weekly }))).toEqual(['weekly.1.end:endBeforeStart']);
  });

  it('checks exceptions: a date, once; hours by the same rules unless a day off', () => {
    const exceptions = [
      { date: '2026-12-24', dayOff: true, start: '', end: '' },
      { date: '2026-12-24', dayOff: false, start: '10:00', end: '12:00' },
      { date: '', dayOff: true, start: '', end: '' },
      { date: '2026-12-31', dayOff: false, start: '12:00', end: '10:00' },
    ];
    expect(problems(form({ exceptions }))).toEqual(['exceptions.1.date:duplicateDate', 'exceptions.2.date:dateRequired', 'exceptions.3.end:endBeforeStart']);
  });
});

describe('the schedule as stored and sent', () => {
  const stored = {
    slot_minutes: 20,
    timezone: 'Europe/Athens',
    weekly: [
      { weekday: 3, start: '14:00', end: '16:00' },
      { weekday: 1, start: '09:00', end: '12:00' },
    ],
    exceptions: [
      { date: '2026-12-31', start: '10:00', end: '12:00' },
      { date: '2026-12-25', start: null, end: null },
    ],
    open_slots: 12,
    horizon_days: 56,
  };

  it('reads exceptions without hours as days off, and sends them back without hours, in order', () => {
    const f = formOf(stored, 'America/New_York');
    expect(f.exceptions[1]).toEqual({ date: '2026-12-25', dayOff: true, start: '', end: '' });
    expect(payloadOf(f)).toEqual({
      slot_minutes: 20,
      timezone: 'Europe/Athens',
      weekly: [
        { weekday: 1, start: '09:00', end: '12:00' },
        { weekday: 3, start: '14:00', end: '16:00' },
      ],
      exceptions: [
        { date: '2026-12-25', start: null, end: null },
        { date: '2026-12-31', start: '10:00', end: '12:00' },
      ],
    });
  });

  it('starts a provider who never published in the reader’s zone', () => {
    expect(formOf({ ...stored, weekly: [], exceptions: [], timezone: 'UTC' }, 'America/New_York').timezone).toBe('America/New_York');
    expect(formOf(undefined, 'Europe/Athens')).toEqual({ slot_minutes: 30, timezone: 'Europe/Athens', weekly: [], exceptions: [] });
  });

  it('offers a new range after the day’s last one', () => {
    expect(nextRange({ weekly: [] }, 2)).toEqual({ weekday: 2, start: '09:00', end: '17:00' });
    expect(nextRange({ weekly: [{ weekday: 2, start: '09:00', end: '12:00' }] }, 2)).toEqual({ weekday: 2, start: '13:00', end: '14:00' });
  });
});
