import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendRevalidated } from '../../lib/serializer';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  OrganizationAssetParamsSchema,
  OrganizationListSchema,
  OrganizationLookupSchema,
  OrganizationNameParamsSchema,
  OrganizationDetailSchema,
  OrganizationIdParamsSchema,
  OrganizationSettingsBodySchema,
} from '@healthbook/shared';
import { z } from 'zod';
import { HttpError, notFound } from '../../lib/http-errors';
import { canManageOrganization } from '../features/features.policy';
import { presentOrganization } from './organizations.presenter';

export const organizationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/organization_detail_by_name/:name',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Branding of one organisation, by client id (case-insensitive)',
        description: `An unknown name answers 200 with "org": "Organization not found", as the original product did; the web app then shows its 404 page.`,
        params: OrganizationNameParamsSchema,
        response: { 200: OrganizationLookupSchema, 400: FieldErrorsSchema },
      },
    },
    async (request, reply) => sendRevalidated(request, reply as FastifyReply, await app.organizations.lookupJson(request.params.name)),
  );

  app.get(
    '/api/v1/organization_detail/',
    {
      schema: {
        tags: ['organizations'],
        summary: 'All organisations',
        response: { 200: OrganizationListSchema },
      },
    },
    async (request, reply) => sendRevalidated(request, reply as FastifyReply, JSON.stringify((await app.organizations.list()).map(presentOrganization))),
  );

  app.get(
    '/api/v1/organizations/:name/:asset',
    {
      schema: {
        tags: ['organizations'],
        summary: "An organisation's logo or favicon",
        params: OrganizationAssetParamsSchema,
        response: { 200: z.any().describe('the image'), 404: DetailErrorSchema, 400: FieldErrorsSchema },
      },
    },
    async (request, reply) => {
      const org = await app.organizations.findByName(request.params.name);
      const key = request.params.asset === 'logo' ? org?.logo_key : org?.favicon_key;
      const type = request.params.asset === 'logo' ? org?.logo_content_type : org?.favicon_content_type;
      if (!org || !key) throw notFound();
      const data = await app.storage.get(key);
      if (!data) throw notFound();
      return reply
        .type(type ?? 'application/octet-stream')
        .header('Cache-Control', 'public, max-age=86400')
        // An SVG opened directly must not run script.
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(data);
    },
  );
};


/** An organisation's settings, changed by its administrators (authenticated context). */
export const organizationSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/api/v1/organizations/:id/settings/',
    {
      schema: {
        tags: ['organizations'],
        summary: "Change an organisation's settings (administrators)",
        description:
          'Each field sent is changed, the others kept. video_channel_url: the external video channel the menu\'s Videos item opens (https only; null removes the item); emergency_number; crisis_lines (replaces the list); support_email and support_phone (the help area; null removes). Organisation admins for their organisation (another: 404), super admins for any; anyone else 403. Audited; every process sees it at once.',
        security: [{ bearerAuth: [] }],
        params: OrganizationIdParamsSchema,
        body: OrganizationSettingsBodySchema,
        response: { 200: OrganizationDetailSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema },
      },
    },
    async (request) => {
      const ctx = request.signedIn();
      const { id } = request.params;
      if (id !== ctx.actor.orgId && !ctx.actor.isSuperadmin) throw notFound();
      const org = await app.organizations.findById(id);
      if (!org) throw notFound();
      if (!canManageOrganization(ctx.actor, id)) throw new HttpError(403, 'errors:permissionDenied');
      return presentOrganization(await app.organizations.updateSettings(ctx, org, request.body));
    },
  );
};
