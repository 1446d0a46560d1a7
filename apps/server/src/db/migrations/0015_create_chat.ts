import { sql, type Kysely } from 'kysely';

/**
 * Live chat (hub document §3, §4, §7). A conversation is a patient's request for a chat: queued in
 * its organisation's queue for a provider type, then active once a provider or peer coach takes
 * it, then ended. The queue *is* this table (status 'queued', in order of queued_at, id): every
 * server process reads the same queue, and taking a patient is one conditional UPDATE.
 * `patient_seen_at` is refreshed while the patient has a socket open on any process; a queued
 * conversation not seen for a minute (its process died, its browser went away) is ended as
 * abandoned by the sweep. At most one open conversation per patient.
 *
 * Messages are stored before they are acknowledged or relayed; a client's own id for a message
 * makes a message re-sent after a reconnect stored once. Files live in storage (`file_key`).
 * Tickets open one socket each: only their SHA-256 is kept, used once, within 30 seconds; they
 * carry the language the app asked for them in (a browser's socket cannot say it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table chat_conversations (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      patient_user_id integer not null references users(id) on delete cascade,
      provider_user_id integer references users(id) on delete set null,
      provider_type text not null check (provider_type in ('coach', 'provider')),
      reason text not null,
      language text not null default 'en',
      status text not null default 'queued' check (status in ('queued', 'active', 'ended')),
      queued_at timestamptz not null default now(),
      started_at timestamptz,
      ended_at timestamptz,
      ended_by integer references users(id) on delete set null,
      end_reason text check (end_reason in ('patient', 'provider', 'timeout', 'abandoned')),
      patient_seen_at timestamptz not null default now(),
      check ((status = 'ended') = (ended_at is not null)),
      check (status = 'queued' or started_at is not null or status = 'ended')
    )`.execute(db);
  await sql`create unique index chat_conversations_one_open on chat_conversations (patient_id) where status <> 'ended'`.execute(db);
  await sql`create index chat_conversations_queue on chat_conversations (org_id, provider_type, queued_at, id) where status = 'queued'`.execute(db);
  await sql`create index chat_conversations_provider on chat_conversations (provider_user_id, id)`.execute(db);
  await sql`create index chat_conversations_patient on chat_conversations (patient_id, id)`.execute(db);

  await sql`
    create table chat_messages (
      id serial primary key,
      conversation_id integer not null references chat_conversations(id) on delete cascade,
      sender_user_id integer references users(id) on delete set null,
      sender_name text not null,
      sender_role text not null check (sender_role in ('patient', 'staff')),
      kind text not null check (kind in ('text', 'file', 'greeting', 'exit')),
      body text not null,
      content_type text not null,
      file_key text,
      file_name text,
      file_size integer check (file_size >= 0),
      client_message_id text,
      created_at timestamptz not null default now(),
      check ((kind = 'file') = (file_key is not null))
    )`.execute(db);
  await sql`create index chat_messages_conversation on chat_messages (conversation_id, id)`.execute(db);
  await sql`create unique index chat_messages_client_id on chat_messages (conversation_id, sender_user_id, client_message_id) where client_message_id is not null`.execute(db);

  await sql`
    create table chat_tickets (
      ticket_hash text primary key,
      user_id integer not null references users(id) on delete cascade,
      session_id text not null,
      language text not null default 'en',
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index chat_tickets_expiry on chat_tickets (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table chat_tickets`.execute(db);
  await sql`drop table chat_messages`.execute(db);
  await sql`drop table chat_conversations`.execute(db);
}
