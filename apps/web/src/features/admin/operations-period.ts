/** The periods the operations dashboard offers: the last 7, 30 or 90 days (today included), or chosen dates. */
export const PRESETS = ['7', '30', '90', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayInZone(at: Date, tz: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The `days` days ending with `to` (both ends included). */
export function periodEnding(to: string, days: number): { from: string; to: string } {
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() - (days - 1));
  return { from: end.toISOString().slice(0, 10), to };
}
