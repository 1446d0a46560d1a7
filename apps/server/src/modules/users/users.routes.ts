import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangePasswordBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  MessageAnswerSchema,
  UpdateUserBodySchema,
  UserDtoSchema,
  UserIdParamsSchema,
} from '@healthbook/shared';
import avatarRoutes from './avatar.routes';
import { presentUser } from './users.presenter';
import { UsersService } from './users.service';

const errors = { 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const withFieldErrors = { 400: FieldErrorsSchema.or(DetailErrorSchema), ...errors };

const UPDATE_NOTES =
  'Only the fields sent change. gender and sex: a key (male, female, other, undisclosed) or {key, value}. zip or zip_code. ' +
  'dob: YYYY-MM-DD or MM/DD/YYYY, not in the future; empty clears it. Empty optional text clears the field. ' +
  'settings (language en|el, dark, isWizardMinimized) are merged into the stored ones. ' +
  'email is the sign-in identity and cannot be changed here: the same address (any case) is accepted, another one answers 400 {email: [...]}. ' +
  'has_mfa_enabled is ignored: it is derived from the confirmed second-factor devices.';

/** The signed-in user's own record, other users' records (admins), password and avatar. */
const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new UsersService({ db: app.db, users: app.users, audit: app.audit, storage: app.storage, mailer: app.mailer, log: app.log });

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

  app.put(
    '/api/v1/me/',
    {
      preHandler: app.requireAuth(),
      schema: {
        tags: ['users'],
        summary: 'Change your own profile fields or settings',
        description: `${UPDATE_NOTES} Answers the updated user.`,
        security: [{ bearerAuth: [] }],
        body: UpdateUserBodySchema,
        response: { 200: UserDtoSchema, ...withFieldErrors },
      },
    },
    async (request) => presentUser(await service.update(request, request.auth!.user, request.body), request.lang),
  );

  app.put(
    '/api/v1/me/password/',
    {
      preHandler: app.requireAuth(),
      // Each try verifies a password: keep guessing with a stolen access token slow.
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['users', 'auth'],
        summary: 'Change your password',
        description:
          'The current password must verify (400 {current_password: [...]}) and the new one must differ and meet the password rule. ' +
          'Every other session of the user ends (their refresh tokens answer 401); this one stays signed in. A notice is e-mailed.',
        security: [{ bearerAuth: [] }],
        body: ChangePasswordBodySchema,
        response: { 200: MessageAnswerSchema, ...withFieldErrors, 429: DetailErrorSchema },
      },
    },
    async (request) => {
      await service.changePassword(request, request.body);
      return { detail: request.t('errors:passwordChanged') };
    },
  );

  app.get(
    '/api/v1/users/:id',
    {
      preHandler: app.requireAuth(),
      schema: {
        tags: ['users'],
        summary: 'One user: yourself, a member of your organisation (organisation admin) or anyone (super admin)',
        description: 'Anyone else answers 404, whether or not the user exists. Reading someone else’s record is audited.',
        security: [{ bearerAuth: [] }],
        params: UserIdParamsSchema,
        response: { 200: UserDtoSchema, 400: FieldErrorsSchema, ...errors },
      },
    },
    async (request) => presentUser(await service.findFor(request, request.params.id, 'read'), request.lang),
  );

  app.put(
    '/api/v1/users/:id',
    {
      preHandler: app.requireAuth(),
      schema: {
        tags: ['users'],
        summary: 'Change a user: yourself, a member of your organisation (organisation admin) or anyone (super admin)',
        description: `${UPDATE_NOTES} Anyone else answers 404. Changing someone else’s record is audited. Answers the updated user.`,
        security: [{ bearerAuth: [] }],
        params: UserIdParamsSchema,
        body: UpdateUserBodySchema,
        response: { 200: UserDtoSchema, ...withFieldErrors },
      },
    },
    async (request) => {
      const target = await service.findFor(request, request.params.id, 'update');
      return presentUser(await service.update(request, target, request.body), request.lang);
    },
  );

  await app.register(avatarRoutes, { service });
};

export default usersRoutes;
