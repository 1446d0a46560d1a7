import type { Slot } from '@healthbook/shared/contracts/appointments';
import { dayOf } from '../../lib/zoned-time';

export interface SlotDay {
  /** YYYY-MM-DD in the zone. */
  day: string;
  /** The day's slots by start. */
  slots: Slot[];
}

/**
 * Free slots grouped by the day they start on in a zone (the reader's: a slot at 23:30 UTC is
 * on the next day in Athens), days in order, each day's slots by start.
 */
export function groupSlotsByDay(slots: readonly Slot[], tz: string): SlotDay[] {
  const byDay = new Map<string, Slot[]>();
  const sorted = [...slots].sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
  for (const slot of sorted) {
    const day = dayOf(slot.start_time, tz);
    const list = byDay.get(day);
    if (list) list.push(slot);
    else byDay.set(day, [slot]);
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, list]) => ({ day, slots: list }));
}

/** The slots of one day in a zone. */
export const slotsOn = (slots: readonly Slot[], day: string, tz: string): Slot[] => groupSlotsByDay(slots, tz).find((d) => d.day === day)?.slots ?? [];
