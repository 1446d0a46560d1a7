import { sql, type Insertable, type Selectable } from 'kysely';
import { CHAT_PRESENCE_TTL_MS, type ChatEndReason, type ChatProviderType } from '@healthbook/shared';
import type { Db } from '../../db/client';
import type { ChatConversationsTable, ChatMessagesTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';
import type { CareTeamScope } from '../patients/care-team-scope';
import type { PatientScope } from '../patients/patient-scope';

export type ConversationRow = Selectable<ChatConversationsTable>;
export type MessageRow = Selectable<ChatMessagesTable>;
export type NewMessage = Omit<Insertable<ChatMessagesTable>, 'id' | 'created_at'>;

/** A conversation with its participants' names (for the lists, the console and the events). */
export type ConversationView = ConversationRow & {
  patient_name: string;
  provider_name: string | null;
  message_count: number;
  file_count: number;
};

/** The patient's names: their account's, else the patient's own (as patientColumns has it). */
const patientName = sql<string>`trim(coalesce(au.first_name, p.first_name, '') || ' ' || coalesce(au.last_name, p.last_name, ''))`;
const providerName = sql<string | null>`case when pu.id is null then null else trim(pu.first_name || ' ' || pu.last_name) end`;

/** One organisation's chats: conversations (the queue is their queued rows), messages and files. */
export class ChatRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private views() {
    return this.db
      .selectFrom('chat_conversations as c')
      .innerJoin('patients as p', 'p.id', 'c.patient_id')
      .leftJoin('users as au', 'au.id', 'p.user_id')
      .leftJoin('users as pu', 'pu.id', 'c.provider_user_id')
      .selectAll('c')
      .select(patientName.as('patient_name'))
      .select(providerName.as('provider_name'))
      .select((eb) => [
        eb.selectFrom('chat_messages as m').whereRef('m.conversation_id', '=', 'c.id').where('m.kind', 'in', ['text', 'file']).select(sql<number>`count(*)::int`.as('n')).as('message_count'),
        eb.selectFrom('chat_messages as m').whereRef('m.conversation_id', '=', 'c.id').where('m.kind', '=', 'file').select(sql<number>`count(*)::int`.as('n')).as('file_count'),
      ])
      .where('c.org_id', '=', this.scope.orgId);
  }

  async view(id: number): Promise<ConversationView | undefined> {
    return (await this.views().where('c.id', '=', id).executeTakeFirst()) as ConversationView | undefined;
  }

  /** The conversation's row alone (what a socket frame is checked against). */
  row(id: number): Promise<ConversationRow | undefined> {
    return this.db.selectFrom('chat_conversations').selectAll().where('org_id', '=', this.scope.orgId).where('id', '=', id).executeTakeFirst();
  }

  /** Live help's conversations: not a video visit's chat (which belongs to its appointment). */
  private liveHelp() {
    return this.views().where('c.appointment_id', 'is', null);
  }

  /** The open (queued or active) live-help conversation of a patient, if any. */
  async openForPatient(patientId: number, joinedBy?: number): Promise<ConversationView | undefined> {
    let query = this.liveHelp().where('c.patient_id', '=', patientId).where('c.status', '<>', 'ended');
    if (joinedBy !== undefined) query = query.where('c.patient_user_id', '=', joinedBy);
    return (await query.executeTakeFirst()) as ConversationView | undefined;
  }

  /** The open live-help conversation a user joined on a patient's side (for themselves or a record they act for), if any. */
  async openJoinedBy(userId: number): Promise<ConversationView | undefined> {
    return (await this.liveHelp().where('c.patient_user_id', '=', userId).where('c.status', '<>', 'ended').orderBy('c.id', 'desc').executeTakeFirst()) as ConversationView | undefined;
  }

  async listForPatient(patientId: number): Promise<ConversationView[]> {
    return (await this.liveHelp().where('c.patient_id', '=', patientId).orderBy('c.id', 'desc').limit(200).execute()) as ConversationView[];
  }

  async listForProvider(providerUserId: number, patientId?: number): Promise<ConversationView[]> {
    let query = this.liveHelp().where('c.provider_user_id', '=', providerUserId);
    if (patientId !== undefined) query = query.where('c.patient_id', '=', patientId);
    return (await query.orderBy('c.id', 'desc').limit(200).execute()) as ConversationView[];
  }

  /** A staff member's active live-help conversations. */
  async activeForProvider(providerUserId: number): Promise<ConversationView[]> {
    return (await this.liveHelp().where('c.provider_user_id', '=', providerUserId).where('c.status', '=', 'active').orderBy('c.id').execute()) as ConversationView[];
  }

  /**
   * Joins the queue, or answers the patient's conversation already open (the partial unique index
   * keeps one per patient, however many requests arrive at once). `created` says which.
   */
  async join(values: { patient_id: number; patient_user_id: number; provider_type: ChatProviderType; reason: string; language: string }): Promise<{ id: number; created: boolean }> {
    const inserted = await sql<{ id: number }>`
      insert into chat_conversations (org_id, patient_id, patient_user_id, provider_type, reason, language)
      values (${this.scope.orgId}, ${values.patient_id}, ${values.patient_user_id}, ${values.provider_type}, ${values.reason}, ${values.language})
      on conflict (patient_id) where status <> 'ended' and appointment_id is null do nothing
      returning id`.execute(this.db);
    if (inserted.rows[0]) return { id: inserted.rows[0].id, created: true };
    const open = await this.db
      .selectFrom('chat_conversations')
      .select('id')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', values.patient_id)
      .where('status', '<>', 'ended')
      .where('appointment_id', 'is', null)
      .executeTakeFirst();
    if (open) return { id: open.id, created: false };
    // It ended between the two statements: try once more.
    return this.join(values);
  }

  /**
   * Takes a queued conversation for a provider: the chosen one, or the next of the queues they
   * serve. One conditional UPDATE: two providers never take the same patient.
   */
  async take(providerUserId: number, types: readonly ChatProviderType[], conversationId?: number): Promise<ConversationRow | undefined> {
    const chosen =
      conversationId !== undefined
        ? sql<number>`${conversationId}`
        : sql<number>`(select id from chat_conversations
             where org_id = ${this.scope.orgId} and status = 'queued' and provider_type = any(${sql.val([...types])}::text[])
               and patient_seen_at > now() - ${sql.lit(`${CHAT_PRESENCE_TTL_MS} milliseconds`)}::interval
             order by queued_at, id limit 1 for update skip locked)`;
    const result = await sql<ConversationRow>`
      update chat_conversations set status = 'active', provider_user_id = ${providerUserId}, started_at = now()
      where id = ${chosen} and org_id = ${this.scope.orgId} and status = 'queued' and provider_type = any(${sql.val([...types])}::text[])
      returning *`.execute(this.db);
    return result.rows[0];
  }

  /** Ends an open conversation (once: a second end answers undefined). */
  async end(id: number, endedBy: number | null, reason: ChatEndReason): Promise<ConversationRow | undefined> {
    return this.db
      .updateTable('chat_conversations')
      .set({ status: 'ended', ended_at: sql`now()`, ended_by: endedBy, end_reason: reason })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .where('status', '<>', 'ended')
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * A video visit's chat: made active between the appointment's patient and provider, or the one
   * the appointment already has. One statement, whoever asks at once (the unique index on
   * appointment_id decides); made only while the visit is active. Undefined when it is not.
   */
  async openForAppointment(values: { appointment_id: number; patient_id: number; patient_user_id: number; provider_user_id: number; reason: string; language: string }): Promise<ConversationRow | undefined> {
    const result = await sql<ConversationRow>`
      insert into chat_conversations (org_id, patient_id, patient_user_id, provider_user_id, provider_type, reason, language, status, started_at, appointment_id)
      select ${this.scope.orgId}, ${values.patient_id}, ${values.patient_user_id}, ${values.provider_user_id}, 'provider', ${values.reason}, ${values.language}, 'active', now(), ${values.appointment_id}
      where exists (select 1 from visits where appointment_id = ${values.appointment_id} and org_id = ${this.scope.orgId} and status = 'active')
      on conflict (appointment_id) where appointment_id is not null do update set appointment_id = excluded.appointment_id
      returning *`.execute(this.db);
    return result.rows[0] ?? (await this.forAppointment(values.appointment_id));
  }

  /** The chat of an appointment's video visit, if it has one. */
  forAppointment(appointmentId: number): Promise<ConversationRow | undefined> {
    return this.db.selectFrom('chat_conversations').selectAll().where('org_id', '=', this.scope.orgId).where('appointment_id', '=', appointmentId).executeTakeFirst();
  }

  /** The waiting patients of the organisation (present ones only), in queue order, with their position in their own queue. */
  async queue(types?: readonly ChatProviderType[]): Promise<Array<ConversationView & { position: number }>> {
    let query = this.liveHelp()
      .select(sql<number>`(row_number() over (partition by c.provider_type order by c.queued_at, c.id))::int`.as('position'))
      .where('c.status', '=', 'queued')
      .where('c.patient_seen_at', '>', sql<Date>`now() - ${sql.lit(`${CHAT_PRESENCE_TTL_MS} milliseconds`)}::interval`);
    if (types) query = query.where('c.provider_type', 'in', [...types]);
    return (await query.orderBy('c.queued_at').orderBy('c.id').execute()) as Array<ConversationView & { position: number }>;
  }
}

/**
 * One patient's conversations, built for the patient's scope: what the patient (or someone
 * acting for them) opens, lists and joins. Staff's side (the queue, taking, their own chats)
 * stays with the organisation's repository above.
 */
export class PatientChatRepository {
  private readonly all: ChatRepository;

  constructor(
    db: Db,
    private readonly scope: PatientScope,
  ) {
    this.all = new ChatRepository(db, { orgId: scope.orgId });
  }

  /** The patient's open conversation (only one the given user joined, when given). */
  open(joinedBy?: number): Promise<ConversationView | undefined> {
    return this.all.openForPatient(this.scope.patientId, joinedBy);
  }

  list(): Promise<ConversationView[]> {
    return this.all.listForPatient(this.scope.patientId);
  }

  join(values: { patient_user_id: number; provider_type: ChatProviderType; reason: string; language: string }): Promise<{ id: number; created: boolean }> {
    return this.all.join({ ...values, patient_id: this.scope.patientId });
  }
}

/**
 * A chat staff member's side, built for their care-team scope: the queues of the types they serve
 * and the conversations they took, nothing of a colleague's.
 */
export class StaffChatRepository {
  private readonly all: ChatRepository;

  constructor(
    db: Db,
    private readonly scope: CareTeamScope,
  ) {
    this.all = new ChatRepository(db, { orgId: scope.orgId });
  }

  /** One of their live-help conversations (undefined for anyone else's; a video visit's chat goes by its appointment's rule). */
  async view(id: number): Promise<ConversationView | undefined> {
    const row = await this.all.view(id);
    return row && row.provider_user_id === this.scope.staffUserId && row.appointment_id === null ? row : undefined;
  }

  /** The row of one of their live-help conversations (undefined for anyone else's): what each of their socket's frames is checked against. */
  async conversation(id: number): Promise<ConversationRow | undefined> {
    const row = await this.all.row(id);
    return row && row.provider_user_id === this.scope.staffUserId && row.appointment_id === null ? row : undefined;
  }

  /** Their conversations, newest first; optionally with one patient. */
  list(patientId?: number): Promise<ConversationView[]> {
    return this.all.listForProvider(this.scope.staffUserId, patientId);
  }

  /** Their active conversations (a socket is in these). */
  active(): Promise<ConversationView[]> {
    return this.all.activeForProvider(this.scope.staffUserId);
  }

  /** The waiting patients of the queues they serve. */
  queue(): Promise<Array<ConversationView & { position: number }>> {
    return this.all.queue(this.scope.chatTypes);
  }

  /** Takes a waiting patient of one of `types` (narrowed to those served): the chosen one or the next. */
  take(types: readonly ChatProviderType[], conversationId?: number): Promise<ConversationRow | undefined> {
    const served = types.filter((t) => this.scope.chatTypes.includes(t));
    return served.length === 0 ? Promise.resolve(undefined) : this.all.take(this.scope.staffUserId, served, conversationId);
  }
}

/** Chat rows across organisations: what a socket and the sweep touch by conversation id. */
export class ChatStore {
  constructor(private readonly db: Db) {}

  conversation(id: number): Promise<ConversationRow | undefined> {
    return this.db.selectFrom('chat_conversations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Stores a message, in one statement with its check: only while the conversation is open
   * (`requireOpen`; the exit notice is written after the end). A message with a client id already
   * stored for this sender answers the stored one (`duplicate`): a message re-sent after a
   * reconnect is kept once. Null: the conversation is over, nothing stored.
   */
  async insertMessage(message: NewMessage, requireOpen = true): Promise<{ row: MessageRow; duplicate: boolean } | null> {
    const inserted = await sql<MessageRow>`
      insert into chat_messages (conversation_id, sender_user_id, sender_name, sender_role, kind, body, content_type, file_key, file_name, file_size, client_message_id)
      select ${message.conversation_id}, ${message.sender_user_id ?? null}, ${message.sender_name}, ${message.sender_role}, ${message.kind}, ${message.body},
             ${message.content_type}, ${message.file_key ?? null}, ${message.file_name ?? null}, ${message.file_size ?? null}, ${message.client_message_id ?? null}
      where ${requireOpen ? sql`exists (select 1 from chat_conversations where id = ${message.conversation_id} and status <> 'ended')` : sql`true`}
      on conflict (conversation_id, sender_user_id, client_message_id) where client_message_id is not null do nothing
      returning *`.execute(this.db);
    if (inserted.rows[0]) return { row: inserted.rows[0], duplicate: false };
    if (message.client_message_id == null) return null;
    const existing = await this.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('conversation_id', '=', message.conversation_id)
      .where('sender_user_id', '=', message.sender_user_id ?? null)
      .where('client_message_id', '=', message.client_message_id)
      .executeTakeFirst();
    return existing ? { row: existing, duplicate: true } : null;
  }

  messages(conversationId: number, afterId = 0): Promise<MessageRow[]> {
    return this.db.selectFrom('chat_messages').selectAll().where('conversation_id', '=', conversationId).where('id', '>', afterId).orderBy('id').execute();
  }

  message(id: number): Promise<MessageRow | undefined> {
    return this.db.selectFrom('chat_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The patient is still there (a socket open on some process). */
  async touch(conversationIds: readonly number[]): Promise<void> {
    if (conversationIds.length === 0) return;
    await this.db.updateTable('chat_conversations').set({ patient_seen_at: sql`now()` }).where('id', 'in', [...conversationIds]).where('status', '<>', 'ended').execute();
  }

  /** A queued patient's place in their queue (present patients only); null once not queued. */
  async position(conversationId: number): Promise<number | null> {
    const result = await sql<{ position: number | null }>`
      select case when c.status = 'queued' then (
        select count(*)::int from chat_conversations q
        where q.org_id = c.org_id and q.provider_type = c.provider_type and q.status = 'queued'
          and (q.queued_at, q.id) <= (c.queued_at, c.id)
          and (q.id = c.id or q.patient_seen_at > now() - ${sql.lit(`${CHAT_PRESENCE_TTL_MS} milliseconds`)}::interval)
      ) end as position
      from chat_conversations c where c.id = ${conversationId}`.execute(this.db);
    return result.rows[0]?.position ?? null;
  }

  /**
   * Conversations whose patient has gone: queued and not seen for the presence window
   * (abandoned), or active and not seen for `activeGoneMs` (timed out). Claimed with SKIP LOCKED
   * so that one process ends each. A video visit's chat is not live help's to time out: it goes
   * with its visit, and is here only if the visit ended or its window closed without ending it.
   */
  async gone(activeGoneMs: number): Promise<ConversationRow[]> {
    const result = await sql<ConversationRow>`
      select * from chat_conversations c
      where (c.appointment_id is null and c.status = 'queued' and c.patient_seen_at < now() - ${sql.lit(`${CHAT_PRESENCE_TTL_MS} milliseconds`)}::interval)
         or (c.appointment_id is null and c.status = 'active' and c.patient_seen_at < now() - ${sql.lit(`${activeGoneMs} milliseconds`)}::interval)
         or (c.appointment_id is not null and c.status = 'active' and exists (
              select 1 from visits v join appointments a on a.id = v.appointment_id
              where v.appointment_id = c.appointment_id and (v.status = 'ended' or greatest(a.end_time, coalesce(v.extended_until, a.end_time)) < now())))
      limit 500`.execute(this.db);
    return result.rows;
  }
}
