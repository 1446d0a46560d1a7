import {
  VISIT_NOTE_DAYS,
  VISIT_NOTE_FIELDS,
  VISIT_NOTE_NONE,
  VISIT_SOCKET_PATH,
  categoryDefinition,
  cleanText,
  extendedVisitEnd,
  formatMoment,
  visitNoteUntil,
  visitPhase,
  visitWindow,
  zoneOf,
  type HealthRecord,
  type SocketTicket,
  type Visit,
  type VisitNoteBody,
} from '@healthbook/shared';
import type { Config } from '../../config';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import { fullName } from '../appointments/appointments.presenter';
import type { AppointmentRow } from '../appointments/appointments.repository';
import type { AppointmentsService } from '../appointments/appointments.service';
import { wallClock } from '../calendar/recurrence';
import type { PatientsService } from '../patients/patients.service';
import type { RecordsService } from '../records/records.service';
import type { MessageBus } from '../../lib/shared-cache';
import type { AuditLog } from '../audit/audit.service';
import type { ChatService } from '../chat/chat.service';
import type { SocketTickets } from '../sockets/socket-tickets.service';
import { iceServers } from './turn-credentials';
import { VisitsRepository, type VisitRow } from './visits.repository';

export type Participant = Awaited<ReturnType<AppointmentsService['participantOf']>>;

/** The bus topic of visits; each process passes the events to the sockets it holds (visits.socket.ts). */
export const VISIT_TOPIC = 'visits';

/**
 * What travels between processes about a visit (its appointment's id): a socket joined or left
 * (`joined`, `left`; the other side's sockets answer `here`), a signal for the other side, and a
 * change of state (admitted, extended, ended).
 */
export type VisitBusEvent =
  | { t: 'joined'; appointmentId: number; role: 'patient' | 'provider'; socketId: string; acting: boolean }
  | { t: 'here'; appointmentId: number; role: 'patient' | 'provider'; acting: boolean }
  | { t: 'left'; appointmentId: number; role: 'patient' | 'provider'; socketId: string }
  | { t: 'signal'; appointmentId: number; role: 'patient' | 'provider'; socketId: string; data: unknown }
  | { t: 'state'; appointmentId: number; status: 'waiting' | 'active' | 'ended'; closesAt: string };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The record category a visit's note is written in. */
const MEDICAL_VISIT = categoryDefinition('medicalvisit')!;

/** A text the server puts in a field of the note, cut to the field's limit (the category's declaration). */
function fitted(field: 'reason' | 'professional', text: string): string {
  const declared = MEDICAL_VISIT.fields.find((f) => f.name === field)!;
  const clean = cleanText(text);
  return declared.kind === 'text' && clean.length > declared.max ? `${clean.slice(0, declared.max - 1).trimEnd()}…` : clean;
}

/**
 * Video visits of telehealth appointments (issue 29). A visit belongs to its appointment: its two
 * participants are the appointment's provider and its patient side (the patient, or someone of
 * their care network with full access, acting for them); who is which comes from the appointments
 * service's participantOf, the patients policy's door, as for the appointment itself. The provider
 * starts (admits), extends and ends it; the patient side may end it too. Each change is audited
 * on the patient's trail; nothing of the call is kept. The visit's chat is a chat conversation
 * kept with the appointment (the chat service's): made when the provider starts the visit, ended
 * with it, readable by the two participants afterwards.
 */
export class VisitsService {
  constructor(
    private readonly db: Db,
    private readonly appointments: AppointmentsService,
    private readonly audit: AuditLog,
    private readonly bus: MessageBus,
    private readonly tickets: SocketTickets,
    private readonly chat: ChatService,
    private readonly patients: PatientsService,
    private readonly records: RecordsService,
    private readonly turn: Config['turn'],
  ) {}

  publish(event: VisitBusEvent): Promise<void> {
    return this.bus.publish(VISIT_TOPIC, JSON.stringify(event));
  }

  onEvent(handler: (event: VisitBusEvent) => void): void {
    this.bus.subscribe(VISIT_TOPIC, (key) => handler(JSON.parse(key) as VisitBusEvent));
  }

  private async changed(row: AppointmentRow, visit: VisitRow): Promise<void> {
    await this.publish({ t: 'state', appointmentId: row.id, status: visit.status, closesAt: this.window(row, visit).closesAt.toISOString() });
  }

