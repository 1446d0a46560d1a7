/**
 * Mental-health and well-being surveys: the instruments are data (survey-instruments.ts), the
 * scoring and the safety rule are pure functions here, used by the server (which alone decides
 * a score) and the web app (which shows the same questions). No zod: the web imports this.
 */
import { GAD7, LIFESTYLE, PHQ2, PHQ9, WHO5 } from './survey-instruments';

export interface Localized {
  en: string;
  el: string;
}

export interface SurveyOption {
  value: number;
  label: Localized;
}

export interface SurveyItem {
  /** Stable within the survey (the FHIR linkId). */
  id: string;
  text: Localized;
  /** Its own answers (default: the survey's scale). */
  options?: readonly SurveyOption[];
  /** Counts towards the total (default true). */
  scored?: boolean;
  /** May be left unanswered (default false). */
  optional?: boolean;
  /** Counted as (highest value - answer). */
  reverse?: boolean;
  /** Any answer above 0 means the person may be at risk: crisis help is shown at once. */
  safety?: boolean;
}

export interface SurveyBand {
  key: string;
  /** Inclusive bounds of the reported score. */
  min: number;
  max: number;
  /** 0 (nothing of concern) to 4 (severe): drives the tone of the result and the next steps. */
  level: 0 | 1 | 2 | 3 | 4;
  label: Localized;
  /** What it means, in plain words. */
  meaning: Localized;
}

export interface SurveyDefinition {
  key: string;
  title: Localized;
  summary: Localized;
  instructions: Localized;
  scale: readonly SurveyOption[];
  items: readonly SurveyItem[];
  bands: readonly SurveyBand[];
  /** The reported score is the sum times this (WHO-5 reports a percentage: x4). */
  multiplier?: number;
  /** A higher score is better (well-being), for the trend chart and the wording. */
  higherIsBetter?: boolean;
  /** From this score on, the next survey follows at once (PHQ-2 → PHQ-9). */
  next?: { from: number; survey: SurveyKey };
  /** What the result does not mean (a screening, not a diagnosis). */
  note: Localized;
  /** The attribution the instrument requires. */
  attribution?: Localized;
  /** LOINC codes of the questionnaire and of its total score, when it has them. */
  codes?: { questionnaire: string; total: string; display: string };
}

/** The surveys, by key; the route of each is its `SURVEY_ROUTES` entry (GAD-7 is /phq-7, as in the original). */
export const SURVEY_KEYS = ['phq-2', 'phq-9', 'gad-7', 'general', 'profile-questionnaire'] as const;
export type SurveyKey = (typeof SURVEY_KEYS)[number];

/** The surveys each organisation chooses (stored per organisation; these are the defaults). */
export const ORGANIZATION_SURVEY_KEYS = ['general', 'profile-questionnaire'] as const satisfies readonly SurveyKey[];
export type OrganizationSurveyKey = (typeof ORGANIZATION_SURVEY_KEYS)[number];

export const SURVEY_ROUTES: Record<SurveyKey, string> = {
  'phq-2': 'phq-2',
  'phq-9': 'phq-9',
  'gad-7': 'phq-7',
  general: 'general',
  'profile-questionnaire': 'profile-questionnaire',
};

/** The survey of a route segment (mental-health-survey/<route>, health-action/result?action=<route>), or undefined. */
export function surveyOfRoute(route: string | null | undefined): SurveyKey | undefined {
  if (!route) return undefined;
  return SURVEY_KEYS.find((k) => SURVEY_ROUTES[k] === route || k === route);
}

export const isSurveyKey = (value: string): value is SurveyKey => (SURVEY_KEYS as readonly string[]).includes(value);

/** The published instruments (fixed) and the default organisation surveys. */
export const FIXED_SURVEYS: Record<Exclude<SurveyKey, OrganizationSurveyKey>, SurveyDefinition> = { 'phq-2': PHQ2, 'phq-9': PHQ9, 'gad-7': GAD7 };
export const DEFAULT_ORGANIZATION_SURVEYS: Record<OrganizationSurveyKey, SurveyDefinition> = { general: WHO5, 'profile-questionnaire': LIFESTYLE };

export const optionsOf = (survey: SurveyDefinition, item: SurveyItem): readonly SurveyOption[] => item.options ?? survey.scale;
const scored = (item: SurveyItem) => item.scored !== false;

