import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppointmentSlotParamsSchema,
  ChatTicketSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  VISIT_NOTE_DAYS,
  VISIT_NOTE_NONE,
  VisitNoteBodySchema,
  VisitSchema,
  categoryDefinition,
  recordAnswerSchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };
const tags = ['telehealth'];
const security = [{ bearerAuth: [] }];
/** Telehealth is the teleconsultation feature's: off for an organisation, its API answers 403. */
const config = { feature: 'teleconsultation' };
const WHO =
  "For the appointment's provider and its patient side (the patient, or a full-access carer acting for them; read-only: 403); anyone else: 404. A cancelled appointment: 409.";

/** The video visit of a telehealth appointment: its state, and the provider's start, extend and end (the patient side may end it too). */
export const visitsRoutes: FastifyPluginAsyncZod = async (app) => {
  const route = (method: 'GET' | 'POST', path: string, summary: string, description: string, handler: 'get' | 'start' | 'extend' | 'end') =>
    app.route({
      method,
      url: `/api/v1/appointments/:availability_det_id/visit/${path}`,
      config,
      schema: { tags, security, summary, description: `${WHO} ${description}`, params: AppointmentSlotParamsSchema, response: { 200: VisitSchema, ...errors } },
      handler: async (request) => app.visits[handler](request.signedIn(), request.params.availability_det_id),
    });

  route(
    'GET',
    '',
    'The video visit of an appointment',
    'Its window (10 minutes before the start to the end, or the extension), phase and state (none, waiting, active, ended, with its length); while open, the ICE servers (TURN credentials valid a few hours).',
    'get',
  );
  route('POST', 'start/', 'Start the video visit (the provider)', 'Admits the patient side. Only inside the window (409 with the time it opens, or closed); once: a second start changes nothing.', 'start');
  route('POST', 'extend/', 'Extend the video visit by 15 minutes (the provider)', 'From the end of its window, or from now once past it; at most two hours past the appointment’s end (409).', 'extend');
  app.post(
    '/api/v1/appointments/:availability_det_id/visit/ticket/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'A ticket for the video visit’s socket',
        description: `${WHO} Only while the visit may be joined (its window open, not ended; else 409 with the reason). Single use, valid 30 seconds: open wss://<host>/api/v1/visits/socket/?ticket=…&slot=… with it.`,
        params: AppointmentSlotParamsSchema,
        response: { 200: ChatTicketSchema, ...errors },
      },
    },
    async (request) => app.visits.ticket(request.signedIn(), request.params.availability_det_id),
  );
  route('POST', 'end/', 'End the video visit (either participant)', 'Once; an ended visit is answered as it is. 409 when it has not started.', 'end');

  // The visit's note: a medical visit in the patient's record, written by the appointment's provider.
  const note = '/api/v1/appointments/:availability_det_id/visit/note/';
  const MedicalVisit = recordAnswerSchema(categoryDefinition('medicalvisit')!);
  const NOTE_WHO =
    `For the appointment's provider only: the patient side is refused (403; a read-only carer 403 as for the visit), anyone else 404 as for the appointment. ` +
    `Once the visit has started (the patient admitted; else 409) and until ${VISIT_NOTE_DAYS} days after the appointment's end (409 after, with that time); a cancelled appointment 409.`;
  app.get(
    note,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The note of the video visit (the provider)',
        description: `${NOTE_WHO} The medical-visit record the note wrote in the patient's record, as GET /api/v1/hr/medicalvisit/{id}/ answers it. None written yet: 404 with \`code\` "${VISIT_NOTE_NONE}"; the patient has made it private: 409.`,
        params: AppointmentSlotParamsSchema,
        response: { 200: MedicalVisit, ...errors },
      },
    },
    async (request) => app.visits.note(request.signedIn(), request.params.availability_det_id),
  );
  app.post(
    note,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Write the note of the video visit (the provider)',
        description:
          `${NOTE_WHO} Writes the visit's note in the patient's record as a medical visit (GET /api/v1/hr/medicalvisit/), one record per visit: ` +
          'the first note makes it (201), a later one replaces what the provider writes in it (200; PUT semantics: reason, symptoms, findings, diagnosis, treatment and note as sent, those left out emptied). ' +
          "The fields are the medical-visit category's, with its limits (400 with the message under the field); `reason` defaults to the appointment's reason for visit. " +
          "`professional` is set to the provider's name and `date` to the visit's day (other fields sent are ignored). Notes sent at once make one record. " +
          "On the patient's trail (visit_note); the record's history names the provider. The patient has made it private: 409.",
        params: AppointmentSlotParamsSchema,
        body: VisitNoteBodySchema,
        response: { 200: MedicalVisit, 201: MedicalVisit, ...errors },
      },
    },
    async (request, reply) => {
      const { record, created } = await app.visits.writeNote(request.signedIn(), request.params.availability_det_id, request.body);
      return reply.code(created ? 201 : 200).send(record);
    },
  );
};
