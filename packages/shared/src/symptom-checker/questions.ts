// The red-flag questions: the order they are asked in and when they end. Data-free (types only),
// so the web app takes it without the checker's data.
import { TRIAGE_LEVELS, type TriageLevel } from './types';

/**
 * The order red-flag questions are asked in: the most urgent first (emergency, then urgent), the
 * complaint's own order within a level. Asked in this order, the first "yes" decides the outcome:
 * no question after it can raise the level (see `redFlagProgress`).
 */
export function byUrgency<T extends { level: TriageLevel }>(flags: readonly T[]): T[] {
  return flags
    .map((flag, index) => ({ flag, index }))
    .sort((a, b) => TRIAGE_LEVELS.indexOf(b.flag.level) - TRIAGE_LEVELS.indexOf(a.flag.level) || a.index - b.index)
    .map(({ flag }) => flag);
}

/** A red-flag question's answer; absent while it is not answered. */
export type FlagAnswer = 'yes' | 'no';

export interface RedFlagProgress<T> {
  /** The questions to show: those answered, up to the first "yes", and then the next one to answer. */
  shown: T[];
  /** The next question to answer; null once the questions are over. */
  next: T | null;
  /** The question answered "yes" that ends them: its result is shown at once, nothing more is asked. */
  stop: T | null;
}

/**
 * Where the red-flag questions stand. They are asked one after the other, most urgent first
 * (`byUrgency`); a "yes" ends them at once (any red flag answered yes is the outcome, and none
 * after it is more urgent), all "no" ends them too. Answers to questions after a "yes" are not
 * counted: they were never asked. Shared by the web app (what to show, when to assess) and the server (the order it lists them in).
 */
export function redFlagProgress<T extends { id: string; level: TriageLevel }>(flags: readonly T[], answers: Readonly<Record<string, FlagAnswer | undefined>>): RedFlagProgress<T> {
  const shown: T[] = [];
  for (const flag of byUrgency(flags)) {
    shown.push(flag);
    const answer = answers[flag.id];
    if (answer === 'yes') return { shown, next: null, stop: flag };
    if (answer !== 'no') return { shown, next: flag, stop: null };
  }
  return { shown, next: null, stop: null };
}
