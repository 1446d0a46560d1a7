import { randomBytes, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { systemContext } from '../src/context';
import type { TestApp } from './build-app';
import { bearer, buildGrant, buildOrganization, buildUser, signIn } from './factories';
import type { Db } from '../src/db/client';
import type { Storage } from '../src/plugins/storage';
import { sha256 } from '../src/lib/crypto';

/**
 * A patient's data in every patient table (issue 25 §4 tests), written straight to the database
 * and the file store: `records` health records (each with a version), `files` documents with
 * their bytes, and one row (and file) of everything else. Answers the storage keys written and a
 * live share link.
 */
export async function seedPatientData(
  db: Db,
  storage: Storage,
  opts: { orgId: number; patientId: number; userId: number; providerId: number; records?: number; files?: number; tag: string },
): Promise<{ keys: string[]; share: { uid: string; token: string } }> {
  const { orgId, patientId, userId, tag } = opts;
  const keys: string[] = [];
  const put = async (key: string, text: string) => {
    await storage.put(key, Buffer.from(text));
    keys.push(key);
  };
  const records = opts.records ?? 3;
  const recordIds: number[] = [];
  for (let start = 0; start < records; start += 500) {
    const rows = await db
      .insertInto('health_records')
      .values(
        Array.from({ length: Math.min(500, records - start) }, (_, i) => ({
          org_id: orgId,
          patient_id: patientId,
          category: 'condition',
          data: JSON.stringify({ name: `Condition ${tag} ${start + i}`, notes: `private note of ${tag}` }),
          created_by: userId,
        })),
      )
      .returning('id')
      .execute();
    recordIds.push(...rows.map((r) => r.id));
    await db
      .insertInto('health_record_versions')
      .values(rows.map((r) => ({ record_id: r.id, org_id: orgId, version: 1, action: 'create' as const, data: '{}', changes: '[]', changed_by: userId })))
      .execute();
  }
  const folder = await db.insertInto('document_folders').values({ org_id: orgId, patient_id: patientId, name: `Folder ${tag}` }).returning('id').executeTakeFirstOrThrow();
  const files = opts.files ?? 2;
  for (let i = 0; i < files; i++) {
    const key = `documents/${orgId}/${patientId}/${tag}-${i}-${randomBytes(4).toString('hex')}.txt`;
    await put(key, `document ${i} of ${tag}`);
    await db
      .insertInto('documents')
      .values({ org_id: orgId, patient_id: patientId, folder_id: i % 2 ? folder.id : null, record_id: recordIds[i % Math.max(1, recordIds.length)] ?? null, origin: i % 2 ? 'document' : 'attachment', file_name: `${tag}-${i}.txt`, content_type: 'text/plain', size: 10, storage_key: key, created_by: userId })
      .execute();
  }
  await db.insertInto('journal_entries').values({ org_id: orgId, patient_id: patientId, entry_date: '2026-01-02', title: `Journal ${tag}`, created_by: userId }).execute();
  const front = `insurance/${orgId}/${tag}-front.jpg`;
  const back = `insurance/${orgId}/${tag}-back.jpg`;
  await put(front, 'front');
  await put(back, 'back');
  await db.insertInto('insurance_cards').values({ org_id: orgId, patient_id: patientId, insurer: `Insurer ${tag}`, member_number: 'M-1', front_key: front, front_content_type: 'image/jpeg', back_key: back, back_content_type: 'image/jpeg', created_by: userId }).execute();
  const start = new Date(Date.now() + 3 * 86_400_000);
  const end = new Date(start.getTime() + 30 * 60_000);
  const event = await db
    .insertInto('calendar_events')
    .values({ org_id: orgId, patient_id: patientId, title: `Event ${tag}`, description: null, type: 'other', color: '#336699', start_time: start, end_time: end, all_day: false, recurrence: null, series_end: null, timezone: 'UTC', reminder_minutes: 30, created_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('reminders').values({ org_id: orgId, user_id: userId, event_id: event.id, appointment_id: null, occurrence_start: start, remind_at: new Date(start.getTime() - 30 * 60_000) }).execute();
  const slot = await db.insertInto('availability_slots').values({ org_id: orgId, provider_id: opts.providerId, start_time: start, end_time: end }).returning('id').executeTakeFirstOrThrow();
  const appointment = await db
    .insertInto('appointments')
    .values({ org_id: orgId, patient_id: patientId, provider_id: opts.providerId, slot_id: slot.id, start_time: start, end_time: end, reason_for_visit: `Reason of ${tag}`, booked_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('reminders').values({ org_id: orgId, user_id: userId, event_id: null, appointment_id: appointment.id, occurrence_start: start, remind_at: new Date(start.getTime() - 60 * 60_000) }).execute();
  // The visit keeps its note, one of the patient's records (migration 0041): the records go first, the visit forgets it.
  await db
    .insertInto('visits')
    .values({ org_id: orgId, appointment_id: appointment.id, patient_id: patientId, provider_id: opts.providerId, status: 'ended', admitted_at: start, ended_at: end, ended_by: opts.providerId, end_reason: 'provider', note_record_id: recordIds[0] ?? null })
    .execute();
  const conversation = await db
    .insertInto('chat_conversations')
    .values({ org_id: orgId, patient_id: patientId, patient_user_id: userId, provider_type: 'coach', reason: `Chat of ${tag}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The video visit's chat, kept with its appointment (migration 0040): erased before the appointment it points at.
  const visitChat = await db
    .insertInto('chat_conversations')
    .values({ org_id: orgId, patient_id: patientId, patient_user_id: userId, provider_user_id: opts.providerId, provider_type: 'provider', reason: 'video-visit', status: 'ended', started_at: start, ended_at: end, end_reason: 'provider', appointment_id: appointment.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('chat_messages')
    .values({ conversation_id: visitChat.id, sender_user_id: opts.providerId, sender_name: `Doctor of ${tag}`, sender_role: 'staff', kind: 'text', body: `visit chat of ${tag}`, content_type: 'text/plain', file_key: null, file_name: null, file_size: null, client_message_id: null })
    .execute();
  const chatKey = `chat/${orgId}/${conversation.id}/${tag}.pdf`;
  await put(chatKey, 'chat file');
  await db
    .insertInto('chat_messages')
    .values([
      { conversation_id: conversation.id, sender_user_id: userId, sender_name: `Sender ${tag}`, sender_role: 'patient', kind: 'text', body: `hello from ${tag}`, content_type: 'text/plain', file_key: null, file_name: null, file_size: null, client_message_id: null },
      { conversation_id: conversation.id, sender_user_id: userId, sender_name: `Sender ${tag}`, sender_role: 'patient', kind: 'file', body: '', content_type: 'application/pdf', file_key: chatKey, file_name: 'x.pdf', file_size: 9, client_message_id: null },
    ])
    .execute();
  const definition = JSON.stringify({ id: 'phq9', items: [] });
  await db
    .insertInto('survey_responses')
    .values({ org_id: orgId, patient_id: patientId, submitted_by: userId, submitted_by_name: `Name ${tag}`, survey: 'phq9', attempt_id: randomUUID(), answers: '{}', score: 3, max_score: 27, band: 'minimal', level: 1, safety: false, next_survey: null, definition })
    .execute();
  const share = { uid: `u${randomBytes(12).toString('base64url')}`, token: randomBytes(24).toString('base64url') };
  const shareRow = await db
    .insertInto('shares')
    .values({ org_id: orgId, patient_id: patientId, created_by: userId, uid: share.uid, token_hash: sha256(share.token), kind: 'records', method: 'link', recipient_name: `Dr of ${tag}`, recipient_email: `dr-${tag}@example.test`, language: 'en', message: null, categories: sql`'{}'::text[]` as never, record_ids: sql`'{}'::integer[]` as never, document_ids: sql`'{}'::integer[]` as never, expires_at: new Date(Date.now() + 86_400_000) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const session = await db.insertInto('share_sessions').values({ share_id: shareRow.id, token_hash: sha256(randomBytes(16).toString('hex')), expires_at: new Date(Date.now() + 3600_000) }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('share_accesses').values({ share_id: shareRow.id, session_id: session.id, action: 'viewed', ip: '10.0.0.1', user_agent: 'test', shown: JSON.stringify({ categories: [], records: 0, documents: 0 }) }).execute();
  const exportKey = `exports/${orgId}/${tag}.pdf`;
  await put(exportKey, 'export pdf');
  await db.insertInto('exports').values({ org_id: orgId, user_id: userId, patient_id: patientId, token_hash: sha256(randomBytes(8).toString('hex')), storage_key: exportKey, records: 1, expires_at: new Date(Date.now() + 3600_000) }).execute();
  await db.insertInto('apple_health_imports').values({ org_id: orgId, patient_id: patientId, created_by: userId, file_name: `export-${tag}.zip`, thin: 'day', time_zone: 'UTC', status: 'ready', measurements: JSON.stringify([['weight', 70, null, '2026-01-01', '2026-01-01T08:00:00.000Z']]) }).execute();
  await db
    .insertInto('invitations')
    .values({ org_id: orgId, first_name: 'Invited', last_name: tag, dob: '2010-01-01', gender: 'female', email: `inv-${tag}-${randomBytes(3).toString('hex')}@example.test`, code_hash: sha256(randomBytes(8).toString('hex')), created_by: userId, expires_at: new Date(Date.now() + 86_400_000), patient_id: patientId })
    .execute();
  return { keys, share };
}

/** Every table with a foreign key to users.id or patients.id: rows still pointing at the account or its patients; and any row of any table whose text names them. */
export async function rowsReferring(db: Db, userId: number, patientIds: readonly number[], words: readonly string[]): Promise<Record<string, number>> {
  const { rows: fks } = await sql<{ table_name: string; column_name: string; target: string }>`
    select kcu.table_name, kcu.column_name, ccu.table_name as target
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
     where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public' and ccu.table_name in ('users', 'patients') and ccu.column_name = 'id'`.execute(db);
  expect(fks.length).toBeGreaterThan(20);
  const left: Record<string, number> = {};
  for (const fk of fks) {
    const ids = fk.target === 'users' ? [userId] : patientIds;
    if (ids.length === 0) continue;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(fk.table_name)} where ${sql.ref(fk.column_name)} in (${sql.join(ids)})`.execute(db);
    if (rows[0]!.n > 0) left[`${fk.table_name}.${fk.column_name}`] = rows[0]!.n;
  }
  for (const id of patientIds) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from patients where id = ${id}`.execute(db);
    if (rows[0]!.n > 0) left[`patients.id`] = rows[0]!.n;
  }
  const { rows: users } = await sql<{ n: number }>`select count(*)::int as n from users where id = ${userId}`.execute(db);
  if (users[0]!.n > 0) left['users.id'] = users[0]!.n;
  const { rows: tables } = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(db);
  for (const { table_name } of tables) {
    for (const word of words) {
      // The outbox (mail kept without SMTP) holds what was sent to other people about the patient
      // (a provider's cancellation, a carer's notice): theirs. No message to the patient is kept.
      const text = table_name === 'mail_outbox' ? sql`lower(t.to_address)` : sql`lower(t::text)`;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table_name)} t where ${text} like ${`%${word}%`}`.execute(db);
      if (rows[0]!.n > 0) left[`${table_name} (text "${word}")`] = rows[0]!.n;
    }
  }
  // The audit trail: no row names the account or its patients any more.
  const subjects = [`user:${userId}`, ...patientIds.map((id) => `patient:${id}`)];
  const { rows: audit } = await sql<{ n: number }>`select count(*)::int as n from audit_log where actor_user_id = ${userId} or subject in (${sql.join(subjects)})`.execute(db);
  if (audit[0]!.n > 0) left['audit_log (actor or subject)'] = audit[0]!.n;
  return left;
}

async function listFiles(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
  } catch {
    return [];
  }
}

/** The whole erasure, checked: a control patient beside it, both directions of the care network, family members, an appointment, a share. */
export async function checkErasure(app: TestApp, dataDir: string | null): Promise<void> {
  const db = app.db;
  const org = await buildOrganization(app.app);
  const prov = await buildUser(app.app, { org, roles: ['provider'] });
  const mk = async (name: string) => {
    const user = await buildUser(app.app, { org, first_name: name, last_name: `${name}son`, email: `${name.toLowerCase()}@example.test` });
    const patient = await db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    return { user, patientId: patient.id };
  };
  const control = await mk(`Ctl${randomBytes(3).toString('hex')}`);
  const carer = await mk(`Car${randomBytes(3).toString('hex')}`);
  const cared = await mk(`Crd${randomBytes(3).toString('hex')}`);
  const controlData = await seedPatientData(db, app.app.storage, { orgId: org.id, patientId: control.patientId, userId: control.user.id, providerId: prov.id, tag: 'control' });
  const shared = await db.insertInto('patients').values({ org_id: org.id, user_id: null, first_name: 'Kept', last_name: 'Child' }).returning('id').executeTakeFirstOrThrow();
  await buildGrant(app.app, { patient: { id: shared.id, org_id: org.id }, grantee: cared.user, kind: 'dependant' });

  // What the database and the file store hold before the patient exists.
  const countAll = async () => {
    const { rows: tables } = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('audit_log', 'mail_outbox', 'account_closings', 'erased_shares', 'attempt_counters') order by table_name`.execute(db);
    const out: Record<string, number> = {};
    for (const { table_name } of tables) out[table_name] = (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table_name)}`.execute(db)).rows[0]!.n;
    return out;
  };
  const before = await countAll();
  const filesBefore = dataDir ? await listFiles(path.join(dataDir, 'files')) : [];

  const tag = `Zq${randomBytes(4).toString('hex')}`;
  const p = await mk(tag);
  const { keys, share } = await seedPatientData(db, app.app.storage, { orgId: org.id, patientId: p.patientId, userId: p.user.id, providerId: prov.id, records: 5, files: 4, tag });
  const avatarKey = `avatars/${tag.toLowerCase()}.png`;
  await app.app.storage.put(avatarKey, Buffer.from('avatar'));
  await db.updateTable('users').set({ avatar_key: avatarKey, avatar_content_type: 'image/png' }).where('id', '=', p.user.id).execute();
  // Family members: one only this account manages (erased with it), one shared (kept, without this account's grant).
  const sole = await db.insertInto('patients').values({ org_id: org.id, user_id: null, first_name: `${tag}kid`, last_name: 'Child' }).returning('id').executeTakeFirstOrThrow();
  await buildGrant(app.app, { patient: { id: sole.id, org_id: org.id }, grantee: p.user, kind: 'dependant', name: `${tag}kid` });
  const soleData = await seedPatientData(db, app.app.storage, { orgId: org.id, patientId: sole.id, userId: p.user.id, providerId: prov.id, tag: `${tag}kid` });
  await buildGrant(app.app, { patient: { id: shared.id, org_id: org.id }, grantee: p.user, kind: 'dependant', name: `${tag}x` });
  // The care network, both directions.
  await buildGrant(app.app, { patient: { id: p.patientId, org_id: org.id }, grantee: carer.user, name: carer.user.first_name, email: carer.user.email });
  await buildGrant(app.app, { patient: { id: cared.patientId, org_id: org.id }, grantee: p.user, name: tag, email: p.user.email });
  // The trail holds the patient's sign-ins and reads by others.
  const { access } = await signIn(app.app, p.user);
  const providerRead = await signIn(app.app, carer.user);
  expect((await app.app.inject({ method: 'GET', url: `/api/v1/hr/condition/?patient=${p.patientId}`, headers: bearer(providerRead.access) })).statusCode).toBe(200);
  await db.deleteFrom('sessions').where('user_id', '=', carer.user.id).execute();

  const closed = await app.app.inject({ method: 'POST', url: '/api/v1/me/closing/', headers: bearer(access), payload: { password: p.user.password } });
  expect(closed.statusCode).toBe(202);
  const [closing] = await db.selectFrom('account_closings').selectAll().where('user_id', '=', p.user.id).execute();
  expect(closing!.dependants).toBe(1);
  await db.updateTable('account_closings').set({ erase_after: new Date(Date.now() - 60_000) }).where('id', '=', closing!.id).execute();
  // Mail sent to the patient before: gone with the account (the outbox keeps no message to them).
  await app.app.backgroundMail.drain();
  expect((await db.selectFrom('mail_outbox').select('id').where('to_address', '=', p.user.email).execute()).length).toBeGreaterThan(0);
  const summaries = await app.app.accountClosing.eraseDue(systemContext(app.app.log));
  expect(summaries).toHaveLength(1);
  expect(summaries[0]!.filesFailed).toBe(0);
  expect(summaries[0]!.appointmentsCancelled).toBe(2);
  await app.app.backgroundMail.drain();

  expect(await rowsReferring(db, p.user.id, [p.patientId, sole.id], [tag.toLowerCase()])).toEqual({});
  // Every patient table and the account's tables hold what they held before the patient came (sessions of the test's own sign-ins aside).
  const after = await countAll();
  // (The provider's slots the patient had booked are the provider's hours: freed by the cancellation, kept.)
  expect({ ...after, sessions: 0, availability_slots: 0 }).toEqual({ ...before, sessions: 0, availability_slots: 0 });
  // Files: every key of the patient and the sole dependant gone; the control's all there.
  for (const key of [...keys, ...soleData.keys, avatarKey]) expect(await app.app.storage.get(key), key).toBeNull();
  for (const key of controlData.keys) expect(await app.app.storage.get(key), key).not.toBeNull();
  if (dataDir) expect(await listFiles(path.join(dataDir, 'files'))).toEqual(filesBefore);
  // The tombstone: no user, only the pseudonym and counts.
  const tomb = await db.selectFrom('account_closings').selectAll().where('id', '=', closing!.id).executeTakeFirstOrThrow();
  expect(tomb).toMatchObject({ status: 'erased', user_id: null });
  expect(JSON.stringify(tomb)).not.toContain(tag.toLowerCase());
  // The organisation's trail: rows kept, pseudonymised.
  const pseudonymised = await db.selectFrom('audit_log').selectAll().where('subject', '=', `closed:${tomb.pseudonym}`).execute();
  expect(pseudonymised.length).toBeGreaterThan(2);
  expect(pseudonymised.map((r) => r.action)).toEqual(expect.arrayContaining(['login', 'account_close_request', 'account_erase']));
  for (const row of pseudonymised) expect(row.detail).toMatchObject({ pseudonym: tomb.pseudonym });
  // The share's link answers as a revoked one.
  const opened = await app.app.inject({ method: 'POST', url: '/api/v1/sharing/public/open/', payload: share });
  expect(opened.statusCode).toBe(410);
  expect(opened.json()).toMatchObject({ reason: 'revoked' });
  // The other side told: the carer, the patient whose record this account saw, the provider.
  const subjects = async (to: string) => (await db.selectFrom('mail_outbox').select('subject').where('to_address', '=', to).execute()).map((r) => r.subject);
  expect(await subjects(carer.user.email)).toEqual([expect.stringContaining('closed their account')]);
  expect(await subjects(cared.user.email)).toEqual([expect.stringContaining('closed their account')]);
  expect((await subjects(prov.email)).length).toBe(2);
  expect(await subjects(p.user.email)).toEqual([]);
}
