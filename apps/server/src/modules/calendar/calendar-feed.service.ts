import { translate, type CalendarFeed } from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { randomToken, sha256 } from '../../lib/crypto';
import { notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import { recipientLanguage } from '../../lib/mail-templates';
import { fullName, presentAppointmentDetail } from '../appointments/appointments.presenter';
import { PatientAppointmentsRepository } from '../appointments/appointments.repository';
import type { AuditLog } from '../audit/audit.service';
import { PatientsRepository } from '../patients/patients.repository';
import { CalendarRepository } from './calendar.repository';
import { CalendarFeedsRepository } from './calendar-feeds.repository';
import { presentEvent } from './calendar.service';
import { feedIcs } from './ics';
import { ownerScope } from '../patients/patient-scope';

/** The feed holds events and appointments from this long ago on (calendar apps keep what they saw). */
const FEED_PAST_DAYS = 90;

/**
 * A user's private calendar feed (webcal): a 256-bit token, stored as its SHA-256 only, opens
 * the user's own calendar as iCalendar. Making it again replaces the token; turning it off
 * removes it. Each opening is audited (the token's holder is not signed in).
 */
export class CalendarFeedService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  async status(ctx: SignedInContext): Promise<CalendarFeed> {
    const createdAt = await new CalendarFeedsRepository(this.db, orgScope(ctx.actor.orgId)).createdAt(ctx.actor.userId);
    return { active: !!createdAt, created_at: createdAt?.toISOString() ?? null, url: null };
  }

  async create(ctx: SignedInContext, publicUrl: string): Promise<CalendarFeed> {
    const token = randomToken(32);
    const createdAt = await new CalendarFeedsRepository(this.db, orgScope(ctx.actor.orgId)).put(ctx.actor.userId, sha256(token));
    await this.audit.record(ctx, { action: 'calendar_feed_create', outcome: 'success', subject: `user:${ctx.actor.userId}` });
    const url = new URL(`/api/v1/calendar/feed/${token}.ics`, publicUrl);
    return { active: true, created_at: createdAt.toISOString(), url: `webcal://${url.host}${url.pathname}` };
  }

  async remove(ctx: SignedInContext): Promise<void> {
    await new CalendarFeedsRepository(this.db, orgScope(ctx.actor.orgId)).remove(ctx.actor.userId);
    await this.audit.record(ctx, { action: 'calendar_feed_delete', outcome: 'success', subject: `user:${ctx.actor.userId}` });
  }

  /** The feed of a token (a file name "<token>.ics"), or 404 alike for anything not live. */
  async render(ctx: ServiceContext, fileName: string, host: string): Promise<string> {
    const token = fileName.replace(/\.ics$/, '');
    const owner = await CalendarFeedsRepository.ownerOf(this.db, sha256(token));
    if (!owner) throw notFound();
    const patient = await new PatientsRepository(this.db, orgScope(owner.org_id)).findByUser(owner.id);
    if (!patient) throw notFound();
    const lang = recipientLanguage(owner.settings, ctx.lang);
    const since = new Date(Date.now() - FEED_PAST_DAYS * 86_400_000);
    const far = new Date('9999-12-31T00:00:00Z');
    const scope = ownerScope(patient, 'calendar');
    const [events, appointments] = await Promise.all([
      new CalendarRepository(this.db, scope).inWindow(since, far),
      new PatientAppointmentsRepository(this.db, scope).list({ from: since, status: 'booked' }),
    ]);
    await this.audit.record(ctx, { action: 'calendar_feed_read', outcome: 'success', actorUserId: null, orgId: owner.org_id, subject: `patient:${patient.id}`, detail: { events: events.length, appointments: appointments.length } });
    return feedIcs({
      name: owner.org_name,
      host,
      events: events.map(presentEvent),
      appointments: appointments.map((row) => ({
        detail: presentAppointmentDetail(row),
        summary: translate(lang, 'emails:calendar.appointmentWith', { name: fullName(row.provider_first_name, row.provider_last_name) }),
      })),
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    calendarFeed: CalendarFeedService;
  }
}

export default servicePlugin('calendarFeed', ['db', 'audit-service'], (app) => new CalendarFeedService(app.db, app.audit));
