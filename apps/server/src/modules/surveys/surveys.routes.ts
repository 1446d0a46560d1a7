import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SignedInContext } from '../../context';
import { HttpError, notFound } from '../../lib/http-errors';
import { canManageOrganization } from '../features/features.policy';
import {
  DetailErrorSchema,
  OrganizationSurveyParamsSchema,
  SurveyDefinitionBodySchema,
  SurveyDefinitionSchema,
  type OrganizationSurveyDefinition,
  type SurveyDefinition,
  FieldErrorsSchema,
  SurveyDtoSchema,
  SurveyHistoryQuerySchema,
  SurveyHistorySchema,
  SurveyListSchema,
  SurveyParamsSchema,
  SurveyPatientQuerySchema,
  SurveyResponseParamsSchema,
  SurveyResultSchema,
  SurveySubmitBodySchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const tags = ['surveys'];
const security = [{ bearerAuth: [] }];
/** The surveys' API is the surveys feature's: off for an organisation, it answers 403. */
const config = { feature: 'surveys' };
const WHOSE =
  'Acts on `patient` (default: your own record). Results are seen by the patient and those with full access only (read-only: 403); a patient you may not open is 404. Reads by anyone but the patient are audited.';

/** Mental-health and well-being surveys (issue 12): questions, scoring on the server, history. */
export const surveysRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/surveys/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The surveys, with your latest result of each',
        description: `PHQ-2, PHQ-9, GAD-7 (its page is /phq-7), and the organisation's general and profile-questionnaire surveys, in the request language. ${WHOSE}`,
        querystring: SurveyPatientQuerySchema,
        response: { 200: SurveyListSchema, ...errors },
      },
    },
    async (request) => app.surveys.list(request.signedIn(), request.query.patient),
  );

  app.get(
    '/api/v1/surveys/responses/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Your survey results, newest first',
        description: `Each with its score, band, the safety flag and every answer as it was asked. \`survey\` keeps one survey. ${WHOSE}`,
        querystring: SurveyHistoryQuerySchema,
        response: { 200: SurveyHistorySchema, ...errors },
      },
    },
    async (request) => app.surveys.history(request.signedIn(), request.query),
  );

  app.get(
    '/api/v1/surveys/responses/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'One survey result',
        description: WHOSE,
        params: SurveyResponseParamsSchema,
        querystring: SurveyPatientQuerySchema,
        response: { 200: SurveyResultSchema, ...errors },
      },
    },
    async (request) => app.surveys.result(request.signedIn(), request.params.id, request.query.patient),
  );

  app.get(
    '/api/v1/surveys/:survey/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A survey's questions",
        description:
          'Its instructions, items (each with its answers: value and label), bands, what a result does not mean, and the attribution the instrument requires; in the request language.',
        params: SurveyParamsSchema,
        response: { 200: SurveyDtoSchema, ...errors },
      },
    },
    async (request) => app.surveys.survey(request.signedIn(), request.params.survey),
  );

  app.post(
    '/api/v1/surveys/:survey/responses/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Submit answers: the server scores them',
        description:
          '{"attempt_id": "<uuid made once per attempt>", "answers": {"q1": 0, ...}}. Every required item answered, each with one of its values, none of another survey; ' +
          'else 400 per field ("answers.q3") and nothing is stored. A second submission of one attempt: 400 {"attempt_id": [...]}. ' +
          `Answers 201 with the score, band and \`safety\` (crisis help first), and \`next\` (PHQ-2 positive: phq-9). The owner or full access. ${WHOSE}`,
        params: SurveyParamsSchema,
        body: SurveySubmitBodySchema,
        response: { 201: SurveyResultSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.surveys.submit(request.signedIn(), request.params.survey, request.body)),
  );

  /** Administrators act on their own organisation (another: 404), super admins on any; anyone else 403. */
  const administered = (ctx: SignedInContext, orgId: number) => {
    if (orgId !== ctx.actor.orgId && !ctx.actor.isSuperadmin) throw notFound();
    if (!canManageOrganization(ctx.actor, orgId)) throw new HttpError(403, 'errors:permissionDenied');
  };
  const adminDescription =
    "The organisation's own general or profile-questionnaire survey: titles, instructions, scale, items and bands in en and el. Organisation admins for their organisation (another: 404), super admins for any; anyone else 403.";

  app.get(
    '/api/v1/organizations/:id/surveys/:survey/',
    {
      schema: {
        tags,
        security,
        summary: "An organisation's own survey (administrators)",
        description: `${adminDescription} Without one of its own, the default.`,
        params: OrganizationSurveyParamsSchema,
        response: { 200: SurveyDefinitionSchema, ...errors },
      },
    },
    async (request) => {
      administered(request.signedIn(), request.params.id);
      // The stored shape is the schema's (checked when written; the defaults are tested against it).
      return (await app.surveys.organizationSurvey(request.params.id, request.params.survey)) as OrganizationSurveyDefinition;
    },
  );

  app.put(
    '/api/v1/organizations/:id/surveys/:survey/',
    {
      schema: {
        tags,
        security,
        summary: "Replace an organisation's own survey (administrators)",
        description: `${adminDescription} Refused with 400 unless the bands cover every score from 0 to the highest without gaps. Results already given keep the questions they were asked with. Audited.`,
        params: OrganizationSurveyParamsSchema,
        body: SurveyDefinitionBodySchema,
        response: { 200: SurveyDefinitionSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = request.signedIn();
      administered(ctx, request.params.id);
      return (await app.surveys.saveOrganizationSurvey(ctx, request.params.id, request.params.survey, request.body as SurveyDefinition)) as OrganizationSurveyDefinition;
    },
  );
};
