import { describe, expect, it } from 'vitest';
import { dayInZone, periodEnding } from './operations-period';

describe('operations periods', () => {
  it('reads the day in the chosen time zone', () => {
    const at = new Date('2026-03-01T23:30:00Z');
    expect(dayInZone(at, 'UTC')).toBe('2026-03-01');
    expect(dayInZone(at, 'Europe/Athens')).toBe('2026-03-02');
    expect(dayInZone(at, 'America/Denver')).toBe('2026-03-01');
  });

  it('counts back whole days, today included, across months and leap days', () => {
    expect(periodEnding('2026-11-23', 7)).toEqual({ from: '2026-11-17', to: '2026-11-23' });
    expect(periodEnding('2024-03-01', 2)).toEqual({ from: '2024-02-29', to: '2024-03-01' });
    expect(periodEnding('2026-01-05', 30)).toEqual({ from: '2025-12-07', to: '2026-01-05' });
    expect(periodEnding('2026-01-05', 1)).toEqual({ from: '2026-01-05', to: '2026-01-05' });
  });
});
