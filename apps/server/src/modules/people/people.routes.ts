import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatePatientImportQuerySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  InviteStaffBodySchema,
  ListPeopleQuerySchema,
  PATIENT_IMPORT_MAX_BYTES,
  PatientImportParamsSchema,
  PatientImportQuerySchema,
  PatientImportSchema,
  PeoplePageSchema,
  PersonParamsSchema,
  PersonSchema,
  ResetMfaBodySchema,
  SetRolesBodySchema,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Person } from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };
const tags = ['people'];
const security = [{ bearerAuth: [] }];
const who = 'For organisation admins (their organisation) and super admins (any). Another organisation’s person: 404; anyone else: 403. Audited.';

/** The people of an organisation: the administrator's home (`addUser/home`). */
export const peopleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/people/',
    {
      schema: {
        tags,
        summary: "The organisation's accounts and pending patient invitations, searched and paged",
        description: `${who} Statuses: invited, active, locked (sign-in), mfa (a second factor on), deactivated.`,
        security,
        querystring: ListPeopleQuerySchema,
        response: { 200: PeoplePageSchema, ...errors },
      },
    },
    async (request) => app.people.list(request.signedIn(), request.query),
  );

  app.post(
    '/api/v1/admin/people/staff/',
    {
      schema: {
        tags,
        summary: 'Invite staff: an organisation admin, a provider (with the profile telehealth shows) or a peer coach',
        description: `${who} The invitee chooses a password with an e-mailed single-use link (24 hours). 400 {email} when the address has an account there.`,
        security,
        body: InviteStaffBodySchema,
        response: { 201: PersonSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.people.inviteStaff(request.signedIn(), request.body)),
  );

  app.put(
    '/api/v1/admin/people/:id/roles/',
    {
      schema: {
        tags,
        summary: "Set an account's roles",
        description: `${who} Not your own (403); super admin only by a super admin (403); the last active organisation admin keeps the role (409). A provider who loses the role: future bookings cancelled, both sides e-mailed.`,
        security,
        params: PersonParamsSchema,
        body: SetRolesBodySchema,
        response: { 200: PersonSchema, ...errors },
      },
    },
    async (request) => app.people.setRoles(request.signedIn(), request.params.id, request.body),
  );

  const action = (path: string, summary: string, run: (ctx: SignedInContext, id: number) => Promise<Person>) =>
    app.post(
      `/api/v1/admin/people/:id/${path}/`,
      { schema: { tags, summary, description: who, security, params: PersonParamsSchema, response: { 200: PersonSchema, ...errors } } },
      async (request) => run(request.signedIn(), request.params.id),
    );
  action('deactivate', 'Deactivate an account: it cannot sign in, its sessions and chat sockets end at once (409 for the last active organisation admin)', (ctx, id) => app.people.deactivate(ctx, id));
  action('reactivate', 'Reactivate a deactivated account', (ctx, id) => app.people.reactivate(ctx, id));
  action('unlock', 'Lift the lock that failed sign-ins put on an account', (ctx, id) => app.people.unlock(ctx, id));
  action('resend-invitation', 'Send an invited staff member a new set-password link', (ctx, id) => app.people.resendStaff(ctx, id));

  app.post(
    '/api/v1/admin/people/:id/reset-mfa/',
    {
      schema: {
        tags,
        summary: 'Reset a lost second factor (a reason is required; the person is e-mailed)',
        description: who,
        security,
        params: PersonParamsSchema,
        body: ResetMfaBodySchema,
        response: { 200: PersonSchema, ...errors },
      },
    },
    async (request) => app.people.resetMfa(request.signedIn(), request.params.id, request.body),
  );

  app.post(
    '/api/v1/admin/people/invitations/:id/resend/',
    {
      schema: {
        tags,
        summary: "Send a patient's pending invitation again, with a new access code",
        description: who,
        security,
        params: PersonParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.people.resendPatientInvitation(request.signedIn(), request.params.id);
      return reply.code(204).send(null);
    },
  );

  // The CSV file comes as the body itself (text/csv), up to PATIENT_IMPORT_MAX_BYTES.
  app.addContentTypeParser(['text/csv', 'application/csv', 'text/plain'], { parseAs: 'string', bodyLimit: PATIENT_IMPORT_MAX_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/api/v1/admin/patient-imports/',
    {
      bodyLimit: PATIENT_IMPORT_MAX_BYTES,
      schema: {
        tags,
        summary: 'Upload a CSV of patients: a preview with each row’s problems (nothing is sent yet)',
        description: `${who} Body: the file as text/csv (UTF-8), with a header naming first_name, last_name, dob, gender, email, language. Answers the import with its rows that have problems.`,
        security,
        querystring: CreatePatientImportQuerySchema,
        body: z.string().optional(),
        response: { 201: PatientImportSchema, ...errors, 413: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      return reply.code(201).send(await app.patientImports.create(request.signedIn(), request.query.org_id, request.query.file_name, body));
    },
  );

  app.get(
    '/api/v1/admin/patient-imports/:id/',
    {
      schema: { tags, summary: 'An import: its progress and its rows (problems=1: only those with problems)', description: who, security, params: PatientImportParamsSchema, querystring: PatientImportQuerySchema, response: { 200: PatientImportSchema, ...errors } },
    },
    async (request) => app.patientImports.get(request.signedIn(), request.params.id, request.query),
  );

  app.post(
    '/api/v1/admin/patient-imports/:id/send/',
    {
      schema: { tags, summary: 'Send the invitations of the ready rows (by the job runner, not in the request)', description: `${who} 409 when already started or when no row is ready.`, security, params: PatientImportParamsSchema, response: { 202: PatientImportSchema, ...errors } },
    },
    async (request, reply) => reply.code(202).send(await app.patientImports.send(request.signedIn(), request.params.id)),
  );
};
