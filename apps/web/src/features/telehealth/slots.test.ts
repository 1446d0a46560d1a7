import { describe, expect, it } from 'vitest';
import { groupSlotsByDay, slotsOn } from './slots';

const slot = (id: number, start: string, minutes = 30) => ({
  availability_det_id: id,
  start_time: start,
  end_time: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
});

describe('free slots grouped by day in the reader’s zone', () => {
  const slots = [
    slot(3, '2026-11-24T21:30:00Z'), // 23:30 in Athens (UTC+2), 16:30 in New York
    slot(1, '2026-11-24T07:00:00Z'), // 09:00 in Athens
    slot(4, '2026-11-24T22:00:00Z'), // 00:00 on the 25th in Athens
    slot(2, '2026-11-24T07:30:00Z'),
  ];

  it('puts each slot on the day it starts in Athens, days and slots in order', () => {
    expect(groupSlotsByDay(slots, 'Europe/Athens').map((d) => [d.day, d.slots.map((s) => s.availability_det_id)])).toEqual([
      ['2026-11-24', [1, 2, 3]],
      ['2026-11-25', [4]],
    ]);
  });

  it('keeps them on one day in New York', () => {
    expect(groupSlotsByDay(slots, 'America/New_York').map((d) => [d.day, d.slots.map((s) => s.availability_det_id)])).toEqual([['2026-11-24', [1, 2, 3, 4]]]);
  });

  it('moves an early-morning UTC slot back a day west of Greenwich', () => {
    expect(groupSlotsByDay([slot(9, '2026-11-25T02:00:00Z')], 'America/Los_Angeles')[0]?.day).toBe('2026-11-24');
  });

  it('follows the change of summer time (Athens: UTC+3 until 25 October 2026)', () => {
    const days = groupSlotsByDay([slot(5, '2026-10-24T21:30:00Z'), slot(6, '2026-10-25T21:30:00Z')], 'Europe/Athens');
    // 00:30 (UTC+3) and 23:30 (UTC+2): both on the 25th.
    expect(days.map((d) => [d.day, d.slots.length])).toEqual([['2026-10-25', 2]]);
  });

  it('answers the slots of one day, or none', () => {
    expect(slotsOn(slots, '2026-11-25', 'Europe/Athens').map((s) => s.availability_det_id)).toEqual([4]);
    expect(slotsOn(slots, '2026-11-26', 'Europe/Athens')).toEqual([]);
    expect(groupSlotsByDay([], 'UTC')).toEqual([]);
  });
});
