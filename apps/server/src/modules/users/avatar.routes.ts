import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AVATAR_MAX_BYTES, AvatarKeyParamsSchema, DetailErrorSchema, FieldErrorsSchema, UserDtoSchema } from '@healthbook/shared';
import { FieldError, notFound } from '../../lib/http-errors';
import { presentUser } from './users.presenter';
import type { UsersService } from './users.service';

const errors = { 401: DetailErrorSchema, 403: DetailErrorSchema };

/**
 * The avatar: upload (multipart, only here: the rest of the API takes JSON up to 1 MB), remove,
 * and serve by its unguessable file name.
 */
const avatarRoutes: FastifyPluginAsyncZod<{ service: UsersService }> = async (app, { service }) => {
  // Encapsulated: multipart bodies are parsed only by the routes of this plugin.
  await app.register(multipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
  });

  const tooLarge = () => new FieldError({ file: ['validation:imageTooLarge'] }, 413);
  const required = () => new FieldError({ file: ['validation:imageRequired'] });

  app.post(
    '/api/v1/users/avatar/',
    {
      preHandler: app.requireAuth(),
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
      if (!request.isMultipart()) throw required();
      let data: Buffer;
      let mimetype: string;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== 'file') throw required();
        mimetype = part.mimetype;
        data = await part.toBuffer();
      } catch (err) {
        if (err instanceof app.multipartErrors.RequestFileTooLargeError) throw tooLarge();
        if (err instanceof app.multipartErrors.FilesLimitError || err instanceof app.multipartErrors.PartsLimitError) throw required();
        if (err instanceof app.multipartErrors.FieldsLimitError) throw required();
        throw err;
      }
      if (data.length === 0) throw required();
      return presentUser(await service.setAvatar(request, data, mimetype), request.lang);
    },
  );

  app.delete(
    '/api/v1/users/avatar/',
    {
      preHandler: app.requireAuth(),
      schema: {
        tags: ['users'],
        summary: 'Remove your avatar',
        description: 'Answers the user with profile_picture null (the web app shows initials).',
        security: [{ bearerAuth: [] }],
        response: { 200: UserDtoSchema, ...errors },
      },
    },
    async (request) => presentUser(await service.removeAvatar(request), request.lang),
  );

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
      const avatar = await service.readAvatar(request.params.key);
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
};

export default avatarRoutes;
