import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { GAD7, LIFESTYLE, NORTHWIND_GENERAL, NORTHWIND_PROFILE, PHQ9, WHO5, type SurveyAnswers, type SurveyDefinition } from '@healthbook/shared';
import { scoredColumns } from '../../modules/surveys/surveys.repository';
import type { Database } from '../schema';

const DAY = 86_400_000;

/** Each demo organisation's own surveys: healthbook asks the WHO-5 and a lifestyle set, northwind its own weekly check and habits. */
export const DEMO_ORGANIZATION_SURVEYS: Record<string, { general: SurveyDefinition; 'profile-questionnaire': SurveyDefinition }> = {
  healthbook: { general: WHO5, 'profile-questionnaire': LIFESTYLE },
  northwind: { general: NORTHWIND_GENERAL, 'profile-questionnaire': NORTHWIND_PROFILE },
};

export async function seedDemoOrganizationSurveys(trx: Transaction<Database>, orgIds: Map<string, number>): Promise<void> {
  for (const [org, surveys] of Object.entries(DEMO_ORGANIZATION_SURVEYS)) {
    await trx
      .insertInto('organization_surveys')
      .values(Object.entries(surveys).map(([survey, definition]) => ({ org_id: orgIds.get(org)!, survey: survey as 'general' | 'profile-questionnaire', definition: JSON.stringify(definition) })))
      .execute();
  }
}

/**
 * A few months of the demo patient's PHQ-9 and GAD-7 results, easing from moderate to mild, so
 * that the assessments view has a history and a trend to show.
 */
export async function seedDemoAssessments(trx: Transaction<Database>, who: { orgId: number; patientId: number; userId: number; name: string }, now = new Date()): Promise<void> {
  const series: Array<[SurveyDefinition, number, SurveyAnswers]> = [
    [PHQ9, 120, { q1: 2, q2: 2, q3: 2, q4: 2, q5: 1, q6: 1, q7: 1, q8: 0, q9: 0, difficulty: 1 }],
    [GAD7, 119, { q1: 2, q2: 2, q3: 2, q4: 1, q5: 1, q6: 2, q7: 1, difficulty: 1 }],
    [PHQ9, 75, { q1: 1, q2: 2, q3: 1, q4: 2, q5: 1, q6: 1, q7: 1, q8: 0, q9: 0, difficulty: 1 }],
    [GAD7, 74, { q1: 2, q2: 1, q3: 1, q4: 1, q5: 1, q6: 1, q7: 1, difficulty: 1 }],
    [PHQ9, 30, { q1: 1, q2: 1, q3: 1, q4: 1, q5: 0, q6: 1, q7: 0, q8: 0, q9: 0, difficulty: 0 }],
    [GAD7, 29, { q1: 1, q2: 1, q3: 1, q4: 1, q5: 0, q6: 1, q7: 0, difficulty: 0 }],
  ];
  await trx
    .insertInto('survey_responses')
    .values(
      series.map(([survey, daysAgo, answers]) => {
        const columns = scoredColumns(survey.key, survey, answers);
        return {
          ...columns,
          org_id: who.orgId,
          patient_id: who.patientId,
          submitted_by: who.userId,
          submitted_by_name: who.name,
          attempt_id: randomUUID(),
          answers: JSON.stringify(columns.answers),
          definition: JSON.stringify(columns.definition),
          created_at: new Date(now.getTime() - daysAgo * DAY),
        };
      }),
    )
    .execute();
}
