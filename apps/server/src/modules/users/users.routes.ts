import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DetailErrorSchema, UserDtoSchema } from '@healthbook/shared';
import { presentUser } from './users.presenter';

const errors = { 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };

/** The signed-in user's own record. */
const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/me/',
    {
      preHandler: app.requireAuth(),
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        description: 'Includes patient_appointment_details (appointments arrive with the calendar).',
        security: [{ bearerAuth: [] }],
        response: { 200: UserDtoSchema, ...errors },
      },
    },
    // The session query already loaded the user with organisation and devices: no second round trip.
    async (request) => presentUser(request.auth!.user, request.lang),
  );
};

export default usersRoutes;
