import {
  DEFAULT_ORGANIZATION_SURVEYS,
  FIXED_SURVEYS,
  ORGANIZATION_SURVEY_KEYS,
  SURVEY_KEYS,
  SURVEY_ROUTES,
  SurveyDefinitionSchema,
  checkAnswers,
  maxScore,
  surveyProblems,
  type OrganizationSurveyKey,
  type SurveyDefinition,
  type SurveyDto,
  type SurveyHistoryQuery,
  type SurveyKey,
  type SurveyResult,
  type SurveySummary,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { FieldError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { presentBand, presentResult, presentSurvey } from './surveys.presenter';
import { OrganizationSurveysRepository, SurveyResponsesRepository, scoredColumns, type SurveyResponseRow } from './surveys.repository';

const isOrganizationSurvey = (key: SurveyKey): key is OrganizationSurveyKey => (ORGANIZATION_SURVEY_KEYS as readonly string[]).includes(key);

/** An organisation's own survey definition, refused unless it is coherent (shape, and bands covering every score). */
export function checkOrganizationSurvey(definition: unknown): SurveyDefinition {
  const parsed = SurveyDefinitionSchema.parse(definition) as SurveyDefinition;
  const problems = surveyProblems(parsed);
  if (problems.length) throw new Error(`survey ${parsed.key}: ${problems.join('; ')}`);
  return parsed;
}

/**
 * Mental-health and well-being surveys: the questions (the published instruments, or the
 * organisation's own general and profile-questionnaire sets), submitting answers (scored here
 * alone, never from a client's total), and the patient's history of results. Results are health
 * data of the patient: the owner and full access only (`canSeeAssessments`); every access by
 * someone else is audited; organisation admins have none.
 */
export class SurveysService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
  ) {}

  /** The definition a survey has in an organisation. */
  async definition(orgId: number, key: SurveyKey): Promise<SurveyDefinition> {
    if (!isOrganizationSurvey(key)) return FIXED_SURVEYS[key];
    return (await new OrganizationSurveysRepository(this.db, orgScope(orgId)).find(key)) ?? DEFAULT_ORGANIZATION_SURVEYS[key];
  }

  async survey(ctx: SignedInContext, key: SurveyKey): Promise<SurveyDto> {
    return presentSurvey(key, await this.definition(ctx.actor.orgId, key), ctx.lang);
  }

  /** An organisation's definition of one of its own surveys, as stored (administrators: the caller checks who). */
  organizationSurvey(orgId: number, key: OrganizationSurveyKey): Promise<SurveyDefinition> {
    return this.definition(orgId, key);
  }

  /**
   * Replaces an organisation's own survey (administrators: the caller checks who): refused with
   * 400 unless it is coherent. Results already given keep the definition they were asked with.
   */
  async saveOrganizationSurvey(ctx: SignedInContext, orgId: number, key: OrganizationSurveyKey, definition: SurveyDefinition): Promise<SurveyDefinition> {
    if (definition.key !== key) throw new FieldError({ key: ['validation:surveyUnknown'] });
    const problems = surveyProblems(definition);
    if (problems.length) throw new FieldError({ bands: problems });
    await new OrganizationSurveysRepository(this.db, orgScope(orgId)).save(key, definition);
    await this.audit.record(ctx, { action: 'organization_survey_update', outcome: 'success', orgId, detail: { survey: key } });
    return definition;
  }

  /** A patient's assessments, for those allowed to see them (else 403, audited). */
  private async assessmentsGrant(ctx: SignedInContext, patientId: number | undefined, intent: 'read' | 'write'): Promise<PatientScope> {
    // The area's rule (owner and full access to all of the record) is the policy's: refused there, 403 and audited.
    return this.patients.open(ctx, 'assessments', patientId, intent);
  }

  private responses(grant: PatientScope): SurveyResponsesRepository {
    return new SurveyResponsesRepository(this.db, grant);
  }

  /** Every survey of the organisation, with the patient's latest result of each. */
  async list(ctx: SignedInContext, patientId?: number): Promise<SurveySummary[]> {
    const grant = await this.assessmentsGrant(ctx, patientId, 'read');
    const [own, rows] = await Promise.all([new OrganizationSurveysRepository(this.db, orgScope(ctx.actor.orgId)).all(), this.responses(grant).list()]);
    await grant.auditRead(ctx, { surveys: 'list', results: rows.length });
    return SURVEY_KEYS.map((key) => {
      const survey = isOrganizationSurvey(key) ? (own.get(key) ?? DEFAULT_ORGANIZATION_SURVEYS[key]) : FIXED_SURVEYS[key];
      const mine = rows.filter((r) => r.survey === key);
      const last = mine[0];
      const lastBand = last ? (last.definition.bands.find((b) => b.key === last.band) ?? last.definition.bands[0]!) : undefined;
      return {
        key,
        route: SURVEY_ROUTES[key],
        title: survey.title[ctx.lang],
        summary: survey.summary[ctx.lang],
        max_score: maxScore(survey),
        higher_is_better: survey.higherIsBetter === true,
        last: last && lastBand ? { id: last.id, score: last.score, band: presentBand(lastBand, ctx.lang), submitted_at: new Date(last.created_at).toISOString() } : null,
        count: mine.length,
      };
    });
  }

  /**
   * Scores and keeps a set of answers: every answer must belong to the survey and be one of its
   * item's values, every required item answered; an attempt is submitted once. Nothing is stored
   * otherwise (400 naming the field).
   */
  async submit(ctx: SignedInContext, key: SurveyKey, body: { attempt_id: string; answers: Record<string, number>; patient?: number | undefined }): Promise<SurveyResult> {
    const grant = await this.assessmentsGrant(ctx, body.patient, 'write');
    const survey = await this.definition(grant.patient.org_id, key);
    const problems = checkAnswers(survey, body.answers);
    if (Object.keys(problems).length) {
      throw new FieldError(Object.fromEntries(Object.entries(problems).map(([item, message]) => [`answers.${item}`, [message]])));
    }
    const user = ctx.actor.user;
    const row = await this.responses(grant).insert({
      ...scoredColumns(key, survey, body.answers),
      submitted_by: ctx.actor.userId,
      submitted_by_name: `${user.first_name} ${user.last_name}`.trim(),
      attempt_id: body.attempt_id,
    });
    if (!row) throw new FieldError({ attempt_id: ['validation:surveyAttemptUsed'] });
    // Who took a survey for someone else is on the patient's trail; the answers never are.
    if (!grant.isOwner) await this.audit.record(ctx, { action: 'assessment_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { survey: key, result: row.id } });
    return presentResult(row, ctx.lang);
  }

  /** The patient's results, newest first (of one survey, or all). */
  async history(ctx: SignedInContext, query: SurveyHistoryQuery): Promise<SurveyResult[]> {
    const grant = await this.assessmentsGrant(ctx, query.patient, 'read');
    const rows = await this.responses(grant).list(query.survey);
    await grant.auditRead(ctx, { survey: query.survey ?? 'all', results: rows.length });
    return rows.map((r) => presentResult(r, ctx.lang));
  }

  async result(ctx: SignedInContext, id: number, patientId?: number): Promise<SurveyResult> {
    const grant = await this.assessmentsGrant(ctx, patientId, 'read');
    const row = await this.responses(grant).get(id);
    if (!row) throw notFound();
    await grant.auditRead(ctx, { result: id });
    return presentResult(row, ctx.lang);
  }

  /**
   * The results an export carries, newest first, optionally between two days (UTC dates of
   * submission): none for those who may not see them. The caller has the grant and audits the export.
   */
  async forExport(grant: PatientScope, days: { from?: string | undefined; to?: string | undefined } = {}): Promise<SurveyResponseRow[]> {
    if (!grant.reachesArea('assessments')) return [];
    const rows = await this.responses(grant).list();
    const day = (row: SurveyResponseRow) => new Date(row.created_at).toISOString().slice(0, 10);
    return rows.filter((row) => (!days.from || day(row) >= days.from) && (!days.to || day(row) <= days.to));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    surveys: SurveysService;
  }
}

export default servicePlugin('surveys', ['db', 'audit-service', 'patients-service'], (app) => new SurveysService(app.db, app.patients, app.audit));
