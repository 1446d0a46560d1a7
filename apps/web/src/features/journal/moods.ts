import { JOURNAL_MOODS } from '@healthbook/shared/journal';

/** The face shown beside each mood's words (decoration: the words carry the meaning). */
export const MOOD_FACES: Record<number, string> = { 1: '😞', 2: '😟', 3: '😐', 4: '😊', 5: '😄' };

export { JOURNAL_MOODS };

/** A day (YYYY-MM-DD) as the reader writes it ("12 Mar 2026"), without a time zone shift. */
export const formatDay = (day: string, language: string, month: 'short' | 'long' = 'short') =>
  new Intl.DateTimeFormat(language, { day: 'numeric', month, year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/** Tags as typed: split at commas, trimmed, each once. */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of text.split(',')) {
    const tag = raw.trim();
    if (tag && !seen.has(tag.toLocaleLowerCase())) {
      seen.add(tag.toLocaleLowerCase());
      tags.push(tag);
    }
  }
  return tags;
}
