import {
  SURVEY_ROUTES,
  maxScore,
  optionsOf,
  type Language,
  type Localized,
  type SurveyBand,
  type SurveyBandDto,
  type SurveyDefinition,
  type SurveyDto,
  type SurveyKey,
  type SurveyResult,
} from '@healthbook/shared';
import type { SurveyResponseRow } from './surveys.repository';

export const pick = (text: Localized, lang: Language): string => text[lang] ?? text.en;

export function presentBand(band: SurveyBand, lang: Language): SurveyBandDto {
  return { key: band.key, min: band.min, max: band.max, level: band.level, label: pick(band.label, lang), meaning: pick(band.meaning, lang) };
}

/** A survey's questions in a language. */
export function presentSurvey(key: SurveyKey, survey: SurveyDefinition, lang: Language): SurveyDto {
  return {
    key,
    route: SURVEY_ROUTES[key],
    title: pick(survey.title, lang),
    summary: pick(survey.summary, lang),
    max_score: maxScore(survey),
    higher_is_better: survey.higherIsBetter === true,
    instructions: pick(survey.instructions, lang),
    items: survey.items.map((item) => ({
      id: item.id,
      text: pick(item.text, lang),
      options: optionsOf(survey, item).map((o) => ({ value: o.value, label: pick(o.label, lang) })),
      optional: item.optional === true,
      scored: item.scored !== false,
      safety: item.safety === true,
    })),
    bands: survey.bands.map((b) => presentBand(b, lang)),
    note: pick(survey.note, lang),
    attribution: survey.attribution ? pick(survey.attribution, lang) : null,
  };
}

/** A kept result, read through the definition it was asked with. */
export function presentResult(row: SurveyResponseRow, lang: Language): SurveyResult {
  const survey = row.definition;
  const key = row.survey as SurveyKey;
  const band = survey.bands.find((b) => b.key === row.band) ?? survey.bands[0]!;
  return {
    id: row.id,
    survey: key,
    route: SURVEY_ROUTES[key],
    title: pick(survey.title, lang),
    score: row.score,
    max_score: row.max_score,
    higher_is_better: survey.higherIsBetter === true,
    band: presentBand(band, lang),
    safety: row.safety,
    next: (row.next_survey as SurveyKey | null) ?? null,
    note: pick(survey.note, lang),
    attribution: survey.attribution ? pick(survey.attribution, lang) : null,
    answers: survey.items.map((item) => {
      const value = row.answers[item.id];
      const option = value === undefined ? undefined : optionsOf(survey, item).find((o) => o.value === value);
      return { item: item.id, text: pick(item.text, lang), value: value ?? null, label: option ? pick(option.label, lang) : null };
    }),
    submitted_at: new Date(row.created_at).toISOString(),
    submitted_by: row.submitted_by_name,
  };
}
