import { sql, type Kysely } from 'kysely';

/**
 * "Who saw my record" (the care network's access log) reads a patient's audit trail, newest
 * first: every row whose subject is `patient:<id>` in the organisation. This index serves it
 * without scanning the organisation's whole trail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index audit_log_org_subject_at on audit_log (org_id, subject, at desc, id desc) where subject like 'patient:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index audit_log_org_subject_at`.execute(db);
}
