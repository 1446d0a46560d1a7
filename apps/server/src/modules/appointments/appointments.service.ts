import {
  APPOINTMENT_REMINDER_MINUTES,
  formatMoment,
  translate,
  zoneOf,
  type Appointment,
  type AppointmentDetail,
  type BookAppointmentBody,
  type CancelAppointmentBody,
} from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { orgScope } from '../../db/scope';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { renderMail, type MailKind } from '../../lib/mail-templates';
import { servicePlugin } from '../../lib/service-plugin';
import { VersionedCache } from '../../lib/versioned-cache';
import type { BackgroundMail } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import { windowInstants } from '../calendar/recurrence';
import { appointmentIcs } from '../calendar/ics';
import { RemindersRepository } from '../calendar/reminders.repository';
import type { PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { mailTarget } from '../users/users.presenter';
import { UsersRepository } from '../users/users.repository';
import { fullName, presentAppointment, presentAppointmentDetail } from './appointments.presenter';
import { isProvider } from '../patients/care-team-scope';
import { AppointmentsRepository, PatientAppointmentsRepository, ProviderAppointmentsRepository, ProvidersRepository, SlotsRepository, type AppointmentRow } from './appointments.repository';

/** /me lists booked appointments from this many days ago on. */
export const ME_APPOINTMENTS_PAST_DAYS = 30;

interface ListQuery {
  start?: string;
  end?: string;
  tz?: string;
  status?: 'booked' | 'cancelled';
}


/**
 * Appointments: a patient books a provider's free slot (at most one booking per slot, held by a
 * unique index), either side cancels, both are told by e-mail with an .ics, and reminders are
 * scheduled before it. Which patient the actor may act for is the patients policy's decision;
 * a provider sees their own bookings, audited as access to patients' data.
 */
/** How an appointment is cancelled: by whom, as the provider or not, the notes, and what its audit row and e-mails add. */
interface Cancellation {
  by: number;
  byProvider: boolean;
  notes?: string | null;
  /** The system's own work (an account's erasure): the audit row names no actor. */
  bySystem?: boolean;
  /** E-mail the patient too (default true). */
  toPatient?: boolean;
  detail?: Record<string, string | number | boolean>;
}

export class AppointmentsService {
  private readonly mine = new VersionedCache({ maxBytes: 8 * 1024 * 1024, sizeOf: (v) => JSON.stringify(v).length, ttlMs: 60_000 });

  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly mail: BackgroundMail,
    private readonly opts: { publicUrl: string; mailFrom: string },
  ) {}

  private repo(orgId: number, db: Db = this.db) {
    return new AppointmentsRepository(db, orgScope(orgId));
  }

  /** The specification's patient_appointment_details: the user's own booked appointments from 30 days ago on (their own scope, from the session). */
  async forMe(ctx: SignedInContext): Promise<Appointment[]> {
    if (!ctx.actor.user.own_patient) return [];
    const scope = await this.patients.open({ ...ctx, viewing: undefined }, 'appointments');
    const since = new Date(Date.now() - ME_APPOINTMENTS_PAST_DAYS * 86_400_000);
    // Kept per version of the patient's data (a booking or cancellation moves it on) and per hour (the 30 days move on).
    const key = JSON.stringify([scope.patientId, scope.patient.data_version, Math.floor(Date.now() / 3_600_000)]);
    const answer = await this.mine.get(key, async () => ({
      list: (await new PatientAppointmentsRepository(this.db, scope).list({ from: since, status: 'booked' }, 100)).map(presentAppointment),
    }));
    return answer.list;
  }

  async book(ctx: SignedInContext, body: BookAppointmentBody, patientId?: number): Promise<AppointmentDetail> {
    const grant = await this.patients.open(ctx, 'appointments', patientId, 'write');
    const orgId = grant.patient.org_id;
    const provider = await new ProvidersRepository(this.db, orgScope(orgId)).get(body.provider_id);
    if (!provider) throw new HttpError(404, 'errors:providerNotFound');
    const now = new Date();
    let appointmentId: number;
    try {
      appointmentId = await this.db.transaction().execute(async (trx) => {
        const slot = await new SlotsRepository(trx, orgScope(orgId)).lock(body.availability_det_id, provider.user_id);
        if (!slot) throw new HttpError(404, 'errors:slotNotFound');
        if (new Date(slot.start_time) <= now) throw new HttpError(400, 'errors:slotInPast');
        if (slot.withdrawn) throw new HttpError(409, 'errors:slotTaken');
        const id = await new PatientAppointmentsRepository(trx, grant).insert({ provider_id: provider.user_id, slot, reason_for_visit: body.reason_for_visit.trim(), booked_by: ctx.actor.userId });
        if (grant.patient.user_id !== null) {
          const start = new Date(slot.start_time);
          await new RemindersRepository(trx).add(
            APPOINTMENT_REMINDER_MINUTES.map((m) => ({ org_id: orgId, user_id: grant.patient.user_id!, appointment_id: id, occurrence_start: start, remind_at: new Date(start.getTime() - m * 60_000) })).filter(
              (r) => r.remind_at > now,
            ),
          );
        }
        return id;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'appointments_one_per_slot')) throw new HttpError(409, 'errors:slotTaken');
      throw err;
    }
    const row = (await this.repo(orgId).byId(appointmentId))!;
    await this.audit.record(ctx, { action: 'appointment_book', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { appointment: row.id, provider: row.provider_id } });
    await this.notify(ctx, row, 'booked');
    return presentAppointmentDetail(row);
  }

  async cancel(ctx: SignedInContext, body: CancelAppointmentBody): Promise<AppointmentDetail> {
    const fromProvider = body.is_cancel_from_provider ?? false;
    // The provider side reaches its own bookings only (care-team scope); the patient side whoever may write the record.
    const found = fromProvider
      ? isProvider(ctx.actor)
        ? await new ProviderAppointmentsRepository(this.db, await this.patients.openCareTeam(ctx, 'appointments')).bySlot(body.availability_det_id)
        : undefined
      : await this.repo(ctx.actor.orgId).bySlot(body.availability_det_id);
    if (!found || found.provider_id !== body.provider_id) throw notFound();
    if (!fromProvider) await this.patients.open(ctx, 'appointments', found.patient_id, 'write');
    if (found.status === 'cancelled') throw new HttpError(409, 'errors:appointmentAlreadyCancelled');
    const presented = presentAppointmentDetail(found);
    if (body.appointment_date && body.appointment_date !== presented.appointment_date && body.appointment_date !== presented.start_time.slice(0, 10)) {
      throw new FieldError({ appointment_date: ['validation:appointmentDateMismatch'] });
    }
    if (new Date(found.start_time) <= new Date()) throw new HttpError(400, 'errors:appointmentInPast');
    const notes = body.cancellation_notes?.trim() || null;
    const row = await this.cancelOne(ctx, ctx.actor.orgId, found.id, { by: ctx.actor.userId, byProvider: fromProvider, notes });
    // Two cancellations at once: the second finds it no longer booked.
    if (!row) throw new HttpError(409, 'errors:appointmentAlreadyCancelled');
    return presentAppointmentDetail(row);
  }

  /**
   * Cancels one booked appointment: in one transaction its slot freed and its reminders cancelled,
   * then audited and both sides e-mailed (or the provider only). Null when it was no longer booked.
   */
  private async cancelOne(ctx: ServiceContext, orgId: number, id: number, how: Cancellation): Promise<AppointmentRow | null> {
    const cancelled = await this.db.transaction().execute(async (trx) => {
      if (!(await this.repo(orgId, trx).cancel(id, how.by, how.byProvider, how.notes ?? null))) return false;
      await new RemindersRepository(trx).cancelPending({ appointmentId: id });
      return true;
    });
    if (!cancelled) return null;
    const row = (await this.repo(orgId).byId(id))!;
    await this.audit.record(ctx, {
      action: 'appointment_cancel',
      outcome: 'success',
      orgId,
      ...(how.bySystem ? { actorUserId: null } : {}),
      subject: `patient:${row.patient_id}`,
      detail: { appointment: row.id, by_provider: how.byProvider, ...how.detail },
    });
    await this.notify(ctx, row, 'cancelled', { toPatient: how.toPatient ?? true });
    return row;
  }

  /** Cancels each of `ids` still booked, one at a time (cancelOne); answers how many were. */
  private async cancelMany(ctx: ServiceContext, orgId: number, ids: readonly number[], how: Cancellation): Promise<number> {
    let count = 0;
    for (const id of ids) if (await this.cancelOne(ctx, orgId, id, how)) count++;
    return count;
  }

  /**
   * A closing account's patients' booked appointments, before they are erased: the provider is
   * e-mailed with the .ics; the patient is not (they asked to leave, and were told at closing).
   */
  cancelForClosing(ctx: ServiceContext, orgId: number, appointmentIds: readonly number[], byUserId: number): Promise<number> {
    return this.cancelMany(ctx, orgId, appointmentIds, { by: byUserId, byProvider: false, bySystem: true, toPatient: false, detail: { reason: 'account_closed' } });
  }

  /**
   * A provider who lost the role (the administrator's home): their bookings from now on are
   * cancelled as the provider's own cancellations, both sides e-mailed as usual. Past appointments stay.
   */
  async cancelFutureOfProvider(ctx: SignedInContext, orgId: number, providerId: number): Promise<number> {
    const future = await this.repo(orgId).list({ providerId, from: new Date(), status: 'booked' }, 5000);
    return this.cancelMany(ctx, orgId, future.map((row) => row.id), { by: ctx.actor.userId, byProvider: true, detail: { provider_role_removed: true } });
  }

  /** The patient's appointments (their own by default), by start. */
  async list(ctx: SignedInContext, query: ListQuery & { patient?: number }): Promise<AppointmentDetail[]> {
    const grant = await this.patients.open(ctx, 'appointments', query.patient);
    const rows = await new PatientAppointmentsRepository(this.db, grant).list({ ...window(query), status: query.status });
    await grant.auditRead(ctx, { appointments: rows.length });
    return rows.map(presentAppointmentDetail);
  }

  /** The signed-in provider's bookings and cancellations (their care-team scope): each patient's on their own trail. */
  async forProvider(ctx: SignedInContext, query: ListQuery): Promise<AppointmentDetail[]> {
    const team = await this.patients.openCareTeam(ctx, 'appointments');
    const rows = await new ProviderAppointmentsRepository(this.db, team).list({ ...window(query), status: query.status });
    // The list shows each patient's bookings and reasons for visit: "who saw my record" has it.
    await team.auditReads(ctx, 'appointment_read', rows, (appointments) => ({ appointments, provider_console: 1 }));
    return rows.map(presentAppointmentDetail);
  }

  /**
   * The appointment of a slot and the side the actor is on: its provider (their care-team scope)
   * or its patient side (the patients policy, whose scope is answered); anyone else: 404. The
   * look is audited on the patient's trail (the patient's own, by the policy, is not). With
   * intent 'write' (joining its video visit acts for the patient), a read-only carer is refused.
   */
  async participantOf(ctx: SignedInContext, slotId: number, intent: 'read' | 'write' = 'read'): Promise<{ row: AppointmentRow; side: 'provider' } | { row: AppointmentRow; side: 'patient'; grant: PatientScope }> {
    if (isProvider(ctx.actor)) {
      const team = await this.patients.openCareTeam(ctx, 'appointments');
      const own = await new ProviderAppointmentsRepository(this.db, team).bySlot(slotId);
      if (own) {
        await team.auditRead(ctx, 'appointment_read', own.patient_id, { appointment: own.id });
        return { row: own, side: 'provider' };
      }
    }
    const row = await this.repo(ctx.actor.orgId).bySlot(slotId);
    if (!row) throw notFound();
    const grant = await this.patients.open(ctx, 'appointments', row.patient_id, intent);
    await grant.auditRead(ctx, { appointment: row.id });
    return { row, side: 'patient', grant };
  }

  /** An appointment by id, for the system's own work (a visit's window closing): no actor, no audit. */
  byId(orgId: number, id: number): Promise<AppointmentRow | undefined> {
    return this.repo(orgId).byId(id);
  }

  /** The appointment of a slot, for its provider or its patient side (participantOf). */
  async bySlot(ctx: SignedInContext, slotId: number): Promise<AppointmentDetail> {
    return presentAppointmentDetail((await this.participantOf(ctx, slotId)).row);
  }

  /** E-mails to the patient (when they have an account) and the provider, each in their language, with the .ics. */
  private async notify(ctx: ServiceContext, row: AppointmentRow, what: 'booked' | 'cancelled', opts: { toPatient?: boolean } = {}): Promise<void> {
    const users = new UsersRepository(this.db, orgScope(row.org_id));
    const [patientUser, providerUser] = await Promise.all([row.patient_user_id !== null ? users.findById(row.patient_user_id) : undefined, users.findById(row.provider_id)]);
    const detail = presentAppointmentDetail(row);
    const host = new URL(this.opts.publicUrl).hostname;
    const organizerEmail = /<([^>]+)>/.exec(this.opts.mailFrom)?.[1] ?? this.opts.mailFrom;
    const provider = fullName(row.provider_first_name, row.provider_last_name);
    const patient = fullName(row.patient_first_name, row.patient_last_name);
    // Someone of the care network acting for the patient: shown to the provider as "Anna Smith for John Doe", told to the patient.
    const fromProvider = what === 'cancelled' && row.cancelled_by_provider;
    const carer = !fromProvider && ctx.actor && ctx.actor.userId !== row.patient_user_id ? fullName(ctx.actor.user.first_name, ctx.actor.user.last_name) : null;
    const send = (user: NonNullable<typeof providerUser>, kind: MailKind) => {
      const target = mailTarget(user, ctx.lang);
      const toProvider = user.id === row.provider_id;
      const vars = {
        name: target.name,
        orgName: target.orgName,
        provider,
        patient: carer && toProvider ? translate(target.lang, 'emails:care.actingFor', { carer, patient }) : patient,
        acting: carer && !toProvider ? translate(target.lang, what === 'booked' ? 'emails:care.bookedBy' : 'emails:care.cancelledBy', { carer }) : '',
        when: formatMoment(row.start_time, target.lang, zoneOf(user.settings, row.provider_timezone), { weekday: true }),
        reason: row.reason_for_visit,
        notes: row.cancellation_notes ?? translate(target.lang, 'emails:calendar.noNotes'),
      };
      const message = renderMail(kind, target.lang, target.email, vars);
      const ics = appointmentIcs({
        appointment: detail,
        summary: translate(target.lang, 'emails:calendar.icsSummary', { provider, patient, orgName: target.orgName }),
        description: row.reason_for_visit,
        organizer: { name: provider, email: organizerEmail },
        attendee: { name: patient || target.name, email: patientUser?.email ?? target.email },
        host,
        cancelled: what === 'cancelled',
      });
      this.mail.send({ ...message, attachments: [{ filename: what === 'cancelled' ? 'cancellation.ics' : 'appointment.ics', contentType: `text/calendar; charset=utf-8; method=${what === 'cancelled' ? 'CANCEL' : 'REQUEST'}`, content: ics }] }, { appointment: row.id });
    };
    if (patientUser && opts.toPatient !== false) send(patientUser, what === 'booked' ? 'appointmentBooked' : row.cancelled_by_provider ? 'appointmentCancelledByProvider' : 'appointmentCancelled');
    if (providerUser) send(providerUser, what === 'booked' ? 'appointmentBookedProvider' : 'appointmentCancelledProvider');
  }
}

function window(query: ListQuery): { from?: Date; to?: Date } {
  const zone = query.tz ?? 'UTC';
  if (query.start && query.end && query.end < query.start) throw new FieldError({ end: ['validation:endBeforeStart'] });
  return {
    ...(query.start ? { from: windowInstants(query.start, query.start, zone).from } : {}),
    ...(query.end ? { to: windowInstants(query.end, query.end, zone).to } : {}),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    appointments: AppointmentsService;
  }
}

export default servicePlugin<'appointments', { publicUrl: string; mailFrom: string }>('appointments', ['db', 'audit-service', 'patients-service', 'mail'], (app, opts) =>
  new AppointmentsService(app.db, app.patients, app.audit, app.backgroundMail, { publicUrl: opts.publicUrl, mailFrom: opts.mailFrom }),
);