  /**
   * Who may open the visit's socket now, and as which side: a participant (the patients policy
   * for the patient side: full access), the appointment booked, its window open and the visit not
   * ended. Throws the refusal otherwise (403/404 as for the appointment, 409 with the reason).
   * Answers the window too, from the row and visit already read (no second look, no second audit).
   */
  async joinable(ctx: SignedInContext, slotId: number, now: Date = new Date()) {
    const { participant, row, repo, visit } = await this.open(ctx, slotId);
    if (visit?.status === 'ended') throw new HttpError(409, 'errors:visitEnded');
    const window = this.window(row, visit);
    const phase = visitPhase(window, now);
    if (phase === 'early') throw new HttpError(409, 'errors:visitNotOpen', { time: this.moment(ctx, row, window.opensAt) });
    if (phase === 'over') throw new HttpError(409, 'errors:visitOver', { time: this.moment(ctx, row, window.closesAt) });
    return { participant, row, repo, visit, window };
  }

  /** A single-use ticket for the visit's socket (the sockets' ticket store: 30 seconds, only its hash kept), once the visit may be joined. */
  async ticket(ctx: SignedInContext, slotId: number): Promise<SocketTicket> {
    await this.joinable(ctx, slotId);
    return this.tickets.issue(ctx, VISIT_SOCKET_PATH);
  }

  /**
   * A participant's socket joined. The patient side: the visit waits for the provider (unless
   * already admitted), and everyone in it is told. Answers its state as it is now (none: the
   * provider is first, and nobody waits yet).
   */
  async arrived(participant: Participant, repo: VisitsRepository): Promise<VisitRow | undefined> {
    const { row } = participant;
    if (participant.side === 'patient') await repo.wait(row);
    const visit = await repo.byAppointment(row.id);
    if (participant.side === 'patient' && visit?.status === 'waiting') await this.changed(row, visit);
    return visit;
  }

  /** Ends a visit whose window has closed (the sockets' timers ask; ending is once, whoever asks first). */
  async endIfOver(appointmentId: number, orgId: number, now: Date = new Date()): Promise<boolean> {
    const repo = new VisitsRepository(this.db);
    const visit = await repo.byAppointment(appointmentId);
    const row = await this.appointments.byId(orgId, appointmentId);
    if (!visit || !row || visit.status === 'ended' || visitPhase(this.window(row, visit), now) !== 'over') return false;
    const ended = await repo.end(appointmentId, null, 'window');
    if (ended) {
      await this.chat.endVisitChat(orgId, appointmentId, null, 'timeout');
      await this.changed(row, ended);
    }
    return Boolean(ended);
  }

  /** A participant's socket joined or left the visit: on the patient's trail. */
  async recordPresence(ctx: SignedInContext, row: AppointmentRow, action: 'visit_join' | 'visit_leave', side: 'patient' | 'provider'): Promise<void> {
    await this.record(ctx, action, row, { by: side });
  }

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

