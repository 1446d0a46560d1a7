import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccessLogPageSchema,
  AccessLogQuerySchema,
  CareAcceptedSchema,
  CareInvitationPreviewSchema,
  CareMemberListSchema,
  CareMemberParamsSchema,
  CareMemberSchema,
  CareSignupCodeBodySchema,
  CareSignupCodeSchema,
  CareTokenBodySchema,
  CaringForListSchema,
  CARE_INVITATION_DAYS,
  CARE_NETWORK_MAX,
  DetailErrorSchema,
  FieldErrorsSchema,
  IdParamSchema,
  InviteCareMemberBodySchema,
  UpdateCareMemberBodySchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };
const tags = ['care network'];
const security = [{ bearerAuth: [] }];
/** The care network is the careclub feature's (CareClub+): off for an organisation, its API answers 403. */
const config = { feature: 'careclub' };
const OWNER = 'Your own record only (not one you are viewing for someone else): anyone else 403 `careOwnerOnly`.';

/** The patient's network, and the invited or caring person's side (authenticated context). */
export const careNetworkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/care-network/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The people in your care network',
        description: `Pending (also expired: not accepted in time) and active, oldest first; removed and declined people are not listed. kind dependant: the person manages this record since they added it as a family member. ${OWNER}`,
        response: { 200: CareMemberListSchema, ...errors },
      },
    },
    async (request) => app.careNetwork.list(request.signedIn()),
  );

  app.post(
    '/api/v1/care-network/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Invite a person into your record',
        description: `By name and e-mail, with full or read-only access, optionally limited to some record categories (default: all; private records are never shown to anyone in the network). The invitation is e-mailed in your language with a link whose fragment (#token=…) carries a single-use token (kept hashed), valid ${CARE_INVITATION_DAYS} days. Refused with a field error: your own address (careSelf), an address already pending or active in your network (careAlreadyInvited, also under parallel requests). At most ${CARE_NETWORK_MAX} people pending or active (409). ${OWNER}`,
        body: InviteCareMemberBodySchema,
        response: { 201: CareMemberSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.careNetwork.invite(request.signedIn(), request.body)),
  );

  app.get(
    '/api/v1/care-network/caring-for/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The records you were let into',
        description: 'Active grants where you are the caring person: whose record, with what access and categories, since when. Open one with the X-Patient-Id header (or ?patient=).',
        response: { 200: CaringForListSchema, ...errors },
      },
    },
    async (request) => app.careNetwork.caringFor(request.signedIn()),
  );

  app.delete(
    '/api/v1/care-network/caring-for/:patientId/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Leave a record you were let into',
        description:
          'Your access ends at once and the patient is told by e-mail. Not a record you do not care for (404); not a family member you manage who has no account of their own (409 `careManagerOfDependant`).',
        params: z.object({ patientId: IdParamSchema }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.careNetwork.leave(request.signedIn(), request.params.patientId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/care-network/access-log/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Who saw my record',
        description: `Every access to your record's data by anyone but you, newest first, 50 lines a page (page); events alike on one day (same person or share, action and part of the record) are one line with their count, days in the reader's zone (tz): people of your care network (their names), share recipients (how you named them) and others (providers of your appointments and chats). action is the audited action (record_read, document_read, appointment_book, chat_queued, share_read…), text says it as a sentence and detail says what, in the request's language; refused attempts show as denied. ${OWNER}`,
        querystring: AccessLogQuerySchema,
        response: { 200: AccessLogPageSchema, ...errors },
      },
    },
    async (request) => app.careNetwork.accessLog(request.signedIn(), request.query.page, request.query.tz),
  );

  app.patch(
    '/api/v1/care-network/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Change a person's access or categories",
        description: `access and/or categories (null: the whole record). Pending or active people; effective at once, also for pages they have open (every request reads the grant). ${OWNER}`,
        params: CareMemberParamsSchema,
        body: UpdateCareMemberBodySchema,
        response: { 200: CareMemberSchema, ...errors },
      },
    },
    async (request) => app.careNetwork.update(request.signedIn(), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/care-network/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Remove a person from your care network (or withdraw an invitation)',
        description: `Effective at once: their next request to your record is 404. When they had accepted, you and they are told by e-mail. ${OWNER}`,
        params: CareMemberParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.careNetwork.remove(request.signedIn(), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/care-network/:id/resend/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Send an invitation again',
        description: `A new link (the old one stops working) valid ${CARE_INVITATION_DAYS} more days, e-mailed again. Pending or expired invitations only (409 otherwise); 3 an hour per invitation (then 429). ${OWNER}`,
        params: CareMemberParamsSchema,
        response: { 200: CareMemberSchema, 429: DetailErrorSchema, ...errors },
      },
    },
    async (request) => app.careNetwork.resend(request.signedIn(), request.params.id),
  );

  app.post(
    '/api/v1/care-network/invitations/accept/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Accept an invitation into someone’s record',
        description:
          'The token from the e-mail link’s fragment, signed in with the account of the address it was sent to. Single use. Refusals change nothing and are audited: unknown, used, withdrawn, declined or another organisation’s 404 `careInvitationNotFound`; expired 410 `careInvitationExpired`; another account 403 `careInvitationOtherAccount`; your own record 400; already in that record 409. The patient is told by e-mail.',
        body: CareTokenBodySchema,
        response: { 200: CareAcceptedSchema, 410: DetailErrorSchema, ...errors },
      },
    },
    async (request) => app.careNetwork.accept(request.signedIn(), request.body.token),
  );

  app.post(
    '/api/v1/care-network/invitations/decline/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Decline an invitation',
        description: 'The invited account (as for accepting; an expired invitation may be declined too). The invitation ends.',
        body: CareTokenBodySchema,
        response: { 204: z.null(), 410: DetailErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      await app.careNetwork.decline(request.signedIn(), request.body.token);
      return reply.code(204).send(null);
    },
  );
};

const publicErrors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema, 410: DetailErrorSchema, 429: DetailErrorSchema };

/** The invited person's first steps, before signing in (public: the token is the proof), rate limited per client address. */
export const careNetworkPublicRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  const rateLimit = { max: opts.perIpLimit, timeWindow: '1 minute' };
  app.post(
    '/api/v1/care-network/invitations/preview/',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'What an invitation offers (before accepting)',
        description:
          'Whose record, who invites, the organisation, the invited address, the access and categories, whether the address has an account (then sign in; else join through sign-up). An unknown, used, withdrawn or declined token, or an organisation whose care network is off: 404.',
        body: CareTokenBodySchema,
        response: { 200: CareInvitationPreviewSchema, ...publicErrors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return app.careNetwork.preview(request.body.token);
    },
  );

  app.post(
    '/api/v1/care-network/invitations/signup-code/',
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'A sign-up access code for an invited person without an account',
        description:
          'For a pending invitation whose address has no account in the organisation (409 otherwise; 410 expired): an ordinary sign-up invitation for that address with these names, date of birth and sex, answered once (then POST /api/v1/users/validate/ and register as usual, with the invited address). 5 an hour per invitation (then 429).',
        body: CareSignupCodeBodySchema,
        response: { 200: CareSignupCodeSchema, ...publicErrors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return app.careNetwork.signupCode(request.ctx, request.body);
    },
  );
};
