import { describe, expect, it } from 'vitest';
import type { CalendarItem } from '@healthbook/shared/contracts/calendar';
import { fetchWindow } from '@healthbook/shared/calendar';
import { relativeTo } from './calendar-time';
import { dayLabel, daysWithItems, groupByDay, itemKey, lastDayOf, shownHours } from './group-items';

const item = (over: Partial<CalendarItem>): CalendarItem => ({
  kind: 'event',
  event_id: 1,
  title: 'Item',
  description: null,
  color: 'cyan',
  type: 'Reminder',
  start_time: '2026-11-24T09:00:00Z',
  end_time: '2026-11-24T10:00:00Z',
  all_day: false,
  is_recurring: false,
  recurrence: null,
  reminder_minutes: null,
  ...over,
});

describe('grouping a window by day', () => {
  it('groups by the day in the user zone, not in UTC', () => {
    // 23:30 UTC on the 24th is the 25th in Athens (UTC+2) and still the 24th in New York.
    const late = item({ event_id: 1, start_time: '2026-11-24T23:30:00Z', end_time: '2026-11-25T00:30:00Z' });
    const early = item({ event_id: 2, start_time: '2026-11-24T08:00:00Z', end_time: '2026-11-24T09:00:00Z' });
    expect(groupByDay([late, early], 'Europe/Athens').map((g) => [g.day, g.items.map((i) => i.event_id)])).toEqual([
      ['2026-11-24', [2]],
      ['2026-11-25', [1]],
    ]);
    expect(groupByDay([late, early], 'America/New_York').map((g) => [g.day, g.items.map((i) => i.event_id)])).toEqual([['2026-11-24', [2, 1]]]);
  });

  it('orders each day by start, all-day items first, and days in order', () => {
    const items = [
      item({ event_id: 3, start_time: '2026-11-26T10:00:00Z', end_time: '2026-11-26T11:00:00Z' }),
      item({ event_id: 4, start_time: '2026-11-24T12:00:00Z', end_time: '2026-11-24T13:00:00Z' }),
      item({ event_id: 5, all_day: true, start_time: '2026-11-24T00:00:00Z', end_time: '2026-11-25T00:00:00Z' }),
      item({ kind: 'appointment', event_id: 6, color: 'blue', type: 'Appointment', start_time: '2026-11-24T07:30:00Z', end_time: '2026-11-24T08:00:00Z' }),
    ];
    const groups = groupByDay(items, 'UTC');
    expect(groups.map((g) => g.day)).toEqual(['2026-11-24', '2026-11-26']);
    expect(groups[0]!.items.map((i) => i.event_id)).toEqual([5, 6, 4]);
  });

  it('lists an item still going on at the window start on the first day', () => {
    const ongoing = item({ start_time: '2026-11-22T10:00:00Z', end_time: '2026-11-25T10:00:00Z' });
    expect(groupByDay([ongoing], 'UTC', '2026-11-24').map((g) => g.day)).toEqual(['2026-11-24']);
  });

  it('keeps occurrences of one series apart', () => {
    const a = item({ is_recurring: true, start_time: '2026-11-24T09:00:00Z' });
    const b = item({ is_recurring: true, start_time: '2026-12-01T09:00:00Z' });
    expect(itemKey(a)).not.toBe(itemKey(b));
  });

  it('fetches the selected day plus 10 days', () => {
    expect(fetchWindow('2026-11-24')).toEqual({ start: '2026-11-24', end: '2026-12-04' });
  });
});

describe('the days that get a dot', () => {
  it('marks every day an item covers; an end at midnight ends the day before', () => {
    const allDay = item({ all_day: true, start_time: '2026-11-24T00:00:00+02:00', end_time: '2026-11-27T00:00:00+02:00' });
    expect(lastDayOf(allDay, 'Europe/Athens')).toBe('2026-11-26');
    const overnight = item({ event_id: 2, start_time: '2026-11-30T21:00:00Z', end_time: '2026-12-01T01:00:00Z' });
    expect([...daysWithItems([allDay, overnight], 'Europe/Athens')].sort()).toEqual(['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-30', '2026-12-01']);
  });
});

describe('day headings and relative times', () => {
  it('names today, tomorrow and yesterday', () => {
    expect(dayLabel('2026-11-24', '2026-11-24')).toBe('today');
    expect(dayLabel('2026-11-25', '2026-11-24')).toBe('tomorrow');
    expect(dayLabel('2026-11-23', '2026-11-24')).toBe('yesterday');
    expect(dayLabel('2026-12-01', '2026-11-24')).toBe('date');
    expect(dayLabel('2026-01-01', '2025-12-31')).toBe('tomorrow');
  });

  it('says how far away an item is, in the reader’s language', () => {
    const now = new Date('2026-11-24T09:00:00Z');
    expect(relativeTo('2026-11-24T11:00:00Z', now, 'en')).toBe('in 2 hours');
    expect(relativeTo('2026-11-21T09:00:00Z', now, 'en')).toBe('3 days ago');
    expect(relativeTo('2026-11-24T11:00:00Z', now, 'el')).toBe('σε 2 ώρες');
    expect(relativeTo('2026-11-21T09:00:00Z', now, 'el')).toBe('πριν 3 μέρες');
  });
});

describe('the hours of a week or a day', () => {
  it('shows 07:00 to 21:00, widened to every timed item; all-day items do not count', () => {
    process.env.TZ = 'UTC';
    expect(shownHours([])).toEqual({ min: '07:00:00', max: '21:00:00' });
    expect(shownHours([item({ start_time: '2026-11-24T05:30:00Z', end_time: '2026-11-24T22:15:00Z' })])).toEqual({ min: '05:00:00', max: '23:00:00' });
    expect(shownHours([item({ start_time: '2026-11-24T23:00:00Z', end_time: '2026-11-25T01:00:00Z' })])).toEqual({ min: '07:00:00', max: '24:00:00' });
    expect(shownHours([item({ all_day: true, start_time: '2026-11-24T00:00:00Z', end_time: '2026-11-25T00:00:00Z' })])).toEqual({ min: '07:00:00', max: '21:00:00' });
  });
});
