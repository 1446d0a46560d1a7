import { sql, type Kysely } from 'kysely';

/**
 * The chat of a video visit (issue 29: "the chat of the visit beside the video, the existing chat,
 * kept with the appointment"): a chat conversation tied to its appointment, at most one per
 * appointment, made active between the patient and the provider when the provider starts the
 * visit and ended with it. It is not a live-help request: it never waits in a queue, and the
 * one-open-chat-per-patient rule of live help (chat_conversations_one_open) no longer counts it,
 * so a patient may ask live help while in a visit, and the other way round.
 *
 * The foreign key has no action: an appointment is never deleted but by the erasure, which
 * removes its chat (and the chat's files) first (erasure-plan.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chat_conversations add column appointment_id integer references appointments(id)`.execute(db);
  await sql`create unique index chat_conversations_appointment on chat_conversations (appointment_id) where appointment_id is not null`.execute(db);
  await sql`drop index chat_conversations_one_open`.execute(db);
  await sql`create unique index chat_conversations_one_open on chat_conversations (patient_id) where status <> 'ended' and appointment_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index chat_conversations_one_open`.execute(db);
  await sql`delete from chat_conversations where appointment_id is not null`.execute(db);
  await sql`create unique index chat_conversations_one_open on chat_conversations (patient_id) where status <> 'ended'`.execute(db);
  await sql`alter table chat_conversations drop column appointment_id`.execute(db);
}
