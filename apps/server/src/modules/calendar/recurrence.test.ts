import { describe, expect, it } from 'vitest';
import { daysInWindow, occurrencesBetween, seriesEnd, windowInstants } from './recurrence';

const iso = (list: Array<{ start: Date }>) => list.map((o) => o.start.toISOString());
const series = (start: string, minutes: number, rule: string, timezone = 'UTC') => ({ start: new Date(start), end: new Date(new Date(start).getTime() + minutes * 60_000), rule, timezone });

describe('recurrence expansion', () => {
  it('keeps the wall clock across daylight-saving changes (spring and autumn)', () => {
    const daily = series('2026-03-28T07:00:00Z', 30, 'FREQ=DAILY', 'Europe/Athens'); // 09:00 EET
    expect(iso(occurrencesBetween(daily, new Date('2026-03-28T00:00:00Z'), new Date('2026-03-31T00:00:00Z')))).toEqual([
      '2026-03-28T07:00:00.000Z',
      '2026-03-29T06:00:00.000Z',
      '2026-03-30T06:00:00.000Z',
    ]);
    const weekly = series('2026-10-18T13:00:00Z', 60, 'FREQ=WEEKLY', 'America/New_York'); // 09:00 EDT
    expect(iso(occurrencesBetween(weekly, new Date('2026-10-18T00:00:00Z'), new Date('2026-11-09T00:00:00Z')))).toEqual([
      '2026-10-18T13:00:00.000Z',
      '2026-10-25T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-08T14:00:00.000Z',
    ]);
  });

  it('moves a time that does not exist on the day of the change forward, as calendar apps do', () => {
    // Athens moves from 03:00 to 04:00 on 29 March: that day has no 03:30.
    const late = series('2026-03-28T01:30:00Z', 15, 'FREQ=DAILY', 'Europe/Athens'); // 03:30 EET
    const [, second] = occurrencesBetween(late, new Date('2026-03-28T00:00:00Z'), new Date('2026-03-30T00:00:00Z'));
    expect(second!.start.toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 04:30 EEST: moved by the hour the clock skipped
  });

  it('skips months without the day (the 31st), as RFC 5545 says', () => {
    const monthly = series('2026-01-31T10:00:00Z', 60, 'FREQ=MONTHLY');
    expect(iso(occurrencesBetween(monthly, new Date('2026-01-01T00:00:00Z'), new Date('2026-08-01T00:00:00Z')))).toEqual([
      '2026-01-31T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-05-31T10:00:00.000Z',
      '2026-07-31T10:00:00.000Z',
    ]);
    const leap = series('2028-02-29T08:00:00Z', 60, 'FREQ=YEARLY');
    expect(iso(occurrencesBetween(leap, new Date('2028-01-01T00:00:00Z'), new Date('2033-01-01T00:00:00Z')))).toEqual(['2028-02-29T08:00:00.000Z', '2032-02-29T08:00:00.000Z']);
  });

  it('ends by count or until, and knows the end of the series', () => {
    const counted = series('2026-05-04T08:00:00Z', 60, 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;COUNT=5');
    expect(iso(occurrencesBetween(counted, new Date('2026-05-01T00:00:00Z'), new Date('2026-12-31T00:00:00Z')))).toEqual([
      '2026-05-04T08:00:00.000Z',
      '2026-05-08T08:00:00.000Z',
      '2026-05-18T08:00:00.000Z',
      '2026-05-22T08:00:00.000Z',
      '2026-06-01T08:00:00.000Z',
    ]);
    expect(seriesEnd(counted)!.toISOString()).toBe('2026-06-01T09:00:00.000Z');
    const until = series('2026-05-01T08:00:00Z', 30, 'FREQ=DAILY;UNTIL=20260503T080000Z');
    expect(iso(occurrencesBetween(until, new Date('2026-04-01T00:00:00Z'), new Date('2026-06-01T00:00:00Z')))).toHaveLength(3);
    expect(seriesEnd(until)!.toISOString()).toBe('2026-05-03T08:30:00.000Z');
    expect(seriesEnd(series('2026-05-01T08:00:00Z', 30, 'FREQ=DAILY'))).toBeNull();
  });

  it('includes an occurrence that started before the window and is still going', () => {
    const long = series('2026-05-01T22:00:00Z', 240, 'FREQ=DAILY');
    expect(iso(occurrencesBetween(long, new Date('2026-05-03T00:00:00Z'), new Date('2026-05-04T00:00:00Z')))).toEqual(['2026-05-02T22:00:00.000Z', '2026-05-03T22:00:00.000Z']);
  });
});

describe('windows', () => {
  it('are whole days in the zone asked, the last day included', () => {
    expect(windowInstants('2026-11-24', '2026-11-24', 'Europe/Athens')).toEqual({ from: new Date('2026-11-23T22:00:00Z'), to: new Date('2026-11-24T22:00:00Z') });
    expect(daysInWindow('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysInWindow('2026-03-29', '2026-03-29')).toBe(1);
  });
});
