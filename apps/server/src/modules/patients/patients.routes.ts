import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DetailErrorSchema, FieldErrorsSchema, PatientListSchema, PatientSchema, RecordIdParamsSchema } from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema, 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };

/** Patients: whose records there are to open (authenticated context). */
export const patientsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/patients/',
    {
      config: { feature: 'health-records' },
      schema: {
        tags: ['health records'],
        summary: 'The patients whose records you may open (your own first)',
        security: [{ bearerAuth: [] }],
        response: { 200: PatientListSchema, ...errors },
      },
    },
    async (request) => app.patients.list(request.signedIn()),
  );

  app.get(
    '/api/v1/patients/:id',
    {
      config: { feature: 'health-records' },
      schema: {
        tags: ['health records'],
        summary: 'One patient (cached by the client by patient_id)',
        description: 'Your own patient, or one whose record you were let into; anyone else: 404.',
        security: [{ bearerAuth: [] }],
        params: RecordIdParamsSchema,
        response: { 200: PatientSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = request.signedIn();
      return app.patients.get(ctx, request.params.id);
    },
  );
};