  private present(participant: Participant, visit: VisitRow | undefined, now: Date, chatId: number | null): Visit {
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
      chat_conversation_id: chatId,
    };
  }

  /** A moment as the reader reads it: their zone (else the provider's), named. */
  private moment(ctx: SignedInContext, row: AppointmentRow, at: Date): string {
    return formatMoment(at, ctx.lang, zoneOf(ctx.actor.user.settings, row.provider_timezone));
  }

  private providerOnly(participant: Participant): void {
    if (participant.side !== 'provider') throw new HttpError(403, 'errors:visitProviderOnly');
  }

  private async record(ctx: SignedInContext, action: 'visit_start' | 'visit_extend' | 'visit_end' | 'visit_join' | 'visit_leave', row: AppointmentRow, detail: Record<string, string | number> = {}) {
    await this.audit.record(ctx, { action, outcome: 'success', subject: `patient:${row.patient_id}`, detail: { appointment: row.id, ...detail } });
  }

  /**
   * The visit as one participant sees it: its window, phase and state and, while it is open, the
   * ICE servers of the call (TURN credentials are made only then, valid a few hours).
   */
  async get(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<Visit> {
    const { participant, row, visit } = await this.open(ctx, slotId);
    return this.present(participant, visit, now, await this.chat.visitChatId(row.org_id, row.id));
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
    const current = admitted ?? (await repo.byAppointment(row.id));
    // The visit's chat, made with the admission (one per appointment, whichever start makes it), before anyone is told.
    const chatId = current?.status === 'active' ? ((await this.chat.openVisitChat(row, ctx.lang))?.id ?? null) : await this.chat.visitChatId(row.org_id, row.id);
    if (admitted) {
      await this.record(ctx, 'visit_start', row);
      await this.changed(row, admitted);
    }
    return this.present(participant, current, now, chatId);
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
    if (extended) {
      await this.record(ctx, 'visit_extend', row, { until: until.toISOString() });
      await this.changed(row, extended);
    }
    return this.present(participant, extended ?? (await repo.byAppointment(row.id)), now, await this.chat.visitChatId(row.org_id, row.id));
  }

  /**
   * The visit's note, for the appointment's provider (the patient side: 403; anyone else: 404 as
   * for the appointment) once the visit has started (the patient side admitted; else 409) and until
   * VISIT_NOTE_DAYS after the appointment's end (409 after): the scope of the patients policy's
   * narrow door (PatientsService.openVisitNote: this patient's medical visits only).
   */
  private async openNote(ctx: SignedInContext, slotId: number, now: Date) {
    const { participant, row, visit } = await this.open(ctx, slotId);
    if (participant.side !== 'provider') throw new HttpError(403, 'errors:visitNoteProviderOnly');
    if (!visit?.admitted_at) throw new HttpError(409, 'errors:visitNotStarted');
    const until = visitNoteUntil({ end: row.end_time });
    if (now.getTime() > until.getTime()) throw new HttpError(409, 'errors:visitNoteClosed', { days: VISIT_NOTE_DAYS, time: this.moment(ctx, row, until) });
    return { row, visit, scope: await this.patients.openVisitNote(ctx, row.id, now) };
  }

  /** The visit's note as it stands in the patient's record (a medical visit); 404 with VISIT_NOTE_NONE before one is written. */
  async note(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<HealthRecord> {
    const { visit, scope } = await this.openNote(ctx, slotId, now);
    if (visit.note_record_id === null) throw new HttpError(404, 'errors:visitNoteNone', {}, {}, { code: VISIT_NOTE_NONE });
    const record = await this.records.getIn(ctx, scope, MEDICAL_VISIT, visit.note_record_id);
    if (!record) throw new HttpError(409, 'errors:visitNotePrivate');
    return record;
  }

  /**
   * The provider writes the visit's note: one medical visit in the patient's record per visit, made
   * by the first note and replaced by the next (PUT semantics: every field the provider writes is
   * set, those left out emptied). `reason` defaults to the appointment's reason for visit;
   * `professional` is the provider's name and `date` the visit's day (its admission, in the
   * appointment's zone). Notes sent at once make one record. On the patient's trail (visit_note).
   */
  async writeNote(ctx: SignedInContext, slotId: number, body: VisitNoteBody, now: Date = new Date()): Promise<{ record: HealthRecord; created: boolean }> {
    const { row, visit, scope } = await this.openNote(ctx, slotId, now);
    const reason = body.reason && cleanText(body.reason) !== '' ? body.reason : fitted('reason', row.reason_for_visit);
    const values: Record<string, unknown> = {
      ...Object.fromEntries(VISIT_NOTE_FIELDS.map((field) => [field, body[field] ?? null])),
      reason,
      professional: fitted('professional', fullName(row.provider_first_name, row.provider_last_name)),
      date: wallClock(new Date(visit.admitted_at ?? row.start_time), row.provider_timezone).date,
      date_part: 'day',
    };
    const written = await this.records.putHeld(ctx, scope, MEDICAL_VISIT, values, {
      lock: (trx) => new VisitsRepository(trx).lockNote(row.id),
      keep: (trx, recordId) => new VisitsRepository(trx).keepNote(row.id, recordId),
    });
    // The patient made the note private: it is theirs alone now.
    if (!written) throw new HttpError(409, 'errors:visitNotePrivate');
    await scope.auditChange(ctx, 'visit_note', { appointment: row.id, category: MEDICAL_VISIT.key, record: written.record.id, created: written.created });
    return written;
  }

  /** Either participant ends the visit, once; ending an ended visit answers it as it is. */
  async end(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<Visit> {
    const { participant, row, repo, visit } = await this.open(ctx, slotId);
    if (!visit) throw new HttpError(409, 'errors:visitNotStarted');
    const ended = visit.status === 'ended' ? null : await repo.end(row.id, ctx.actor.userId, participant.side);
    if (ended) {
      await this.record(ctx, 'visit_end', row, { by: participant.side });
      await this.chat.endVisitChat(row.org_id, row.id, { userId: ctx.actor.userId, name: this.chat.visitSideName(ctx, participant) }, participant.side);
      await this.changed(row, ended);
    }
    return this.present(participant, ended ?? (await repo.byAppointment(row.id)), now, await this.chat.visitChatId(row.org_id, row.id));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    visits: VisitsService;
  }
}

export default servicePlugin<'visits', { turn: Config['turn'] }>(
  'visits',
  ['db', 'cache', 'audit-service', 'appointments-service', 'socketTickets-service', 'chat-service', 'patients-service', 'records-service'],
  (app, opts) => new VisitsService(app.db, app.appointments, app.audit, app.bus, app.socketTickets, app.chat, app.patients, app.records, opts.turn),
);
