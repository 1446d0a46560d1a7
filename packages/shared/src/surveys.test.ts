import { describe, expect, it } from 'vitest';
import { GAD7, LIFESTYLE, NORTHWIND_GENERAL, NORTHWIND_PROFILE, PHQ2, PHQ9, WHO5 } from './survey-instruments';
import { checkAnswers, maxScore, needsCrisisHelp, scoreSurvey, surveyOfRoute, surveyProblems, type SurveyAnswers, type SurveyDefinition } from './surveys';

/** Answers of the scored items adding up to `total` (filled from the first item on), the rest 0. */
function answersFor(survey: SurveyDefinition, total: number, extra: SurveyAnswers = {}): SurveyAnswers {
  const answers: SurveyAnswers = {};
  let left = total;
  for (const item of survey.items.filter((i) => i.scored !== false && !i.optional)) {
    const top = Math.max(...(item.options ?? survey.scale).map((o) => o.value));
    const take = Math.min(top, left);
    answers[item.id] = item.reverse ? top - take : take;
    left -= take;
  }
  if (left) throw new Error(`cannot reach ${total}`);
  return { ...answers, ...extra };
}

describe.each([
  ['PHQ-2', PHQ2, 6, [[0, 'negative'], [2, 'negative'], [3, 'positive'], [6, 'positive']]],
  ['PHQ-9', PHQ9, 27, [[0, 'minimal'], [4, 'minimal'], [5, 'mild'], [9, 'mild'], [10, 'moderate'], [14, 'moderate'], [15, 'moderately-severe'], [19, 'moderately-severe'], [20, 'severe'], [27, 'severe']]],
  ['GAD-7', GAD7, 21, [[0, 'minimal'], [4, 'minimal'], [5, 'mild'], [9, 'mild'], [10, 'moderate'], [14, 'moderate'], [15, 'severe'], [21, 'severe']]],
  ['Lifestyle', LIFESTYLE, 24, [[0, 'needs-attention'], [11, 'needs-attention'], [12, 'fair'], [17, 'fair'], [18, 'good'], [24, 'good']]],
  ['Northwind weekly', NORTHWIND_GENERAL, 20, [[0, 'low'], [9, 'low'], [10, 'mixed'], [14, 'mixed'], [15, 'good'], [20, 'good']]],
  ['Northwind habits', NORTHWIND_PROFILE, 16, [[0, 'needs-attention'], [7, 'needs-attention'], [8, 'fair'], [11, 'fair'], [12, 'good'], [16, 'good']]],
] as const)('%s', (_name, survey, max, edges) => {
  it('is coherent: unique items, bands covering every score', () => {
    expect(surveyProblems(survey)).toEqual([]);
    expect(maxScore(survey)).toBe(max);
  });

  it.each(edges as unknown as Array<[number, string]>)('scores %i as %s', (total, band) => {
    const result = scoreSurvey(survey, answersFor(survey, total));
    expect(result.score).toBe(total);
    expect(result.band.key).toBe(band);
  });
});

describe('WHO-5 (a percentage: the raw sum times 4)', () => {
  it.each([
    [0, 0, 'low'],
    [7, 28, 'low'],
    [8, 32, 'reduced'],
    [12, 48, 'reduced'],
    [13, 52, 'good'],
    [25, 100, 'good'],
  ])('raw %i is %i, %s', (raw, score, band) => {
    const result = scoreSurvey(WHO5, answersFor(WHO5, raw));
    expect([result.score, result.band.key]).toEqual([score, band]);
  });
  it('has no gaps between its bands', () => expect(surveyProblems(WHO5)).toEqual([]));
});

describe('PHQ-2 → PHQ-9', () => {
  it.each([
    [0, null],
    [2, null],
    [3, 'phq-9'],
    [6, 'phq-9'],
  ])('a score of %i leads on to %s', (total, next) => {
    expect(scoreSurvey(PHQ2, answersFor(PHQ2, total)).next).toBe(next);
  });
  it('asks the first two questions of the PHQ-9, word for word', () => {
    expect(PHQ2.items).toEqual(PHQ9.items.slice(0, 2));
  });
  it('no other survey leads anywhere', () => {
    for (const survey of [PHQ9, GAD7, WHO5, LIFESTYLE]) expect(scoreSurvey(survey, answersFor(survey, maxScore(survey) / (survey.multiplier ?? 1))).next).toBeNull();
  });
});

