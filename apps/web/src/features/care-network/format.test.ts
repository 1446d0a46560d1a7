import { describe, expect, it } from 'vitest';
import { lineWhen } from './format';

describe('when a line of the access log happened', () => {
  it('says one event to the minute', () => {
    expect(lineWhen({ at: '2026-11-27T07:12:00Z', first_at: '2026-11-27T07:12:00Z', count: 1 }, 'en-GB', 'Europe/Athens')).toBe('27 Nov 2026, 09:12');
  });
  it('says several on one day as the day and the span of their times', () => {
    expect(lineWhen({ at: '2026-11-27T15:40:00Z', first_at: '2026-11-27T07:12:00Z', count: 8 }, 'en-GB', 'Europe/Athens')).toBe('27 Nov 2026, 09:12–17:40');
    expect(lineWhen({ at: '2026-11-27T15:40:00Z', first_at: '2026-11-27T07:12:00Z', count: 8 }, 'el', 'Europe/Athens')).toBe('27 Νοε 2026, 09:12 π.μ.–05:40 μ.μ.');
  });
});
