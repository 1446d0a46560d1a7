import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AVATAR_MAX_BYTES,
  AvatarKeyParamsSchema,
  ChangeEmailBodySchema,
  ChangePasswordBodySchema,
  ConfirmEmailBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  MessageAnswerSchema,
  UpdateUserBodySchema,
  UserDtoSchema,
  UserIdParamsSchema,
} from '@healthbook/shared';
import { notFound } from '../../lib/http-errors';
import { readSingleFile } from '../../lib/multipart';
import { presentUser } from './users.presenter';

const errors = { 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const withFieldErrors = { 400: FieldErrorsSchema.or(DetailErrorSchema), ...errors, 429: DetailErrorSchema };

const UPDATE_NOTES =
  'Only the fields sent change. gender and sex: a key (male, female, other, undisclosed) or {key, value}. zip or zip_code. ' +
  'dob: YYYY-MM-DD or MM/DD/YYYY, not in the future; empty clears it. Empty optional text clears the field. Names need a letter; text is one line. ' +
  'settings (language en|el, dark, isWizardMinimized, timeZone: an IANA zone) are merged into the stored ones. ' +
  'email is the sign-in identity and changes through POST /api/v1/me/email/: the same address (any case) is accepted here, another one answers 400 {email: [...]}. ' +
  'has_mfa_enabled is ignored: it is derived from the confirmed second-factor devices.';

/** The signed-in user's own record, other users' records (admins), password, e-mail address and avatar. */
export const signedInUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/me/',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        description: 'Includes patient_appointment_details: your booked appointments from 30 days ago on, by start.',
        security: [{ bearerAuth: [] }],
        response: { 200: UserDtoSchema, ...errors },
      },
    },
    // The session query already loaded the user with organisation and devices: no second round trip.
    async (request) => {
      const ctx = request.signedIn();
      return { ...presentUser(ctx.actor.user, request.lang), patient_appointment_details: await app.appointments.forMe(ctx) };
    },
  );

  app.put(
    '/api/v1/me/',
    {
      schema: {
        tags: ['users'],
        summary: 'Change your own profile fields or settings',
        description: `${UPDATE_NOTES} Answers the updated user.`,
        security: [{ bearerAuth: [] }],
        body: UpdateUserBodySchema,
        response: { 200: UserDtoSchema, ...withFieldErrors },
      },
    },
    async (request) => {
      const ctx = request.signedIn();
      const user = await app.users.update(ctx, ctx.actor.user, request.body);
      return { ...presentUser(user, request.lang), patient_appointment_details: await app.appointments.forMe(ctx) };
    },
  );

  app.put(
    '/api/v1/me/password/',
    {
      // Each try verifies a password: keep guessing with a stolen access token slow.
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['users', 'auth'],
        summary: 'Change your password',
        description:
          'The current password must verify (400 {current_password: [...]}; five wrong in 15 minutes, counted with other re-authentications: 429) and the new one must differ and meet the password rule. ' +
          'Every other session of the user ends (their refresh tokens answer 401); this one stays signed in. A notice is e-mailed. Links with accounts of other organisations (Connection Hub) end, and both accounts are told.',
        security: [{ bearerAuth: [] }],
        body: ChangePasswordBodySchema,
        response: { 200: MessageAnswerSchema, ...withFieldErrors },
      },
    },
    async (request) => {
      await app.users.changePassword(request.signedIn(), request.body);
      return { detail: request.t('errors:passwordChanged') };
    },
  );

  app.post(
    '/api/v1/me/email/',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['users', 'auth'],
        summary: 'Change your sign-in e-mail address',
        description:
          'Needs `password` (or `code`, as for second factors). A link valid for 60 minutes goes to the new address; the address changes when it is opened (POST /api/v1/users/confirm_email_change/), and the old address gets a notice. ' +
          'The answer is the same 202 whether or not the new address already has an account (its owner is told by mail instead).',
        security: [{ bearerAuth: [] }],
        body: ChangeEmailBodySchema,
        response: { 202: MessageAnswerSchema, ...withFieldErrors },
      },
    },
    async (request, reply) => {
      await app.users.requestEmailChange(request.signedIn(), request.body);
      return reply.code(202).send({ detail: request.t('errors:emailChangeSent', { email: request.body.email }) });
    },
  );

  app.get(
    '/api/v1/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'One user: yourself, a member of your organisation (organisation admin) or anyone (super admin)',
        description:
          'An organisation admin may read the members of their organisation who are not administrators themselves. Anyone else answers 404, whether or not the user exists. Reading someone else’s record, and every refusal, is audited.',
        security: [{ bearerAuth: [] }],
        params: UserIdParamsSchema,
        response: { 200: UserDtoSchema, 400: FieldErrorsSchema, ...errors },
      },
    },
    async (request) => presentUser(await app.users.findFor(request.signedIn(), request.params.id, 'read'), request.lang),
  );

  app.put(
    '/api/v1/users/:id',
    {
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
      const ctx = request.signedIn();
      const target = await app.users.findFor(ctx, request.params.id, 'update');
      return presentUser(await app.users.update(ctx, target, request.body), request.lang);
    },
  );

  // Uploads: multipart bodies are parsed only by the routes of this encapsulated plugin.
  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
    });

    uploads.post(
      '/api/v1/users/avatar/',
      {
        schema: {
          tags: ['users'],
          summary: 'Upload your avatar',
          description:
            'multipart/form-data with one file in the field "file": a PNG, JPEG, GIF or WebP image (checked by its content, not its declared type), at most 5 MB. ' +
            'Replaces the previous avatar. Answers the user; profile_picture is the new address.',
          consumes: ['multipart/form-data'],
          security: [{ bearerAuth: [] }],
          response: { 200: UserDtoSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), 413: FieldErrorsSchema, ...errors },
        },
      },
      async (request) => {
        const file = await readSingleFile(request);
        return presentUser(await app.users.setAvatar(request.signedIn(), file.data, file.mimetype), request.lang);
      },
    );
  });

  app.delete(
    '/api/v1/users/avatar/',
    {
      schema: {
        tags: ['users'],
        summary: 'Remove your avatar',
        description: 'Answers the user with profile_picture null (the web app shows initials).',
        security: [{ bearerAuth: [] }],
        response: { 200: UserDtoSchema, ...errors },
      },
    },
    async (request) => presentUser(await app.users.removeAvatar(request.signedIn()), request.lang),
  );
};