describe('the PHQ-9 item 9 safety rule', () => {
  it.each([1, 2, 3])('any answer above 0 (%i) to item 9 needs crisis help, on its own', (value) => {
    expect(needsCrisisHelp(PHQ9, { q9: value })).toBe(true);
  });
  it('"Not at all" to item 9 does not, even with the highest total otherwise', () => {
    const answers = { ...answersFor(PHQ9, 24), q9: 0 };
    expect(needsCrisisHelp(PHQ9, answers)).toBe(false);
    expect(scoreSurvey(PHQ9, answers).safety).toBe(false);
  });
  it('with a low total ("Several days" to item 9 and nothing else): the band stays minimal, safety is raised', () => {
    const answers = { ...answersFor(PHQ9, 0), q9: 1 };
    const result = scoreSurvey(PHQ9, answers);
    expect(result).toMatchObject({ score: 1, safety: true });
    expect(result.band.key).toBe('minimal');
  });
  it('after a negative PHQ-2: the PHQ-9 taken anyway still raises it', () => {
    expect(scoreSurvey(PHQ2, answersFor(PHQ2, 1)).next).toBeNull();
    expect(scoreSurvey(PHQ9, { ...answersFor(PHQ9, 1), q9: 2 }).safety).toBe(true);
  });
  it('only the PHQ-9 has a safety item (the PHQ-2 and GAD-7 never raise it)', () => {
    for (const survey of [PHQ2, GAD7, WHO5, LIFESTYLE, NORTHWIND_GENERAL]) {
      expect(survey.items.some((i) => i.safety)).toBe(false);
      expect(needsCrisisHelp(survey, answersFor(survey, maxScore(survey) / (survey.multiplier ?? 1)))).toBe(false);
    }
    expect(PHQ9.items.filter((i) => i.safety).map((i) => i.id)).toEqual(['q9']);
  });
});

describe('checking answers', () => {
  it('accepts a complete set, the optional difficulty question left out', () => {
    expect(checkAnswers(PHQ9, answersFor(PHQ9, 5))).toEqual({});
  });
  it('names a missing answer, a value outside the scale and a question of another survey', () => {
    const answers: SurveyAnswers = { ...answersFor(GAD7, 3), q7: 4, q9: 1 };
    delete answers.q1;
    expect(checkAnswers(GAD7, answers)).toEqual({
      q1: { key: 'validation:surveyAnswerRequired' },
      q7: { key: 'validation:surveyAnswerInvalid', vars: { value: '4' } },
      q9: { key: 'validation:surveyItemUnknown', vars: { item: 'q9' } },
    });
  });
  it('refuses -1 and fractions', () => {
    expect(Object.keys(checkAnswers(PHQ2, { q1: -1, q2: 0.5 }))).toEqual(['q1', 'q2']);
  });
  it('does not count the difficulty question', () => {
    expect(scoreSurvey(PHQ9, answersFor(PHQ9, 4, { difficulty: 3 })).score).toBe(4);
  });
  it('counts a reversed item from the top', () => {
    const answers = { sleep: 0, activity: 0, food: 0, stress: 0, social: 0, enjoy: 0 };
    expect(scoreSurvey(LIFESTYLE, answers).score).toBe(4);
  });
});

describe('routes', () => {
  it.each([
    ['phq-7', 'gad-7'],
    ['phq-2', 'phq-2'],
    ['phq-9', 'phq-9'],
    ['general', 'general'],
    ['profile-questionnaire', 'profile-questionnaire'],
    ['gad-7', 'gad-7'],
    ['phq-3', undefined],
    ['', undefined],
    [null, undefined],
  ])('%s is %s', (route, key) => expect(surveyOfRoute(route)).toBe(key));
});
