import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateInvitationBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  InvitationListSchema,
  InvitationSchema,
  ListInvitationsQuerySchema,
} from '@healthbook/shared';
import { presentInvitation } from './invitations.presenter';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema };

/** Administrators invite patients into their organisation (super admins: into any). */
export const invitationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/admin/invitations/',
    {
      schema: {
        tags: ['invitations'],
        summary: 'Invite a person: e-mails an access code valid for 30 days',
        description:
          'For administrators of the organisation (roles include org_admin) and super admins, who may name any organisation with org_id (id or client id). The answer carries signup_code: the only time the code is shown (only its hash is kept). 400 {email} when the address already has an account there.',
        security: [{ bearerAuth: [] }],
        body: CreateInvitationBodySchema,
        response: { 201: InvitationSchema, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = request.signedIn();
      const org = await app.invitations.orgForAdmin(ctx, request.body.org_id, 'create');
      const { invitation, code } = await app.invitations.create(ctx, org, request.body, {
        createdBy: ctx.actor.userId,
        lang: request.lang,
        via: 'api',
      });
      return reply.code(201).send(presentInvitation(invitation, request.lang, code));
    },
  );

  app.get(
    '/api/v1/admin/invitations/',
    {
      schema: {
        tags: ['invitations'],
        summary: "The organisation's invitations, newest first (no codes)",
        description: 'Own organisation by default; a super admin may name another with ?org_id= (id or client id).',
        security: [{ bearerAuth: [] }],
        querystring: ListInvitationsQuerySchema,
        response: { 200: InvitationListSchema, ...errors },
      },
    },
    async (request) => {
      const org = await app.invitations.orgForAdmin(request.signedIn(), request.query.org_id, 'list');
      return (await app.invitations.list(org)).map((row) => presentInvitation(row, request.lang));
    },
  );
};

