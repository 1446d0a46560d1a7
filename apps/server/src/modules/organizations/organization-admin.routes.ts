import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminOrganizationListSchema,
  AdminOrganizationSchema,
  CreateOrganizationBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  ORGANIZATION_ASSET_LIMITS,
  OrganizationAssetUploadParamsSchema,
  OrganizationIdParamsSchema,
  UpdateOrganizationBodySchema,
} from '@healthbook/shared';
import { FieldError } from '../../lib/http-errors';
import { readSingleFile, type UploadedFile } from '../../lib/multipart';

const tags = ['organizations'];
const security = [{ bearerAuth: [] }];
const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const WHO = 'Super admins only (anyone else 403). Audited; every server process sees the change at once (no restart).';

/**
 * The organisations themselves, for super admins (/api/v1/admin/organizations/): list with
 * people counted, create, change names, client id, colour and settings, logo and favicon,
 * deactivate and reactivate. The public branding routes keep their contract.
 */
export const organizationAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/organizations/',
    {
      schema: { tags, security, summary: 'Every organisation, with its users, patients and status (super admins)', description: WHO, response: { 200: AdminOrganizationListSchema, ...errors } },
    },
    async (request) => app.organizations.adminList(request.signedIn()),
  );

  app.post(
    '/api/v1/admin/organizations/',
    {
      schema: {
        tags,
        security,
        summary: 'Create an organisation (super admins)',
        description: `name is the client id: lower-case letters, digits and "-", 2 to 64 characters, unique, not a word the router uses (login, api, …). primary_color (#rrggbb) is refused when text on it would fail WCAG AA (4.5:1) in the light or the dark theme; the message says which and the ratio. ${WHO}`,
        body: CreateOrganizationBodySchema,
        response: { 201: AdminOrganizationSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.organizations.create(request.signedIn(), request.body)),
  );

  app.get(
    '/api/v1/admin/organizations/:id/',
    { schema: { tags, security, summary: 'One organisation (super admins)', description: WHO, params: OrganizationIdParamsSchema, response: { 200: AdminOrganizationSchema, ...errors } } },
    async (request) => app.organizations.adminGet(request.signedIn(), request.params.id),
  );

  app.patch(
    '/api/v1/admin/organizations/:id/',
    {
      schema: {
        tags,
        security,
        summary: "Change an organisation's names, client id, colour or settings (super admins)",
        description: `Each field sent is changed, the others kept; the fields of the answer that are not writable are accepted and ignored. Rules as for creation. ${WHO}`,
        params: OrganizationIdParamsSchema,
        body: UpdateOrganizationBodySchema,
        response: { 200: AdminOrganizationSchema, ...errors },
      },
    },
    async (request) => app.organizations.adminUpdate(request.signedIn(), request.params.id, request.body),
  );

  for (const active of [false, true]) {
    app.post(
      `/api/v1/admin/organizations/:id/${active ? 'reactivate' : 'deactivate'}/`,
      {
        schema: {
          tags,
          security,
          summary: active ? 'Reactivate an organisation (super admins)' : 'Deactivate an organisation (super admins)',
          description: active
            ? `Its members can sign in again and its share links work again. ${WHO}`
            : `Its members cannot sign in (403 with a message saying so), every session of theirs ends at once, its share links answer as unavailable; its data is kept. Your own organisation cannot be deactivated (409). ${WHO}`,
          params: OrganizationIdParamsSchema,
          response: { 200: AdminOrganizationSchema, 409: DetailErrorSchema, ...errors },
        },
      },
      async (request) => app.organizations.setActive(request.signedIn(), request.params.id, active),
    );
  }

  app.delete(
    '/api/v1/admin/organizations/:id/:asset/',
    {
      schema: { tags, security, summary: "Remove an organisation's logo or favicon (super admins)", description: WHO, params: OrganizationAssetUploadParamsSchema, response: { 200: AdminOrganizationSchema, ...errors } },
    },
    async (request) => app.organizations.removeAsset(request.signedIn(), request.params.id, request.params.asset),
  );

  // Uploads: multipart bodies are parsed only by the routes of this encapsulated plugin.
  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: ORGANIZATION_ASSET_LIMITS.logo.maxBytes, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 50 },
    });
    uploads.withTypeProvider<ZodTypeProvider>().put(
      '/api/v1/admin/organizations/:id/:asset/',
      {
        schema: {
          tags,
          security,
          summary: "Upload an organisation's logo or favicon (super admins)",
          description:
            `multipart/form-data with one file in the field "file": PNG, JPEG or WebP (told by its bytes; metadata stripped), or SVG when the sanitiser finds nothing to remove (script, event handlers, foreignObject: refused). Logo at most ${ORGANIZATION_ASSET_LIMITS.logo.maxBytes / 1024} KB and ${ORGANIZATION_ASSET_LIMITS.logo.maxPixels} px a side, favicon at most ${ORGANIZATION_ASSET_LIMITS.favicon.maxBytes / 1024} KB and ${ORGANIZATION_ASSET_LIMITS.favicon.maxPixels} px. ` +
            `Refused under "file" with nothing written. ${WHO}`,
          consumes: ['multipart/form-data'],
          params: OrganizationAssetUploadParamsSchema,
          response: { 200: AdminOrganizationSchema, 413: FieldErrorsSchema, ...errors },
        },
      },
      async (request) => {
        const ctx = request.signedIn();
        let file: UploadedFile;
        try {
          file = await readSingleFile(request);
        } catch (err) {
          // Past the stream's limit: the logo's bound, said in the organisation's terms.
          if (err instanceof FieldError && err.statusCode === 413) {
            const max = Math.round(ORGANIZATION_ASSET_LIMITS[request.params.asset].maxBytes / 1024);
            throw new FieldError({ file: [{ key: 'validation:assetTooLarge', vars: { max } }] }, 413);
          }
          throw err;
        }
        return app.organizations.setAsset(ctx, request.params.id, request.params.asset, file.data);
      },
    );
  });
};
