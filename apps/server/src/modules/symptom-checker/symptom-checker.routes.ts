import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  PatientQuerySchema,
  SaveSymptomCheckBodySchema,
  SavedSymptomCheckSchema,
  SymptomCheckInputSchema,
  SymptomCheckResultSchema,
  SymptomComplaintListSchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 502: DetailErrorSchema };
const tags = ['symptom checker'];
const security = [{ bearerAuth: [] }];
/** Off for an organisation: 403. */
/** The checker serves the menu's Symptom Checker and Self-Diagnosis (health-check): either one on opens its API. */
const config = { feature: ['symptom-checker', 'self-diagnosis'] };
const NOT_FOR_EMERGENCIES = 'Not for medical emergencies; its content is experimental (as the terms say).';
const LISTS = 'Every value must come from the lists of GET /api/v1/symptom-checker/complaints/ (red_flags: the ids of that complaint’s questions answered yes, for this person): anything else is a 400 naming the field.';

/** The symptom checker: its complaints, a check (nothing stored), a check saved to the record as a symptom. */
export const symptomCheckerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/symptom-checker/complaints/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The complaints the checker knows, with their red-flag questions, in the request’s language',
        description: `Names, search words and questions in the Accept-Language. A complaint or question with sexes/min_age/max_age is only for those people. A complaint's red_flags come most urgent first, the order to ask them in: the first answered yes decides the outcome (no question after it is more urgent), so a client shows that result at once and asks nothing more. ${NOT_FOR_EMERGENCIES}`,
        response: { 200: SymptomComplaintListSchema, ...errors },
      },
    },
    async (request) => app.symptomChecker.complaints(request.signedIn().lang),
  );
  app.post(
    '/api/v1/symptom-checker/assess/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Check symptoms: the outcome, why, and what to do (nothing is stored)',
        description: `Any red flag answered yes wins (emergency: call the emergency number now; urgent: urgent care today); else rules of age, severity and duration; else the complaint's default (soon: see a doctor soon; self-care). ${LISTS} 502 when a configured external checker does not answer. ${NOT_FOR_EMERGENCIES}`,
        body: SymptomCheckInputSchema,
        response: { 200: SymptomCheckResultSchema, ...errors },
      },
    },
    async (request) => app.symptomChecker.assess(request.signedIn(), request.body),
  );
  app.post(
    '/api/v1/symptom-checker/save/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Save a check to the record as a symptom',
        description: `The check is assessed again on the server (a result sent by the client is never used) and written as a symptom record whose note gives the complaint, how long, how bad, the warning signs answered yes and the outcome. Whose record: body \`patient\` or \`?patient=\` (default: your own); the owner or full access only, another's record is 404. ${LISTS}`,
        querystring: PatientQuerySchema,
        body: SaveSymptomCheckBodySchema,
        response: { 201: SavedSymptomCheckSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.symptomChecker.save(request.signedIn(), request.body.input, request.body.patient ?? request.query.patient)),
  );
};
