import type { Observation, Patient, QuestionnaireResponse, Reference } from '@medplum/fhirtypes';
import { optionsOf, translate, type Language, type SurveyDefinition } from '@healthbook/shared';
import { SYSTEMS } from './fhir.mapping';

/** What the mapping needs of a kept survey result (a survey_responses row). */
export interface AssessmentInput {
  id: number;
  survey: string;
  answers: Record<string, number>;
  score: number;
  band: string;
  safety: boolean;
  created_at: Date | string;
  submitted_by_name: string;
  definition: SurveyDefinition;
}

/** Identifier of an exported survey result: value `<organisation origin>/<result id>`. */
export const ASSESSMENT_SYSTEM = 'urn:healthbook:assessment';

/**
 * A survey result as FHIR R4 (ARCHITECTURE: surveys → QuestionnaireResponse + Observation
 * `survey`): the answers as a completed QuestionnaireResponse (the questionnaire named by its
 * LOINC panel when it has one, else by our survey key), and the total as an Observation of
 * category `survey` (LOINC total-score code when there is one) derived from it, its band as the
 * interpretation, and the item 9 safety flag as a note.
 */
export function assessmentResources(
  row: AssessmentInput,
  ids: { response: string; observation: string; identifier: string },
  patient: Reference<Patient>,
  lang: Language,
): [QuestionnaireResponse, Observation] {
  const survey = row.definition;
  const text = (l: { en: string; el: string }) => l[lang] ?? l.en;
  const authored = new Date(row.created_at).toISOString();
  const band = survey.bands.find((b) => b.key === row.band);
  const title = text(survey.title);

  const response: QuestionnaireResponse = {
    resourceType: 'QuestionnaireResponse',
    id: ids.response,
    identifier: { system: ASSESSMENT_SYSTEM, value: ids.identifier },
    questionnaire: survey.codes ? `${SYSTEMS.loinc}/q/${survey.codes.questionnaire}` : `urn:healthbook:survey:${row.survey}`,
    status: 'completed',
    subject: patient,
    authored,
    author: { display: row.submitted_by_name },
    item: survey.items
      .filter((item) => row.answers[item.id] !== undefined)
      .map((item) => {
        const value = row.answers[item.id]!;
        const option = optionsOf(survey, item).find((o) => o.value === value);
        return { linkId: item.id, text: text(item.text), answer: [{ valueCoding: { code: String(value), ...(option ? { display: text(option.label) } : {}) } }] };
      }),
  };

  const observation: Observation = {
    resourceType: 'Observation',
    id: ids.observation,
    identifier: [{ system: ASSESSMENT_SYSTEM, value: `${ids.identifier}/total` }],
    status: 'final',
    category: [{ coding: [{ system: SYSTEMS.observationCategory, code: 'survey', display: 'Survey' }] }],
    code: survey.codes
      ? { coding: [{ system: SYSTEMS.loinc, code: survey.codes.total, display: `${survey.codes.display} total score` }], text: title }
      : { text: title },
    subject: patient,
    effectiveDateTime: authored,
    valueInteger: row.score,
    ...(band ? { interpretation: [{ text: text(band.label) }] } : {}),
    derivedFrom: [{ reference: `urn:uuid:${ids.response}` }],
    ...(row.safety ? { note: [{ text: translate(lang, 'records:pdf.assessmentSafetyValue') }] } : {}),
  };
  return [response, observation];
}
