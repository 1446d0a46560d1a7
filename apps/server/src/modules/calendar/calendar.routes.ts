import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CalendarEventBodySchema,
  CalendarEventSchema,
  CalendarFeedSchema,
  CalendarFeedTokenParamsSchema,
  CalendarItemListSchema,
  CalendarPatientQuerySchema,
  CalendarWindowQuerySchema,
  DetailErrorSchema,
  EventIdParamsSchema,
  FieldErrorsSchema,
} from '@healthbook/shared';
import { z } from 'zod';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const tags = ['calendar'];
const security = [{ bearerAuth: [] }];
/** The calendar's API is the calendar feature's: off for an organisation, it answers 403. */
const config = { feature: 'calendar' };
const WHOSE = 'Acts on `?patient=` (default: your own); a calendar you may not open, or an event not there, is 404 alike.';

/** A patient's events and appointments, and the user's private calendar feed. */
export const calendarRoutes: FastifyPluginAsyncZod<{ publicUrl: string }> = async (app, opts) => {
  app.get(
    '/api/v1/calendar/events/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Events and appointments of a window of days',
        description: `Days start..end (end included, at most 366) in the zone tz (default UTC). A recurring event appears once per occurrence (same event_id), expanded in its own time zone; booked appointments appear with kind "appointment", colour blue and their availability_det_id as event_id. ${WHOSE}`,
        querystring: CalendarWindowQuerySchema,
        response: { 200: CalendarItemListSchema, ...errors },
      },
    },
    async (request) => app.calendar.window(request.signedIn(), request.query),
  );

  app.post(
    '/api/v1/calendar/events/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Add an event',
        description: `The colour follows the type (the specification's table); a colour given must be the type's. recurrence: an RRULE; the event's start is the first occurrence. reminder_minutes: an e-mail that many minutes before each occurrence. ${WHOSE}`,
        querystring: CalendarPatientQuerySchema,
        body: CalendarEventBodySchema,
        response: { 201: CalendarEventSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.calendar.create(request.signedIn(), request.body, request.query.patient)),
  );

  app.get(
    '/api/v1/calendar/events/:event_id/',
    {
      config,
      schema: { tags, security, summary: 'One event', description: WHOSE, params: EventIdParamsSchema, querystring: CalendarPatientQuerySchema, response: { 200: CalendarEventSchema, ...errors } },
    },
    async (request) => app.calendar.get(request.signedIn(), request.params.event_id, request.query.patient),
  );

  app.put(
    '/api/v1/calendar/events/:event_id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Replace a one-off event',
        description: `A recurring event cannot be edited (400): delete the series and add a new one. Its reminders are made again. ${WHOSE}`,
        params: EventIdParamsSchema,
        querystring: CalendarPatientQuerySchema,
        body: CalendarEventBodySchema,
        response: { 200: CalendarEventSchema, ...errors },
      },
    },
    async (request) => app.calendar.update(request.signedIn(), request.params.event_id, request.body, request.query.patient),
  );

  app.delete(
    '/api/v1/calendar/events/:event_id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Delete an event (a recurring one: the whole series)',
        description: `Reminders not sent yet are dropped. ${WHOSE}`,
        params: EventIdParamsSchema,
        querystring: CalendarPatientQuerySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.calendar.remove(request.signedIn(), request.params.event_id, request.query.patient);
      return reply.code(204).send(null);
    },
  );

  const feedDescription =
    'A private address (webcal://) for calendar apps: your calendar (events and appointments) as iCalendar. The address holds a 256-bit token kept only as a hash, so it is shown once, when made; making it again replaces the old one, which stops working.';
  app.get(
    '/api/v1/calendar/feed/',
    { config, schema: { tags, security, summary: 'Your calendar feed: on or off', description: feedDescription, response: { 200: CalendarFeedSchema, ...errors } } },
    async (request) => app.calendarFeed.status(request.signedIn()),
  );
  app.post(
    '/api/v1/calendar/feed/',
    { config, schema: { tags, security, summary: 'Make (or reset) your calendar feed address', description: feedDescription, response: { 201: CalendarFeedSchema, ...errors } } },
    async (request, reply) => reply.code(201).send(await app.calendarFeed.create(request.signedIn(), opts.publicUrl)),
  );
  app.delete(
    '/api/v1/calendar/feed/',
    { config, schema: { tags, security, summary: 'Turn your calendar feed off', response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await app.calendarFeed.remove(request.signedIn());
      return reply.code(204).send(null);
    },
  );
};

/** The calendar feed as calendar apps fetch it: the address is its own proof (public context), rate limited per address. */
export const calendarFeedRoutes: FastifyPluginAsyncZod<{ publicUrl: string; perIpLimit: number }> = async (app, opts) => {
  const host = new URL(opts.publicUrl).hostname;
  app.get(
    '/api/v1/calendar/feed/:token',
    {
      config: { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'A calendar feed (iCalendar), by its private address',
        description: 'text/calendar. A token not live (never made, reset, turned off, or its user deactivated): 404. Each opening is audited.',
        params: CalendarFeedTokenParamsSchema,
        response: { 200: z.string().describe('text/calendar'), 404: DetailErrorSchema, 400: FieldErrorsSchema, 429: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      const body = await app.calendarFeed.render(request.ctx, request.params.token, host);
      return reply.type('text/calendar; charset=utf-8').header('Cache-Control', 'private, max-age=300').header('Content-Disposition', 'inline; filename="calendar.ics"').send(body);
    },
  );
};
