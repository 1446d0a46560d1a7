import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateInvitationBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  InvitationListSchema,
  InvitationSchema,
  ListInvitationsQuerySchema,
} from '@healthbook/shared';
import { BackgroundMail } from '../recovery/background-mail';
import { presentInvitation } from './invitations.presenter';
import { InvitationsService } from './invitations.service';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema };

/** Administrators invite patients into their organisation (super admins: into any). */
const invitationsRoutes: FastifyPluginAsyncZod<{ publicUrl: string }> = async (app, opts) => {
  const background = new BackgroundMail(app.mailer, app.log);
  app.addHook('onClose', () => background.drain());
  const service = new InvitationsService({ db: app.db, mailer: app.mailer, audit: app.audit, publicUrl: opts.publicUrl, background });

  app.post(
    '/api/v1/admin/invitations/',
    {
      preHandler: app.requireAuth(),
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
      const org = await service.orgForAdmin(request, request.body.org_id, 'create');
      const { invitation, code } = await service.create(request, org, request.body, {
        createdBy: request.auth!.userId,
        lang: request.lang,
        via: 'api',
      });
      return reply.code(201).send(presentInvitation(invitation, request.lang, code));
    },
  );

  app.get(
    '/api/v1/admin/invitations/',
    {
      preHandler: app.requireAuth(),
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
      const org = await service.orgForAdmin(request, request.query.org_id, 'list');
      return (await service.list(org)).map((row) => presentInvitation(row, request.lang));
    },
  );
};

export default invitationsRoutes;