/** What needs no sign-in: avatar files (the address is the capability) and the e-mail change link. */
export const publicUserRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  app.get(
    '/api/v1/users/avatar/:key',
    {
      schema: {
        tags: ['users'],
        summary: 'An avatar image, by the address in profile_picture',
        description:
          'No Authorization header needed (an <img> cannot send one): the file name carries 144 random bits and changes on every upload, ' +
          'so only those given the address can load it. A replaced or removed avatar answers 404.',
        params: AvatarKeyParamsSchema,
        response: { 200: z.any().describe('the image'), 400: FieldErrorsSchema, 404: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      const avatar = await app.users.readAvatar(request.params.key);
      if (!avatar) throw notFound();
      return reply
        .type(avatar.contentType)
        .header('Cache-Control', 'private, max-age=86400')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cross-Origin-Resource-Policy', 'same-origin')
        .send(avatar.data);
    },
  );

  app.post(
    '/api/v1/users/confirm_email_change/',
    {
      config: { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['users'],
        summary: "Confirm a new sign-in address with the link's uid and token",
        description: 'No sign-in needed (the link is the proof). Single use, 60 minutes; an unknown, expired or used link answers 400 {detail}. The old address gets a notice.',
        body: ConfirmEmailBodySchema,
        response: { 200: MessageAnswerSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), 429: DetailErrorSchema },
      },
    },
    async (request) => {
      const email = await app.users.confirmEmailChange(request.ctx, request.body);
      return { detail: request.t('errors:emailChanged', { email }) };
    },
  );
};
