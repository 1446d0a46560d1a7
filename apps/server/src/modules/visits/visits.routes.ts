import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppointmentSlotParamsSchema, DetailErrorSchema, FieldErrorsSchema, VisitSchema } from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };

/** The video visit of a telehealth appointment (teleconsultation feature: off, 403). */
export const visitsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/appointments/:availability_det_id/visit/',
    {
      config: { feature: 'teleconsultation' },
      schema: {
        tags: ['telehealth'],
        security: [{ bearerAuth: [] }],
        summary: 'The video visit of an appointment',
        description:
          "For the appointment's provider and its patient side (the patient, or a full-access carer acting for them; read-only: 403); anyone else: 404. " +
          'Its window (10 minutes before the start to the end) and phase; while open, the ICE servers (TURN credentials valid a few hours). A cancelled appointment: 409.',
        params: AppointmentSlotParamsSchema,
        response: { 200: VisitSchema, ...errors },
      },
    },
    async (request) => app.visits.get(request.signedIn(), request.params.availability_det_id),
  );
};
