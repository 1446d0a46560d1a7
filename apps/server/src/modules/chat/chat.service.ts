import { randomBytes } from 'node:crypto';
import {
  CHAT_PROVIDER_TYPES,
  CHAT_REASONS,
  translate,
  type ChatConversation,
  type ChatDetails,
  type ChatEndReason,
  type ChatProviderType,
  type ChatTranscript,
  type DocumentDto,
  type Language,
  type MessageEvent,
  type ProviderTypeReasons,
  type QueueEntry,
  type ServerEvent,
} from '@healthbook/shared';
import type { Actor, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { MessageBus } from '../../lib/shared-cache';
import type { Storage } from '../../plugins/storage';
import type { AppointmentRow } from '../appointments/appointments.repository';
import type { AppointmentsService } from '../appointments/appointments.service';
import type { AuditLog } from '../audit/audit.service';
import type { DocumentsService } from '../documents/documents.service';
import type { FeaturesService } from '../features/features.service';
import type { PatientsService } from '../patients/patients.service';
import { chatTypesOf, type CareTeamScope } from '../patients/care-team-scope';
import type { PatientScope } from '../patients/patient-scope';
import { ChatRepository, ChatStore, PatientChatRepository, StaffChatRepository, type ConversationRow, type ConversationView, type MessageRow, type NewMessage } from './chat.repository';

/** The bus topic of chat events; each process delivers them to the sockets it holds. */
export const CHAT_TOPIC = 'chat';

/**
 * What travels between processes. `deliver`: an event for a conversation's sockets (all but the
 * one it came from); `started`: a provider took a patient (their sockets join the conversation);
 * `ended`: the conversation is over (patient sockets close); `queue`: an organisation's queue
 * changed (positions and consoles are recomputed).
 */
export type ChatBusEvent =
  | { t: 'deliver'; conversationId: number; senderUserId: number | null; fromSocket: string | null; event: ServerEvent }
  | { t: 'started'; conversationId: number; providerUserId: number; event: ServerEvent }
  | { t: 'ended'; conversationId: number; event: ServerEvent }
  | { t: 'queue'; orgId: number };

/** Who is on a socket, as the ticket and the query established. */
export interface ChatIdentity {
  actor: Actor;
  role: 'patient' | 'staff';
  lang: Language;
  /** How others see them: the staff member's name; the patient's (or "<carer> for <patient>"). */
  name: string;
  /** Staff: the queues they serve. */
  types: readonly ChatProviderType[];
  /** Staff: their care-team scope (the patients policy's door to the conversations they took and the queues they serve). */
  team?: CareTeamScope | undefined;
  /** Patient: their open conversation. */
  conversationId: number | null;
  /**
   * Patient side, acting for someone else's record (a care-network person): the context the
   * socket was opened with, to ask the patients policy again before each message (a removal or
   * a change to read-only holds at once, also on a socket already open).
   */
  actingCtx?: SignedInContext | undefined;
  /**
   * A video visit's chat (the socket opened with its `conversationId`): the socket is in that
   * conversation only, on the side the appointment gives the user (the provider as staff; the
   * patient or a full-access carer as the patient), never in live help's queue or chats.
   */
  visit?: { appointmentId: number } | undefined;
}

/** The side of an appointment the actor is on (the appointments service's participantOf). */
export type AppointmentParticipant = Awaited<ReturnType<AppointmentsService['participantOf']>>;

/** The reason a video visit's chat carries (its label: chat:reasons.video-visit); never one a patient picks for live help. */
export const VISIT_CHAT_REASON = 'video-visit';


const personName = (u: { first_name: string | null; last_name: string | null }) => `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim();
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** How long an active chat's patient may be gone (no socket anywhere) before the chat is ended. */
export const CHAT_ACTIVE_GONE_MS = 10 * 60_000;

export function reasonLabel(lang: Language, reason: string): string {
  return translate(lang, `chat:reasons.${reason}`);
}

export function presentMessage(row: MessageRow, viewerUserId: number, providerType: ChatProviderType): MessageEvent {
  return {
    type: 'message',
    id: row.id,
    conversationId: row.conversation_id,
    Message: row.body,
    SenderName: row.sender_name,
    ProviderType: row.sender_role === 'staff' ? providerType : null,
    contentType: row.content_type,
    me: row.sender_user_id !== null && row.sender_user_id === viewerUserId,
    sentAt: new Date(row.created_at).toISOString(),
    kind: row.kind,
    file: row.kind === 'file' ? { id: row.id, name: row.file_name ?? row.body, size: row.file_size ?? 0, content_type: row.content_type } : null,
    clientMessageId: row.client_message_id,
  };
}

function presentQueueEntry(row: ConversationView & { position: number }, lang: Language): QueueEntry {
  return {
    conversation_id: row.id,
    patient_id: row.patient_id,
    patient_name: row.patient_name,
    provider_type: row.provider_type,
    reason_for_visit: reasonLabel(lang, row.reason),
    queued_at: new Date(row.queued_at).toISOString(),
    position: row.position,
  };
}

function presentConversation(row: ConversationView, lang: Language): ChatConversation {
  return {
    conversation_id: row.id,
    status: row.status,
    patient_id: row.patient_id,
    patient_name: row.patient_name,
    provider_user_id: row.provider_user_id,
    provider_name: row.provider_name,
    provider_type: row.provider_type,
    reason: row.reason,
    reason_for_visit: reasonLabel(lang, row.reason),
    queued_at: new Date(row.queued_at).toISOString(),
    started_at: iso(row.started_at),
    ended_at: iso(row.ended_at),
    end_reason: row.end_reason,
    message_count: row.message_count,
    file_count: row.file_count,
  };
}

/**
 * Live chat: the queue per organisation and provider type, providers and peer coaches taking
 * patients, messages and files stored before anyone is told, and the history. Events go out
 * through the message bus (Redis with REDIS_URL), so the patient and the provider may be on
 * different server processes. The sockets themselves are chat.socket.ts's.
 *
 * A video visit's chat is a conversation of the same kind tied to its appointment
 * (`appointment_id`): the visits service opens it when the provider starts the visit and ends it
 * with the visit; the appointment's rule (participantOf) says who is in it; live help's queue,
 * lists, sweep and one-open-chat rule leave it alone.
 */
export class ChatService {
  readonly store: ChatStore;

  constructor(
    private readonly db: Db,
    private readonly bus: MessageBus,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly storage: Storage,
    private readonly documents: DocumentsService,
    private readonly features: FeaturesService,
    private readonly appointments: AppointmentsService,
  ) {
    this.store = new ChatStore(db);
  }

  publish(event: ChatBusEvent): Promise<void> {
    return this.bus.publish(CHAT_TOPIC, JSON.stringify(event));
  }

  onEvent(handler: (event: ChatBusEvent) => void): void {
    this.bus.subscribe(CHAT_TOPIC, (key) => handler(JSON.parse(key) as ChatBusEvent));
  }

  reasons(lang: Language): ProviderTypeReasons[] {
    return CHAT_PROVIDER_TYPES.map((type) => ({
      provider_type: type,
      provider_type_name: translate(lang, `chat:providerTypes.${type}`),
      reasons: CHAT_REASONS[type].map((value) => ({ value, name: reasonLabel(lang, value) })),
    }));
  }

  /** The patient the actor chats for, if their access allows chatting (read-only does not: the Terms). */
  async chatGrant(ctx: SignedInContext, patientId?: number): Promise<PatientScope> {
    const grant = await this.patients.open(ctx, 'chat', patientId);
    if (!grant.canWrite) {
      await this.audit.record(ctx, { action: 'chat_refused', outcome: 'denied', subject: `patient:${grant.patient.id}`, detail: { access: grant.access } });
      throw new HttpError(403, 'errors:chatReadOnly');
    }
    return grant;
  }

  /** How the other side sees the patient's side: the patient, or "Anna Smith for John Doe" (someone of the care network acting for them). */
  private senderNameFor(actor: Actor, grant: PatientScope, lang: Language): string {
    const patient = personName(grant.patient);
    return grant.isOwner ? patient : translate(lang, 'chat:actingFor', { carer: personName(actor.user), patient });
  }

  private details(actor: Actor, view: ConversationView, position: number | null, lang: Language): ChatDetails {
    return {
      conversation_id: view.id,
      status: view.status,
      user_id: actor.userId,
      patient_name: view.patient_name,
      patient_id: view.patient_id,
      reason: view.reason,
      reason_for_visit: reasonLabel(lang, view.reason),
      provider_type: view.provider_type,
      provider_name: view.provider_name,
      credential_id: actor.user.credential ?? '',
      org_name: actor.user.org_client_id,
      position,
      queued_at: new Date(view.queued_at).toISOString(),
    };
  }

  /** POST sendmessagetoqueue: joins the queue (or answers the chat already open). */
  async join(ctx: SignedInContext, body: { provider_type: ChatProviderType; reason: string; patient_id?: number | undefined }): Promise<{ details: ChatDetails; created: boolean }> {
    if (!CHAT_REASONS[body.provider_type].includes(body.reason)) throw new FieldError({ reason: ['errors:chatReasonUnknown'] });
    const grant = await this.chatGrant(ctx, body.patient_id);
    const repo = new ChatRepository(this.db, orgScope(ctx.actor.orgId));
    const { id, created } = await new PatientChatRepository(this.db, grant).join({ patient_user_id: ctx.actor.userId, provider_type: body.provider_type, reason: body.reason, language: ctx.lang });
    if (created) {
      await this.audit.record(ctx, { action: 'chat_queued', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { conversation: id, provider_type: body.provider_type } });
      await this.publish({ t: 'queue', orgId: ctx.actor.orgId });
    } else {
      // Joining the chat already waiting: seen by whoever joins it.
      await grant.auditRead(ctx, { conversation: id });
    }
    const view = (await repo.view(id))!;
    return { details: this.details(ctx.actor, view, await this.store.position(id), ctx.lang), created };
  }

  /**
   * The signed-in user's open chat, found again from the server (a reload, signing in again, another
   * device): the one they joined on a patient's side, for themselves or for a record they act for.
   * With a record asked (`patient`, or the record in view), only that record's; the patients policy
   * decides, as for every read, that the user may still reach the record.
   */
  async current(ctx: SignedInContext, patientId?: number): Promise<ChatDetails | null> {
    const asked = patientId ?? ctx.viewing;
    let grant: PatientScope;
    let view: ConversationView | undefined;
    if (asked === undefined) {
      view = await new ChatRepository(this.db, orgScope(ctx.actor.orgId)).openJoinedBy(ctx.actor.userId);
      if (!view) return null;
      grant = await this.patients.open(ctx, 'chat', view.patient_id);
    } else {
      grant = await this.patients.open(ctx, 'chat', asked);
      view = await new PatientChatRepository(this.db, grant).open(ctx.actor.userId);
    }
    // Someone acting for the patient asked: on the patient's trail, whether or not a chat was open.
    await grant.auditRead(ctx, { conversation: view?.id ?? null });
    return view ? this.details(ctx.actor, view, await this.store.position(view.id), ctx.lang) : null;
  }

  /** Whether a feature (live help, or teleconsultation for a visit's chat) is on for an organisation (the socket checks it as the routes do). */
  async chatEnabled(ctx: SignedInContext, feature: 'live-help' | 'teleconsultation' = 'live-help'): Promise<boolean> {
    try {
      await this.features.require(ctx, feature);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Establishes who a socket is from its query (§7). Every parameter given must be the signed-in
   * user's: their id, their organisation, their credential; a patient's patientId one they may
   * chat for, and reason/providerType those of the open chat (a client of the original protocol
   * that connects without joining first joins here). Answers an identity or the close reason.
   */
  async identify(
    ctx: SignedInContext,
    query: {
      userId: number;
      isPatient: boolean;
      reason?: string | undefined;
      providerType?: string | undefined;
      credential?: string | undefined;
      patientId?: number | undefined;
      orgName?: string | undefined;
      conversationId?: number | undefined;
    },
  ): Promise<ChatIdentity | 'mismatch' | 'forbidden' | 'noChat'> {
    const { actor } = ctx;
    const user = actor.user;
    const credentialOk =
      query.credential === undefined || query.credential === (user.credential ?? '') || (!user.credential && ['', 'null', 'undefined'].includes(query.credential));
    const orgOk = query.orgName === undefined || [user.org_client_id.toLowerCase(), user.org_name.toLowerCase(), String(actor.orgId)].includes(query.orgName.trim().toLowerCase());
    if (query.userId !== actor.userId || !credentialOk || !orgOk) return 'mismatch';
    if (query.conversationId !== undefined) return this.identifyVisitChat(ctx, query.conversationId, query.isPatient);
    if (!(await this.chatEnabled(ctx))) return 'forbidden';

    if (!query.isPatient) {
      const types = chatTypesOf(actor);
      if (types.length === 0) return 'forbidden';
      if (query.providerType !== undefined && query.providerType !== '' && !types.includes(query.providerType as ChatProviderType)) return 'mismatch';
      const team = await this.patients.openCareTeam(ctx, 'chat');
      return { actor, role: 'staff', lang: ctx.lang, name: personName(user), types: team.chatTypes, team, conversationId: null };
    }

    let grant: PatientScope;
    try {
      grant = await this.patients.open(ctx, 'chat', query.patientId);
    } catch {
      return 'mismatch';
    }
    if (!grant.canWrite) return 'forbidden';
    const repo = new ChatRepository(this.db, orgScope(actor.orgId));
    let open = await new PatientChatRepository(this.db, grant).open();
    if (!open) {
      const type = query.providerType as ChatProviderType;
      if (!CHAT_PROVIDER_TYPES.includes(type) || !query.reason || !CHAT_REASONS[type].includes(query.reason)) return 'noChat';
      const { details } = await this.join(ctx, { provider_type: type, reason: query.reason, patient_id: grant.patient.id });
      open = (await repo.view(details.conversation_id))!;
    } else if ((query.providerType && query.providerType !== open.provider_type) || (query.reason && query.reason !== open.reason)) {
      return 'mismatch';
    }
    return { actor, role: 'patient', lang: ctx.lang, name: this.senderNameFor(actor, grant, ctx.lang), types: [], conversationId: open.id, actingCtx: grant.isOwner ? undefined : ctx };
  }

  /**
   * A socket for a video visit's chat (`conversationId` in its query): the appointment's two
   * participants, by its one access rule (participantOf: the provider; the patient or a
   * full-access carer acting for them; read-only refused), while the chat is open, with
   * `isPatient` saying their side. Teleconsultation must be on, as for the visit.
   */
  private async identifyVisitChat(ctx: SignedInContext, conversationId: number, isPatient: boolean): Promise<ChatIdentity | 'mismatch' | 'forbidden' | 'noChat'> {
    if (!(await this.chatEnabled(ctx, 'teleconsultation'))) return 'forbidden';
    const row = await this.store.conversation(conversationId);
    if (!row || row.org_id !== ctx.actor.orgId || row.appointment_id === null) return 'forbidden';
    let participant: AppointmentParticipant;
    try {
      participant = await this.visitParticipant(ctx, row);
    } catch (err) {
      if (err instanceof HttpError) return 'forbidden';
      throw err;
    }
    if ((participant.side === 'patient') !== isPatient) return 'mismatch';
    if (row.status !== 'active') return 'noChat';
    return {
      actor: ctx.actor,
      role: participant.side === 'provider' ? 'staff' : 'patient',
      lang: ctx.lang,
      name: this.visitSideName(ctx, participant),
      types: [],
      conversationId: row.id,
      actingCtx: participant.side === 'patient' && !participant.grant.isOwner ? ctx : undefined,
      visit: { appointmentId: row.appointment_id },
    };
  }

  /** The actor's side of a video visit's chat: the appointment's participantOf, through the chat's appointment (refusals thrown as the visit's). */
  private async visitParticipant(ctx: SignedInContext, row: ConversationRow): Promise<AppointmentParticipant> {
    const appointment = row.appointment_id === null ? undefined : await this.appointments.byId(row.org_id, row.appointment_id);
    if (!appointment || row.org_id !== ctx.actor.orgId) throw notFound();
    return this.appointments.participantOf(ctx, appointment.slot_id, 'write');
  }

  /** How the other side of a visit's chat sees a participant: the provider's name; the patient's, or "<carer> for <patient>". */
  visitSideName(ctx: SignedInContext, participant: AppointmentParticipant): string {
    return participant.side === 'provider' ? personName(ctx.actor.user) : this.senderNameFor(ctx.actor, participant.grant, ctx.lang);
  }

  /**
   * The chat of an appointment's video visit, made when the provider starts (admits) it: active
   * between the appointment's patient and provider, one per appointment however many starts
   * arrive at once (one statement), made only while the visit is active. The one it has, if any.
   */
  async openVisitChat(row: AppointmentRow, lang: Language): Promise<ConversationRow | undefined> {
    return new ChatRepository(this.db, orgScope(row.org_id)).openForAppointment({
      appointment_id: row.id,
      patient_id: row.patient_id,
      // The patient's account; a patient without one (a dependant): whoever booked for them.
      patient_user_id: row.patient_user_id ?? row.booked_by ?? row.provider_id,
      provider_user_id: row.provider_id,
      reason: VISIT_CHAT_REASON,
      language: lang,
    });
  }

  /** The id of an appointment's visit chat, if it has one. */
  async visitChatId(orgId: number, appointmentId: number): Promise<number | null> {
    return (await new ChatRepository(this.db, orgScope(orgId)).forAppointment(appointmentId))?.id ?? null;
  }

  /** The visit ended: so does its chat (once; its sockets are told and closed). `by`: who ended it (null: its window closed). */
  async endVisitChat(orgId: number, appointmentId: number, by: { userId: number; name: string } | null, reason: 'provider' | 'patient' | 'timeout'): Promise<void> {
    const row = await new ChatRepository(this.db, orgScope(orgId)).forAppointment(appointmentId);
    if (row && row.status !== 'ended') await this.endConversation(row, by ?? { userId: null, name: translate('en', 'chat:system') }, reason);
  }

  /** The conversations a socket is in: the patient's one (or the visit's chat), a staff member's active ones. */
  async conversationsOf(identity: ChatIdentity): Promise<ConversationView[]> {
    if (identity.role === 'staff' && !identity.visit) return identity.team ? new StaffChatRepository(this.db, identity.team).active() : [];
    const repo = new ChatRepository(this.db, orgScope(identity.actor.orgId));
    const view = identity.conversationId === null ? undefined : await repo.view(identity.conversationId);
    return view ? [view] : [];
  }

  /**
   * The conversation a frame is for, if the sender is in it: a patient's own (a conversationId
   * must be it); a staff member's active one (by conversationId, or by the patient's user id as
   * the original's ReceiverId).
   */
  async conversationFor(identity: ChatIdentity, target: { conversationId?: number | undefined; ReceiverId?: number | undefined }): Promise<ConversationRow | null> {
    if (identity.visit) {
      // A visit's chat socket is in that conversation only (its side was established when it opened).
      if (target.conversationId !== undefined && target.conversationId !== identity.conversationId) return null;
      const row = identity.conversationId === null ? undefined : await this.store.conversation(identity.conversationId);
      return row && (await this.mayStillChat(identity, row)) ? row : null;
    }
    if (identity.role === 'patient') {
      if (target.conversationId !== undefined && target.conversationId !== identity.conversationId) return null;
      const row = identity.conversationId === null ? undefined : await this.store.conversation(identity.conversationId);
      return row && row.patient_user_id === identity.actor.userId && (await this.mayStillChat(identity, row)) ? row : null;
    }
    if (!identity.team) return null;
    if (target.conversationId !== undefined) return (await new StaffChatRepository(this.db, identity.team).conversation(target.conversationId)) ?? null;
    if (target.ReceiverId !== undefined) {
      const active = await this.conversationsOf(identity);
      const row = active.find((c) => c.patient_user_id === target.ReceiverId);
      return row ?? null;
    }
    return null;
  }

  /**
   * Stores a message and tells the conversation's other sockets. Nothing is relayed or
   * acknowledged before the row is stored; a duplicate (same client id) is acknowledged again
   * but not relayed twice. Null: the conversation had ended (nothing stored).
   */
  async post(identity: ChatIdentity, conversation: ConversationRow, message: Omit<NewMessage, 'conversation_id' | 'sender_user_id' | 'sender_name' | 'sender_role'>, fromSocket: string | null): Promise<{ row: MessageRow; duplicate: boolean } | null> {
    if ((identity.role === 'patient' || identity.visit) && !(await this.mayStillChat(identity, conversation))) return null;
    const stored = await this.store.insertMessage({
      ...message,
      conversation_id: conversation.id,
      sender_user_id: identity.actor.userId,
      sender_name: identity.name,
      sender_role: identity.role,
    });
    if (stored && !stored.duplicate && identity.actingCtx) {
      // A care-network person wrote for the patient: part of the patient's "who saw my record".
      await this.audit.record(identity.actingCtx, { action: 'chat_message', outcome: 'success', subject: `patient:${conversation.patient_id}`, detail: { conversation: conversation.id, kind: message.kind } });
    }
    if (stored && !stored.duplicate) {
      await this.publish({
        t: 'deliver',
        conversationId: conversation.id,
        senderUserId: identity.actor.userId,
        fromSocket,
        event: presentMessage(stored.row, -1, conversation.provider_type),
      });
    }
    return stored;
  }

  /** A care-network person's socket: whether the patients policy still lets them chat for the patient (asked again each time; the owner always may). */
  private async mayStillChat(identity: ChatIdentity, conversation: ConversationRow): Promise<boolean> {
    if (!identity.actingCtx) return true;
    try {
      // A visit's chat: the appointment's rule (full access to the patient's appointments; read-only is refused there, 403).
      const grant = identity.visit
        ? await this.patients.open(identity.actingCtx, 'appointments', conversation.patient_id, 'write')
        : await this.patients.open(identity.actingCtx, 'chat', conversation.patient_id);
      if (grant.canWrite) return true;
      await this.audit.record(identity.actingCtx, { action: 'chat_refused', outcome: 'denied', subject: `patient:${conversation.patient_id}`, detail: { access: grant.access, conversation: conversation.id } });
      return false;
    } catch {
      return false;
    }
  }

  /** A file's storage key for a conversation. */
  fileKey(conversation: ConversationRow, extension: string): string {
    return `chat/${conversation.org_id}/${conversation.id}/${randomBytes(16).toString('hex')}.${extension}`;
  }

  putFile(key: string, data: Buffer): Promise<void> {
    return this.storage.put(key, data);
  }

  deleteFile(key: string): Promise<void> {
    return this.storage.delete(key);
  }

  /** The waiting patients of the queues a staff member serves (their care-team scope): each on their own trail. */
  async queue(ctx: SignedInContext): Promise<QueueEntry[]> {
    const team = await this.patients.openCareTeam(ctx, 'chat');
    const rows = await new StaffChatRepository(this.db, team).queue();
    // The queue shows who waits and why: on each waiting patient's trail ("who saw my record").
    await team.auditReads(ctx, 'chat_queue_read', rows, (_n, row) => ({ conversation: row.id }));
    return rows.map((row) => presentQueueEntry(row, ctx.lang));
  }

  /** The organisation's queue for the staff sockets' fan-out (each socket is sent the types its care-team scope serves). */
  async queueOf(orgId: number, types: readonly ChatProviderType[], lang: Language): Promise<QueueEntry[]> {
    const rows = await new ChatRepository(this.db, orgScope(orgId)).queue(types);
    return rows.map((row) => presentQueueEntry(row, lang));
  }
  /** A provider or peer coach takes a waiting patient (the chosen one, or the next); the patient is greeted. */
  async take(ctx: SignedInContext, body: { conversation_id?: number | undefined; provider_type?: ChatProviderType | undefined }): Promise<ChatConversation> {
    const team = await this.patients.openCareTeam(ctx, 'chat');
    const types = team.servedTypes(body.provider_type);
    if (types.length === 0) throw new HttpError(403, 'errors:chatNotStaff');
    const repo = new StaffChatRepository(this.db, team);
    const taken = await repo.take(types, body.conversation_id);
    if (!taken) {
      if (body.conversation_id === undefined) throw new HttpError(404, 'errors:chatQueueEmpty');
      const row = await this.store.conversation(body.conversation_id);
      if (!row || row.org_id !== ctx.actor.orgId || !types.includes(row.provider_type)) throw notFound();
      throw new HttpError(409, 'errors:chatTaken');
    }
    await this.audit.record(ctx, { action: 'chat_taken', outcome: 'success', subject: `patient:${taken.patient_id}`, detail: { conversation: taken.id } });
    const view = (await repo.view(taken.id))!;
    const providerName = personName(ctx.actor.user);
    const providerTypeName = translate(taken.language as Language, `chat:providerTypes.${taken.provider_type}`);
    await this.publish({
      t: 'started',
      conversationId: taken.id,
      providerUserId: ctx.actor.userId,
      event: {
        type: 'started',
        conversationId: taken.id,
        provider_name: providerName,
        provider_type: taken.provider_type,
        patient_name: view.patient_name,
        patient_id: taken.patient_id,
        reason_for_visit: reasonLabel(taken.language as Language, taken.reason),
        startedAt: new Date(taken.started_at ?? Date.now()).toISOString(),
      },
    });
    const greeting = translate(taken.language as Language, 'chat:greeting', { patient: view.patient_name.split(' ')[0] ?? '', provider: providerName, providerType: providerTypeName.toLowerCase() });
    const identity: ChatIdentity = { actor: ctx.actor, role: 'staff', lang: ctx.lang, name: providerName, types: team.chatTypes, team, conversationId: null };
    await this.post(identity, taken, { kind: 'greeting', body: greeting, content_type: 'text/plain' }, null);
    await this.publish({ t: 'queue', orgId: ctx.actor.orgId });
    return presentConversation(view, ctx.lang);
  }

  /**
   * Ends a conversation: once (a second end changes nothing). The exit notice is stored as the
   * conversation's last message and sent to the other side: "<name> exited the chat session at <time>".
   */
  async endConversation(conversation: ConversationRow, by: { userId: number | null; name: string }, reason: ChatEndReason): Promise<ConversationRow | null> {
    const ended = await new ChatRepository(this.db, orgScope(conversation.org_id)).end(conversation.id, by.userId, reason);
    if (!ended) return null;
    const endedAt = new Date(ended.ended_at ?? Date.now()).toISOString();
    const text = translate('en', 'chat:exited', { name: by.name, time: endedAt });
    const exit = await this.store.insertMessage(
      {
        conversation_id: ended.id,
        sender_user_id: by.userId,
        sender_name: by.name,
        sender_role: reason === 'provider' ? 'staff' : 'patient',
        kind: 'exit',
        body: text,
        content_type: 'text/plain',
      },
      false,
    );
    if (exit) await this.publish({ t: 'deliver', conversationId: ended.id, senderUserId: by.userId, fromSocket: null, event: presentMessage(exit.row, -1, ended.provider_type) });
    await this.publish({ t: 'ended', conversationId: ended.id, event: { type: 'ended', conversationId: ended.id, Message: text, SenderName: by.name, endedAt, reason } });
    if (conversation.status === 'queued') await this.publish({ t: 'queue', orgId: conversation.org_id });
    return ended;
  }

  /** POST endchat, or the socket's endChat: the patient's open chat, or a staff member's chosen one. */
  async end(ctx: SignedInContext, body: { conversation_id?: number | undefined; patient_id?: number | undefined }): Promise<ChatConversation> {
    const repo = new ChatRepository(this.db, orgScope(ctx.actor.orgId));
    let conversation: ConversationRow | undefined;
    let by: { userId: number; name: string };
    let reason: ChatEndReason;
    const team = body.conversation_id !== undefined && chatTypesOf(ctx.actor).length > 0 ? await this.patients.openCareTeam(ctx, 'chat') : null;
    const asStaff = team && body.conversation_id !== undefined ? await new StaffChatRepository(this.db, team).conversation(body.conversation_id) : undefined;
    if (asStaff) {
      conversation = asStaff;
      by = { userId: ctx.actor.userId, name: personName(ctx.actor.user) };
      reason = 'provider';
    } else {
      const grant = await this.chatGrant(ctx, body.patient_id);
      const open = await new PatientChatRepository(this.db, grant).open();
      if (!open || (body.conversation_id !== undefined && open.id !== body.conversation_id)) throw new HttpError(404, 'errors:chatNotOpen');
      conversation = open;
      by = { userId: ctx.actor.userId, name: this.senderNameFor(ctx.actor, grant, ctx.lang) };
      reason = 'patient';
    }
    if (conversation.status === 'ended') throw new HttpError(404, 'errors:chatNotOpen');
    await this.endConversation(conversation, by, reason);
    await this.audit.record(ctx, { action: 'chat_ended', outcome: 'success', subject: `patient:${conversation.patient_id}`, detail: { conversation: conversation.id } });
    return presentConversation((await repo.view(conversation.id))!, ctx.lang);
  }

  /** Ends what nobody is at any more (run by the scheduler; SKIP-LOCKED-free: ending is idempotent). */
  async sweep(): Promise<{ ended: number }> {
    let ended = 0;
    for (const row of await this.store.gone(CHAT_ACTIVE_GONE_MS)) {
      // A visit's chat left open past its visit (its window closed with nobody there to end it).
      if (row.appointment_id !== null) {
        if (await this.endConversation(row, { userId: null, name: translate('en', 'chat:system') }, 'timeout')) ended++;
        continue;
      }
      const view = await new ChatRepository(this.db, orgScope(row.org_id)).view(row.id);
      if (await this.endConversation(row, { userId: row.patient_user_id, name: view?.patient_name ?? '' }, row.status === 'queued' ? 'abandoned' : 'timeout')) ended++;
    }
    return { ended };
  }

  /**
   * Whose conversation it is to read. A video visit's chat: the appointment's two participants, by
   * its rule (read-only 403, anyone else 404), teleconsultation on. Live help's (the feature on):
   * its staff member (their care-team scope) or the patient's side (the patients policy).
   * Refusals are 404, audited.
   */
  private async readable(ctx: SignedInContext, conversationId: number): Promise<ConversationRow> {
    const row = await this.store.conversation(conversationId);
    if (row && row.org_id === ctx.actor.orgId && row.appointment_id !== null) {
      await this.features.require(ctx, 'teleconsultation');
      await this.visitParticipant(ctx, row);
      return row;
    }
    await this.features.require(ctx, 'live-help');
    if (chatTypesOf(ctx.actor).length > 0) {
      const team = await this.patients.openCareTeam(ctx, 'chat');
      const own = await new StaffChatRepository(this.db, team).conversation(conversationId);
      if (own) {
        await team.auditRead(ctx, 'chat_read', own.patient_id, { conversation: own.id });
        return own;
      }
    }
    if (!row || row.org_id !== ctx.actor.orgId) throw notFound();
    // The patient's side: whoever the patients policy lets read the record (refusals audited there).
    const grant = await this.patients.open(ctx, 'chat', row.patient_id);
    await grant.auditRead(ctx, { conversation: row.id });
    return row;
  }

  async conversations(ctx: SignedInContext, patientId?: number): Promise<ChatConversation[]> {
    if (chatTypesOf(ctx.actor).length > 0 && (patientId === undefined || patientId !== ctx.actor.user.own_patient?.id)) {
      const team = await this.patients.openCareTeam(ctx, 'chat');
      const rows = await new StaffChatRepository(this.db, team).list(patientId);
      await team.auditReads(ctx, 'chat_read', rows, (conversations) => ({ conversations }));
      if (rows.length > 0 || patientId !== undefined) return rows.map((r) => presentConversation(r, ctx.lang));
    }
    const grant = await this.patients.open(ctx, 'chat', patientId);
    const rows = await new PatientChatRepository(this.db, grant).list();
    await grant.auditRead(ctx, { conversations: rows.length });
    return rows.map((r) => presentConversation(r, ctx.lang));
  }

  async transcript(ctx: SignedInContext, id: number): Promise<ChatTranscript> {
    const row = await this.readable(ctx, id);
    const view = (await new ChatRepository(this.db, orgScope(ctx.actor.orgId)).view(row.id))!;
    const messages = await this.store.messages(row.id);
    return { conversation: presentConversation(view, ctx.lang), messages: messages.map((m) => presentMessage(m, ctx.actor.userId, row.provider_type)) };
  }

  /** A chat file's bytes, for the conversation's participants only. */
  async file(ctx: SignedInContext, messageId: number): Promise<{ data: Buffer; name: string; contentType: string; row: ConversationRow }> {
    const message = await this.store.message(messageId);
    if (!message || message.kind !== 'file' || !message.file_key) throw new HttpError(404, 'errors:chatFileNotFound');
    const row = await this.readable(ctx, message.conversation_id);
    const data = await this.storage.get(message.file_key);
    if (!data) throw new HttpError(404, 'errors:chatFileNotFound');
    return { data, name: message.file_name ?? 'file', contentType: message.content_type, row };
  }

  /** Saves a chat file into the patient's Document Center (the patient's side; the feature must be on). */
  async saveFile(ctx: SignedInContext, messageId: number, folderId?: number): Promise<DocumentDto> {
    const { data, name, contentType, row } = await this.file(ctx, messageId);
    if (row.provider_user_id === ctx.actor.userId && row.patient_user_id !== ctx.actor.userId) throw new HttpError(404, 'errors:chatFileNotFound');
    await this.features.require(ctx, 'document-center');
    return this.documents.upload(ctx, folderId !== undefined ? { folder: String(folderId) } : {}, { data, filename: name, mimetype: contentType }, row.patient_id);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService;
  }
}

export default servicePlugin('chat', ['db', 'cache', 'patients-service', 'audit-service', 'storage', 'documents-service', 'features-service', 'appointments-service'], (app) =>
  new ChatService(app.db, app.bus, app.patients, app.audit, app.storage, app.documents, app.features, app.appointments),
);
