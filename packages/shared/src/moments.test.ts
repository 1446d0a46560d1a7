import { describe, expect, it } from 'vitest';
import { firstZone, formatDay, formatMoment, zoneOf } from './moments';

const at = '2026-12-04T05:38:00Z';

describe('formatMoment', () => {
  it('writes a moment in the zone, on a 24-hour clock, with the zone named in the reader’s language', () => {
    expect(formatMoment(at, 'en', 'Europe/Athens')).toBe('4 December 2026 at 07:38 (Eastern European Time)');
    expect(formatMoment(at, 'el', 'Europe/Athens')).toBe('4 Δεκεμβρίου 2026 στις 07:38 (Ώρα Ανατολικής Ευρώπης)');
    expect(formatMoment(at, 'en', 'America/New_York', { weekday: true })).toBe('Friday, 4 December 2026 at 00:38 (Eastern Time)');
  });

  it('names a zone without a name by its abbreviation or offset; an unknown zone is UTC', () => {
    expect(formatMoment(at, 'en', 'UTC')).toBe('4 December 2026 at 05:38 (UTC)');
    expect(formatMoment(at, 'en', 'Mars/Olympus')).toBe('4 December 2026 at 05:38 (UTC)');
  });

  it('writes a day as it is in the zone, without naming it', () => {
    expect(formatDay('2026-12-04T23:30:00Z', 'en', 'Europe/Athens')).toBe('5 December 2026');
    expect(formatDay('2026-12-04T23:30:00Z', 'en', 'UTC', { weekday: true })).toBe('Friday, 4 December 2026');
  });
});

describe('zoneOf and firstZone', () => {
  it('take the account’s zone when it is a real one, else the next', () => {
    expect(zoneOf({ timeZone: 'Europe/Athens' })).toBe('Europe/Athens');
    expect(zoneOf({ timeZone: 'Nowhere' }, 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(zoneOf(null)).toBe('UTC');
    expect(firstZone(null, undefined, 'Asia/Tokyo')).toBe('Asia/Tokyo');
  });
});
