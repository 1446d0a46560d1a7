import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  OrganizationAssetParamsSchema,
  OrganizationListSchema,
  OrganizationLookupSchema,
  OrganizationNameParamsSchema,
} from '@healthbook/shared';
import { z } from 'zod';
import { notFound } from '../../lib/http-errors';
import { OrganizationsRepository } from './organizations.repository';
import { presentNotFound, presentOrganization } from './organizations.presenter';

const organizationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = new OrganizationsRepository(app.db);

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
    async (request, reply) => {
      const name = request.params.name.toLowerCase();
      const org = await repo.findByName(name);
      reply.header('Cache-Control', 'public, max-age=60');
      return org ? presentOrganization(org) : presentNotFound(name);
    },
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
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60');
      return (await repo.list()).map(presentOrganization);
    },
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
      const org = await repo.findByName(request.params.name);
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

export default organizationsRoutes;
