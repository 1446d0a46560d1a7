import { extendedVisitEnd, formatMoment, visitPhase, visitWindow, zoneOf, type Visit } from '@healthbook/shared';
import type { Config } from '../../config';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import { fullName } from '../appointments/appointments.presenter';
import type { AppointmentRow } from '../appointments/appointments.repository';
import type { AppointmentsService } from '../appointments/appointments.service';
import type { AuditLog } from '../audit/audit.service';
import { iceServers } from './turn-credentials';
import { VisitsRepository, type VisitRow } from './visits.repository';

type Participant = Awaited<ReturnType<AppointmentsService['participantOf']>>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Video visits of telehealth appointments (issue 29). A visit belongs to its appointment: its two
 * participants are the appointment's provider and its patient side (the patient, or someone of
 * their care network with full access, acting for them); who is which comes from the appointments
 * service's participantOf, the patients policy's door, as for the appointment itself. The provider
 * starts (admits), extends and ends it; the patient side may end it too. Each change is audited
 * on the patient's trail; nothing of the call is kept.
 */
export class VisitsService {
  constructor(
    private readonly db: Db,
    private readonly appointments: AppointmentsService,
    private readonly audit: AuditLog,
    private readonly turn: Config['turn'],
  ) {}

  /** The appointment (booked: a cancelled one has no visit, 409), the actor's side of it, and its visit if any. */
  private async open(ctx: SignedInContext, slotId: number) {
    const participant = await this.appointments.participantOf(ctx, slotId, 'write');
    if (participant.row.status !== 'booked') throw new HttpError(409, 'errors:visitCancelled');
    const repo = new VisitsRepository(this.db);
    return { participant, row: participant.row, repo, visit: await repo.byAppointment(participant.row.id) };
  }

  private window(row: AppointmentRow, visit: VisitRow | undefined) {
    return visitWindow({ start: row.start_time, end: row.end_time }, visit?.extended_until ?? null);
  }

  private present(participant: Participant, visit: VisitRow | undefined, now: Date): Visit {
    const { row } = participant;
    const window = this.window(row, visit);
    const phase = visitPhase(window, now);
    const live = phase === 'open' && visit?.status !== 'ended';
    const ice = live ? iceServers(this.turn, now) : { iceServers: [], expiresAt: null };
    const ended = visit?.status === 'ended' ? visit : undefined;
    return {
      appointment_id: row.id,
      availability_det_id: row.slot_id,
      role: participant.side,
      acting_for_patient: participant.side === 'patient' && !participant.grant.isOwner,
      phase,
      status: visit?.status ?? 'none',
      admitted_at: iso(visit?.admitted_at ?? null),
      ended_at: iso(visit?.ended_at ?? null),
      duration_s: ended?.admitted_at && ended.ended_at ? Math.max(0, Math.round((new Date(ended.ended_at).getTime() - new Date(ended.admitted_at).getTime()) / 1000)) : null,
      start_time: new Date(row.start_time).toISOString(),
      end_time: new Date(row.end_time).toISOString(),
      opens_at: window.opensAt.toISOString(),
      closes_at: window.closesAt.toISOString(),
      patient_name: fullName(row.patient_first_name, row.patient_last_name),
      provider_name: fullName(row.provider_first_name, row.provider_last_name),
      ice_servers: ice.iceServers,
      ice_expires_at: ice.expiresAt?.toISOString() ?? null,
    };
  }

  /** A moment as the reader reads it: their zone (else the provider's), named. */
  private moment(ctx: SignedInContext, row: AppointmentRow, at: Date): string {
    return formatMoment(at, ctx.lang, zoneOf(ctx.actor.user.settings, row.provider_timezone));
  }

  private providerOnly(participant: Participant): void {
    if (participant.side !== 'provider') throw new HttpError(403, 'errors:visitProviderOnly');
  }

  private async record(ctx: SignedInContext, action: 'visit_start' | 'visit_extend' | 'visit_end', row: AppointmentRow, detail: Record<string, string | number> = {}) {
    await this.audit.record(ctx, { action, outcome: 'success', subject: `patient:${row.patient_id}`, detail: { appointment: row.id, ...detail } });
  }

  /**
   * The visit as one participant sees it: its window, phase and state and, while it is open, the
   * ICE servers of the call (TURN credentials are made only then, valid a few hours).
   */
  async get(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<Visit> {
    const { participant, visit } = await this.open(ctx, slotId);
    return this.present(participant, visit, now);
  }

  /** The provider starts the visit, admitting the patient side: only inside its window, once (a second start changes nothing). */
  async start(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<Visit> {
    const { participant, row, repo, visit } = await this.open(ctx, slotId);
    this.providerOnly(participant);
    if (visit?.status === 'ended') throw new HttpError(409, 'errors:visitEnded');
    const window = this.window(row, visit);
    const phase = visitPhase(window, now);
    if (phase === 'early') throw new HttpError(409, 'errors:visitNotOpen', { time: this.moment(ctx, row, window.opensAt) });
    if (phase === 'over') throw new HttpError(409, 'errors:visitOver', { time: this.moment(ctx, row, window.closesAt) });
    const admitted = await repo.admit(row);
    if (admitted) await this.record(ctx, 'visit_start', row);
    return this.present(participant, admitted ?? (await repo.byAppointment(row.id)), now);
  }

  /** The provider gives the visit 15 more minutes (from its end, or from now once past it), up to two hours past the appointment's end. */
  async extend(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<Visit> {
    const { participant, row, repo, visit } = await this.open(ctx, slotId);
    this.providerOnly(participant);
    if (!visit) throw new HttpError(409, 'errors:visitNotStarted');
    if (visit.status === 'ended') throw new HttpError(409, 'errors:visitEnded');
    const window = this.window(row, visit);
    const until = extendedVisitEnd({ end: row.end_time }, window, now);
    if (until.getTime() <= window.closesAt.getTime()) throw new HttpError(409, 'errors:visitExtendMax');
    const extended = await repo.extend(row.id, until);
    if (extended) await this.record(ctx, 'visit_extend', row, { until: until.toISOString() });
    return this.present(participant, extended ?? (await repo.byAppointment(row.id)), now);
  }

  /** Either participant ends the visit, once; ending an ended visit answers it as it is. */
  async end(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<Visit> {
    const { participant, row, repo, visit } = await this.open(ctx, slotId);
    if (!visit) throw new HttpError(409, 'errors:visitNotStarted');
    const ended = visit.status === 'ended' ? null : await repo.end(row.id, ctx.actor.userId, participant.side);
    if (ended) await this.record(ctx, 'visit_end', row, { by: participant.side });
    return this.present(participant, ended ?? (await repo.byAppointment(row.id)), now);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    visits: VisitsService;
  }
}

export default servicePlugin<'visits', { turn: Config['turn'] }>('visits', ['db', 'audit-service', 'appointments-service'], (app, opts) => new VisitsService(app.db, app.appointments, app.audit, opts.turn));
