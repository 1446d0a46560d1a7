import type { Selectable } from 'kysely';
import { scoreSurvey, type OrganizationSurveyKey, type SurveyDefinition } from '@healthbook/shared';
import type { Db } from '../../db/client';
import type { SurveyResponsesTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';
import type { PatientScope } from '../patients/patient-scope';

export type SurveyResponseRow = Selectable<SurveyResponsesTable>;


/** An organisation's own surveys (general, profile-questionnaire). */
export class OrganizationSurveysRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  async find(survey: OrganizationSurveyKey): Promise<SurveyDefinition | undefined> {
    const row = await this.db.selectFrom('organization_surveys').select('definition').where('org_id', '=', this.scope.orgId).where('survey', '=', survey).executeTakeFirst();
    return row?.definition;
  }

  async all(): Promise<Map<string, SurveyDefinition>> {
    const rows = await this.db.selectFrom('organization_surveys').select(['survey', 'definition']).where('org_id', '=', this.scope.orgId).execute();
    return new Map(rows.map((r) => [r.survey, r.definition]));
  }

  async save(survey: OrganizationSurveyKey, definition: SurveyDefinition): Promise<void> {
    await this.db
      .insertInto('organization_surveys')
      .values({ org_id: this.scope.orgId, survey, definition: JSON.stringify(definition) })
      .onConflict((oc) => oc.columns(['org_id', 'survey']).doUpdateSet({ definition: JSON.stringify(definition), updated_at: new Date() }))
      .execute();
  }
}

/** The columns of a scored response: what the server computed from the answers, and the definition as asked. */
export function scoredColumns(key: string, survey: SurveyDefinition, answers: Record<string, number>) {
  const scored = scoreSurvey(survey, answers);
  return {
    survey: key,
    answers,
    score: scored.score,
    max_score: scored.maxScore,
    band: scored.band.key,
    level: scored.band.level,
    safety: scored.safety,
    next_survey: scored.next,
    definition: survey,
  };
}

/** One patient's survey responses. */
export class SurveyResponsesRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  /** Stores a response; undefined when this attempt was already submitted (nothing written). */
  insert(row: Omit<SurveyResponseRow, 'id' | 'org_id' | 'patient_id' | 'created_at' | 'answers' | 'definition'> & { answers: Record<string, number>; definition: SurveyDefinition }): Promise<SurveyResponseRow | undefined> {
    return this.db
      .insertInto('survey_responses')
      .values({ ...row, org_id: this.scope.orgId, patient_id: this.scope.patientId, answers: JSON.stringify(row.answers), definition: JSON.stringify(row.definition) })
      .onConflict((oc) => oc.columns(['patient_id', 'attempt_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /** Newest first. */
  list(survey?: string, limit = 500): Promise<SurveyResponseRow[]> {
    let query = this.db.selectFrom('survey_responses').selectAll().where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId);
    if (survey) query = query.where('survey', '=', survey);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  get(id: number): Promise<SurveyResponseRow | undefined> {
    return this.db.selectFrom('survey_responses').selectAll().where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId).where('id', '=', id).executeTakeFirst();
  }
}
