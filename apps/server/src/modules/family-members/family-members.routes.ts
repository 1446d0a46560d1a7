import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateFamilyMemberBodySchema,
  DetailErrorSchema,
  FamilyMemberListSchema,
  FamilyMemberParamsSchema,
  FamilyMemberSchema,
  FieldErrorsSchema,
  InviteFamilyMemberBodySchema,
  UpdateFamilyMemberBodySchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };
const tags = ['family-members'];
const security = [{ bearerAuth: [] }];
/** Family members live under CareClub+: with the feature off for the organisation, 403. */
const config = { feature: 'careclub' };
const WHOSE =
  'Always the signed-in user’s own family members, whatever record the client is viewing (X-Patient-Id). Another user’s family member, or another organisation’s patient: 404. Once a family member has an account of their own the record is theirs: changing, removing or inviting them answers 409.';

/** Family members (issue 13, item 2): people without an account whose records you manage. */
export const familyMembersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/family-members/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The family members you manage, oldest first',
        description: `Each with has_account, and the invitation to an account of their own while unused (invited). Open a family member's record with ?patient= or the X-Patient-Id header on any record route. ${WHOSE}`,
        response: { 200: FamilyMemberListSchema, ...errors },
      },
    },
    async (request) => app.familyMembers.list(request.signedIn()),
  );

  app.post(
    '/api/v1/family-members/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Add a family member (a record of their own that you manage with full access)',
        description:
          'Names, a date of birth (YYYY-MM-DD or MM/DD/YYYY, not in the future), sex (male, female, other, undisclosed) and who they are to you (child, parent, spouse, sibling, other). At most 20 per user (400). The patient and your access to it are made in one transaction.',
        body: CreateFamilyMemberBodySchema,
        response: { 201: FamilyMemberSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.familyMembers.create(request.signedIn(), request.body)),
  );

  app.patch(
    '/api/v1/family-members/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Change a family member's names, date of birth, sex or relationship",
        description: `Only the fields given change; at least one. ${WHOSE}`,
        params: FamilyMemberParamsSchema,
        body: UpdateFamilyMemberBodySchema,
        response: { 200: FamilyMemberSchema, ...errors },
      },
    },
    async (request) => app.familyMembers.update(request.signedIn(), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/family-members/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Remove a family member and all their data',
        description: `Their records, documents (and files), calendar, appointments, journal, insurance cards, shares and chats go with them; this cannot be undone. ${WHOSE}`,
        params: FamilyMemberParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.familyMembers.remove(request.signedIn(), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/family-members/:id/invite/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Give a family member an account of their own',
        description: `E-mails an ordinary sign-up access code (valid 30 days, single use) for their names, date of birth and sex to the address given; signing up with it makes the record theirs, and your access becomes a care-network grant they control. A new invitation replaces an unused earlier one. 400 {email} when the address already has an account in the organisation; at most 5 invitations an hour (429). ${WHOSE}`,
        params: FamilyMemberParamsSchema,
        body: InviteFamilyMemberBodySchema,
        response: { 200: FamilyMemberSchema, ...errors, 429: DetailErrorSchema },
      },
    },
    async (request) => app.familyMembers.invite(request.signedIn(), request.params.id, request.body),
  );
};