/** The highest reported score of a survey. */
export function maxScore(survey: SurveyDefinition): number {
  const raw = survey.items.filter(scored).reduce((sum, item) => sum + Math.max(...optionsOf(survey, item).map((o) => o.value)), 0);
  return raw * (survey.multiplier ?? 1);
}

/** Answers as submitted: item id → the value chosen. */
export type SurveyAnswers = Record<string, number>;

/** The problem with an answer, by item id (or `answers` for the whole): a message key of the validation catalog. */
export type SurveyAnswerErrors = Record<string, { key: string; vars?: Record<string, string | number> }>;

/**
 * What is wrong with a set of answers: an item of another survey, a value that is not one of
 * the item's answers, a required item left out. Empty when they can be scored.
 */
export function checkAnswers(survey: SurveyDefinition, answers: SurveyAnswers): SurveyAnswerErrors {
  const errors: SurveyAnswerErrors = {};
  const items = new Map(survey.items.map((i) => [i.id, i]));
  for (const [id, value] of Object.entries(answers)) {
    const item = items.get(id);
    if (!item) errors[id] = { key: 'validation:surveyItemUnknown', vars: { item: id } };
    else if (!optionsOf(survey, item).some((o) => o.value === value)) errors[id] = { key: 'validation:surveyAnswerInvalid', vars: { value: String(value) } };
  }
  for (const item of survey.items) {
    if (!item.optional && !(item.id in answers)) errors[item.id] = { key: 'validation:surveyAnswerRequired' };
  }
  return errors;
}

/** The band a reported score falls in (bands cover 0..max without gaps: see the tests). */
export function bandOf(survey: SurveyDefinition, score: number): SurveyBand {
  const band = survey.bands.find((b) => score >= b.min && score <= b.max);
  if (!band) throw new Error(`no band of ${survey.key} holds ${score}`);
  return band;
}

export interface SurveyScore {
  score: number;
  maxScore: number;
  band: SurveyBand;
  /** The survey that follows at once (PHQ-2 positive → PHQ-9), or null. */
  next: SurveyKey | null;
  /** Crisis help must be shown first (see `needsCrisisHelp`). */
  safety: boolean;
}

/**
 * The safety rule, on its own: any answer above 0 to an item marked `safety` (PHQ-9 item 9,
 * thoughts of being better off dead or of self-harm) means crisis help is shown at once,
 * before the result and whatever the total.
 */
export function needsCrisisHelp(survey: { items: ReadonlyArray<Pick<SurveyItem, 'id' | 'safety'>> }, answers: SurveyAnswers): boolean {
  return survey.items.some((item) => item.safety === true && (answers[item.id] ?? 0) > 0);
}

/** The score of answers that passed `checkAnswers`: the sum of scored items (reversed where asked) times the multiplier. */
export function scoreSurvey(survey: SurveyDefinition, answers: SurveyAnswers): SurveyScore {
  let raw = 0;
  for (const item of survey.items.filter(scored)) {
    const value = answers[item.id];
    if (value === undefined) continue;
    raw += item.reverse ? Math.max(...optionsOf(survey, item).map((o) => o.value)) - value : value;
  }
  const score = raw * (survey.multiplier ?? 1);
  return {
    score,
    maxScore: maxScore(survey),
    band: bandOf(survey, score),
    next: survey.next && score >= survey.next.from ? survey.next.survey : null,
    safety: needsCrisisHelp(survey, answers),
  };
}

/** A survey's definition is coherent: unique items, bands covering 0..max in order without gaps or overlaps. */
export function surveyProblems(survey: SurveyDefinition): string[] {
  const problems: string[] = [];
  const ids = survey.items.map((i) => i.id);
  if (new Set(ids).size !== ids.length) problems.push('duplicate item ids');
  if (!survey.items.some(scored)) problems.push('no scored item');
  const bands = [...survey.bands].sort((a, b) => a.min - b.min);
  let expected = 0;
  for (const band of bands) {
    if (band.min !== expected) problems.push(`band ${band.key} starts at ${band.min}, expected ${expected}`);
    if (band.max < band.min) problems.push(`band ${band.key} ends before it starts`);
    expected = band.max + 1;
  }
  if (expected - 1 !== maxScore(survey)) problems.push(`bands end at ${expected - 1}, the highest score is ${maxScore(survey)}`);
  return problems;
}
