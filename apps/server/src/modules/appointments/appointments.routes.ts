import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppointmentDetailListSchema,
  AppointmentDetailSchema,
  AppointmentListQuerySchema,
  AppointmentSlotParamsSchema,
  AvailabilityQuerySchema,
  BookAppointmentBodySchema,
  CalendarPatientQuerySchema,
  CancelAppointmentBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  ProviderAvailabilitySchema,
  ProviderIdParamsSchema,
  ProviderListQuerySchema,
  ProviderListSchema,
  ProviderProfileBodySchema,
  ProviderSchema,
  ProviderScheduleBodySchema,
  ProviderScheduleSchema,
} from '@healthbook/shared';
import { z } from 'zod';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const conflict = { 409: DetailErrorSchema };
const tags = ['telehealth'];
const security = [{ bearerAuth: [] }];
/** Telehealth is the teleconsultation feature's: off for an organisation, its API answers 403. */
const config = { feature: 'teleconsultation' };

/** Providers, their availability, booking and cancelling, and the provider console. */
export const appointmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/provider/specialities/',
    { config, schema: { tags, security, summary: "The specialities of your organisation's providers", response: { 200: z.array(z.string()), ...errors } } },
    async (request) => app.providers.specialities(request.signedIn()),
  );

  app.get(
    '/api/v1/provider/list/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Your organisation's providers",
        description: 'speciality: exact, case-insensitive; date (with tz): only providers with a free slot that day. Each with its first free slot from now (next_available).',
        querystring: ProviderListQuerySchema,
        response: { 200: ProviderListSchema, ...errors },
      },
    },
    async (request) => app.providers.list(request.signedIn(), request.query),
  );

  app.get(
    '/api/v1/provider/:id/',
    { config, schema: { tags, security, summary: 'One provider', description: "Another organisation's provider, or a user who is not a provider: 404.", params: ProviderIdParamsSchema, response: { 200: ProviderSchema, ...errors } } },
    async (request) => app.providers.get(request.signedIn(), request.params.id),
  );

  app.get(
    '/api/v1/provider/:id/availability/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A provider's free slots",
        description: 'Days start..end (end included, at most 62) in the zone tz (default UTC); free slots from now on, by start. Each slot is an availability_det_id.',
        params: ProviderIdParamsSchema,
        querystring: AvailabilityQuerySchema,
        response: { 200: ProviderAvailabilitySchema, ...errors },
      },
    },
    async (request) => app.providers.availability(request.signedIn(), request.params.id, request.query),
  );

  app.post(
    '/api/v1/provider/book_appointment/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Book a free slot',
        description:
          'For `?patient=` (default: yourself), with write access. A slot is booked at most once: of simultaneous bookings exactly one succeeds, the others get 409. A past slot: 400; an unknown provider or slot (or another organisation\'s): 404. The patient and the provider get an e-mail with an .ics; reminders follow one day and one hour before.',
        querystring: CalendarPatientQuerySchema,
        body: BookAppointmentBodySchema,
        response: { 201: AppointmentDetailSchema, ...errors, ...conflict },
      },
    },
    async (request, reply) => reply.code(201).send(await app.appointments.book(request.signedIn(), request.body, request.query.patient)),
  );

  app.post(
    '/api/v1/provider/cancel_appointment/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Cancel an appointment (the specification)',
        description:
          'The patient side (is_cancel_from_provider false: whoever may write the patient\'s record) or the appointment\'s provider (true). Someone else\'s appointment: 404; already cancelled: 409; started already: 400. Both sides get an e-mail with the .ics cancellation; its reminders are dropped; the slot is free again.',
        body: CancelAppointmentBodySchema,
        response: { 200: AppointmentDetailSchema, ...errors, ...conflict },
      },
    },
    async (request) => app.appointments.cancel(request.signedIn(), request.body),
  );

  app.get(
    '/api/v1/appointments/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Your appointments (or those of `?patient=`)',
        description: 'Booked and cancelled, by start; optionally of days start..end in tz and of a status.',
        querystring: AppointmentListQuerySchema,
        response: { 200: AppointmentDetailListSchema, ...errors },
      },
    },
    async (request) => app.appointments.list(request.signedIn(), request.query),
  );

  app.get(
    '/api/v1/appointments/:availability_det_id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The appointment of a slot',
        description: "For its patient side and its provider; anyone else: 404. A slot booked again after a cancellation answers the booked appointment.",
        params: AppointmentSlotParamsSchema,
        response: { 200: AppointmentDetailSchema, ...errors },
      },
    },
    async (request) => app.appointments.bySlot(request.signedIn(), request.params.availability_det_id),
  );

  // The provider console (users with the provider role; anyone else: 403)
  app.get(
    '/api/v1/provider/me/schedule/',
    { config, schema: { tags, security, summary: 'Your published schedule (providers)', response: { 200: ProviderScheduleSchema, ...errors } } },
    async (request) => app.providers.schedule(request.signedIn()),
  );
  app.put(
    '/api/v1/provider/me/schedule/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Publish your schedule (providers)',
        description:
          'Weekly hours (ISO weekday, HH:MM in timezone; several ranges a day, not overlapping), exceptions by date (no hours: a day off; hours: they replace the weekly ones), slot length. The free slots from now to the horizon follow at once; booked slots stay booked.',
        body: ProviderScheduleBodySchema,
        response: { 200: ProviderScheduleSchema, ...errors },
      },
    },
    async (request) => app.providers.saveSchedule(request.signedIn(), request.body),
  );
  app.get(
    '/api/v1/provider/me/profile/',
    { config, schema: { tags, security, summary: 'Your provider profile (providers)', response: { 200: ProviderSchema, ...errors } } },
    async (request) => app.providers.profile(request.signedIn()),
  );
  app.put(
    '/api/v1/provider/me/profile/',
    { config, schema: { tags, security, summary: 'Change your provider profile (providers)', body: ProviderProfileBodySchema, response: { 200: ProviderSchema, ...errors } } },
    async (request) => app.providers.updateProfile(request.signedIn(), request.body),
  );
  app.get(
    '/api/v1/provider/me/appointments/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Your bookings and cancellations (providers)',
        description: 'By start; optionally of days start..end in tz and of a status. Audited: it shows patients\' names and reasons.',
        querystring: AppointmentListQuerySchema.omit({ patient: true }),
        response: { 200: AppointmentDetailListSchema, ...errors },
      },
    },
    async (request) => app.appointments.forProvider(request.signedIn(), request.query),
  );
};
