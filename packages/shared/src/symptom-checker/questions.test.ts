import { describe, expect, it } from 'vitest';
import { COMPLAINTS, COMPLAINT_IDS, type Complaint } from './complaints';
import { RED_FLAGS, type FlagId } from './flags';
import { byUrgency, redFlagProgress, type FlagAnswer } from './questions';
import { flagsFor, levelRank, triage } from './rules';
import { applies, type Sex } from './types';

const PEOPLE = [0, 2, 12, 30, 50, 80].flatMap((age) => (['female', 'male'] as const).map((sex) => ({ age, sex })));
const withLevel = (id: FlagId) => ({ id, level: RED_FLAGS[id].level });
const chest = flagsFor('chest-pain', { age: 58, sex: 'male' }).map(withLevel);

describe('the order of the red-flag questions', () => {
  it('puts the most urgent first, keeping the complaint’s order within a level', () => {
    const flags = [
      { id: 'a', level: 'urgent' },
      { id: 'b', level: 'emergency' },
      { id: 'c', level: 'urgent' },
      { id: 'd', level: 'emergency' },
    ] as const;
    expect(byUrgency(flags).map((f) => f.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('is the order every complaint asks them in, for every person', () => {
    for (const complaint of COMPLAINT_IDS) {
      for (const person of PEOPLE) {
        const levels = flagsFor(complaint, person).map((id) => levelRank(RED_FLAGS[id].level));
        expect(levels, `${complaint} ${person.age} ${person.sex}`).toEqual([...levels].sort((a, b) => b - a));
      }
    }
    // Abdominal pain: its emergency question on bladder or bowel control comes before the urgent ones.
    expect(flagsFor('abdominal-pain', { age: 30, sex: 'female' }).indexOf('bladder-bowel-control')).toBeLessThan(flagsFor('abdominal-pain', { age: 30, sex: 'female' }).indexOf('black-or-bloody-stool'));
  });
});

describe('a red flag answered yes', () => {
  it('ends the questions at once: chest pain spreading to the arm or jaw, the first question, asks nothing more', () => {
    expect(chest[0]!.id).toBe('chest-pain-spreading');
    expect(chest.length).toBeGreaterThan(1);
    const progress = redFlagProgress(chest, { 'chest-pain-spreading': 'yes' });
    expect(progress).toEqual({ shown: [chest[0]], next: null, stop: chest[0] });
  });

  it('ends them wherever it comes; answers after it were never asked and do not count', () => {
    const answers: Record<string, FlagAnswer> = { [chest[0]!.id]: 'no', [chest[1]!.id]: 'yes', [chest[2]!.id]: 'no' };
    expect(redFlagProgress(chest, answers)).toEqual({ shown: chest.slice(0, 2), next: null, stop: chest[1] });
  });

  it('a "no" shows the next question; nothing answered shows the first; all "no" ends them without a stop', () => {
    expect(redFlagProgress(chest, {})).toEqual({ shown: [chest[0]], next: chest[0], stop: null });
    expect(redFlagProgress(chest, { [chest[0]!.id]: 'no' })).toEqual({ shown: chest.slice(0, 2), next: chest[1], stop: null });
    const allNo = Object.fromEntries(chest.map((f) => [f.id, 'no' as const]));
    expect(redFlagProgress(chest, allNo)).toEqual({ shown: chest, next: null, stop: null });
    expect(redFlagProgress([], {})).toEqual({ shown: [], next: null, stop: null });
  });

  it('decides the outcome: no question after it could have raised the level (every complaint, every person, every flag)', () => {
    for (const complaint of COMPLAINT_IDS) {
      for (const person of PEOPLE.filter((p) => applies((COMPLAINTS[complaint] as Complaint).for, p))) {
        const asked = flagsFor(complaint, person);
        asked.forEach((id, i) => {
          const base = { ...person, sex: person.sex as Sex, complaint, duration: 'under-24-hours', severity: 'mild' } as const;
          const stopped = triage({ ...base, red_flags: [id] });
          const everyYesAfter = triage({ ...base, red_flags: asked.slice(i) });
          expect(stopped.level, `${complaint}/${id}`).toBe(RED_FLAGS[id].level);
          expect(everyYesAfter.level, `${complaint}/${id}`).toBe(stopped.level);
        });
      }
    }
  });
});
