/** The journal's limits and moods (zod-free: the web form reads them too). */
export const JOURNAL_LIMITS = { title: 200, text: 20_000, tags: 10, tagLength: 40 } as const;

/** Moods 1 (very low) … 5 (very good). */
export const JOURNAL_MOODS = [1, 2, 3, 4, 5] as const;
export type JournalMood = (typeof JOURNAL_MOODS)[number];
