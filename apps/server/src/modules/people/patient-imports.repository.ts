import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { PatientImportRowsTable, PatientImportRowStatus, PatientImportsTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';

export type PatientImportRecord = Selectable<PatientImportsTable>;
export type PatientImportLineRecord = Selectable<PatientImportRowsTable>;
export type ImportCounts = Record<PatientImportRowStatus, number>;

const INSERT_BATCH = 500;

/** Bulk patient imports of one organisation: the import, its rows, their progress. */
export class PatientImportsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  /** Which of these addresses the organisation already holds: an account, a pending invitation, or an import's invitation. */
  async knownEmails(emails: string[]): Promise<Set<string>> {
    if (!emails.length) return new Set();
    const org = this.scope.orgId;
    const { rows } = await sql<{ email: string }>`
      select lower(email) as email from users where org_id = ${org} and lower(email) = any(${emails}::text[])
      union select lower(email) from invitations where org_id = ${org} and used_at is null and expires_at > now() and lower(email) = any(${emails}::text[])
      union select email from patient_import_emails where org_id = ${org} and email = any(${emails}::text[])`.execute(this.db);
    return new Set(rows.map((r) => r.email));
  }

  async create(values: { created_by: number; file_name: string; file_sha256: string; total: number }): Promise<PatientImportRecord> {
    return this.db
      .insertInto('patient_imports')
      .values({ ...values, org_id: this.scope.orgId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async insertRows(importId: number, rows: Array<Omit<PatientImportRowsTable, 'id' | 'import_id' | 'org_id' | 'claimed_at' | 'invitation_id' | 'problems'> & { problems: string }>): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await this.db
        .insertInto('patient_import_rows')
        .values(rows.slice(i, i + INSERT_BATCH).map((r) => ({ ...r, import_id: importId, org_id: this.scope.orgId })))
        .execute();
    }
  }

  find(id: number): Promise<PatientImportRecord | undefined> {
    return this.db.selectFrom('patient_imports').selectAll().where('org_id', '=', this.scope.orgId).where('id', '=', id).executeTakeFirst();
  }

  async counts(importId: number): Promise<ImportCounts> {
    const rows = await this.db
      .selectFrom('patient_import_rows')
      .select(['status', sql<string>`count(*)::text`.as('n')])
      .where('org_id', '=', this.scope.orgId)
      .where('import_id', '=', importId)
      .groupBy('status')
      .execute();
    const counts: ImportCounts = { invalid: 0, ready: 0, sending: 0, sent: 0, skipped: 0, failed: 0 };
    for (const r of rows) counts[r.status] = Number(r.n);
    return counts;
  }

  async rows(importId: number, opts: { problemsOnly: boolean; page: number; pageSize: number }): Promise<{ count: number; rows: PatientImportLineRecord[] }> {
    let q = this.db.selectFrom('patient_import_rows').where('org_id', '=', this.scope.orgId).where('import_id', '=', importId);
    if (opts.problemsOnly) q = q.where(sql<boolean>`jsonb_array_length(problems) > 0 or status = 'failed'`);
    const [counted, rows] = await Promise.all([
      q.select(sql<string>`count(*)::text`.as('n')).executeTakeFirst(),
      q
        .selectAll()
        .orderBy('line')
        .limit(opts.pageSize)
        .offset((opts.page - 1) * opts.pageSize)
        .execute(),
    ]);
    return { count: Number(counted?.n ?? 0), rows };
  }

  /** preview → sending, once (two clicks at once: one starts it). */
  async start(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('patient_imports')
      .set({ status: 'sending', started_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .where('status', '=', 'preview')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

/** The job's side: rows of every organisation's imports being sent. */
export class PatientImportJobRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims up to `limit` rows ready to send (of imports being sent), across processes: a row is
   * claimed by one (SKIP LOCKED). Rows claimed long ago by a process that died go back first.
   */
  async claim(limit: number): Promise<PatientImportLineRecord[]> {
    await sql`update patient_import_rows set status = 'ready', claimed_at = null where status = 'sending' and claimed_at < now() - interval '10 minutes'`.execute(this.db);
    const { rows } = await sql<PatientImportLineRecord>`
      update patient_import_rows set status = 'sending', claimed_at = now()
       where id in (
         select r.id from patient_import_rows r join patient_imports i on i.id = r.import_id
          where i.status = 'sending' and r.status = 'ready'
          order by r.import_id, r.line limit ${limit}
          for update of r skip locked)
      returning *`.execute(this.db);
    return rows;
  }

  /** Takes the address for the import: false when an import of the organisation already invited it. */
  async takeEmail(orgId: number, email: string, importId: number): Promise<boolean> {
    const row = await this.db
      .insertInto('patient_import_emails')
      .values({ org_id: orgId, email, import_id: importId })
      .onConflict((oc) => oc.columns(['org_id', 'email']).doNothing())
      .returning('email')
      .executeTakeFirst();
    return row !== undefined;
  }

  async releaseEmail(orgId: number, email: string, importId: number): Promise<void> {
    await this.db.deleteFrom('patient_import_emails').where('org_id', '=', orgId).where('email', '=', email).where('import_id', '=', importId).execute();
  }

  async finishRow(id: number, status: 'sent' | 'skipped' | 'failed', invitationId: number | null = null): Promise<void> {
    await this.db.updateTable('patient_import_rows').set({ status, invitation_id: invitationId }).where('id', '=', id).execute();
  }

  /** Imports with nothing left to send are done. */
  async finishImports(): Promise<number> {
    const result = await sql`
      update patient_imports i set status = 'done', finished_at = now()
       where i.status = 'sending' and not exists (select 1 from patient_import_rows r where r.import_id = i.id and r.status in ('ready', 'sending'))`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  async importOrg(importId: number): Promise<{ org_id: number; created_by: number | null } | undefined> {
    return this.db.selectFrom('patient_imports').select(['org_id', 'created_by']).where('id', '=', importId).executeTakeFirst();
  }
}
