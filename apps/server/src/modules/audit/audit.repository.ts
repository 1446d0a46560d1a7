import type { Db } from '../../db/client';

export type AuditOutcome = 'success' | 'failure' | 'denied';

export interface AuditRow {
  action: string;
  outcome: AuditOutcome;
  actor_user_id: number | null;
  org_id: number | null;
  ip: string | null;
  subject: string | null;
  detail: Record<string, string | number | boolean | null>;
}

/** The audit trail is append-only: rows are written, never changed here. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async insert(row: AuditRow): Promise<void> {
    await this.insertMany([row]);
  }

  /** Several events in one statement (a list that shows many patients' data: one row per patient). */
  async insertMany(rows: readonly AuditRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 1000) {
      await this.db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 1000).map((row) => ({ ...row, detail: JSON.stringify(row.detail) })))
        .execute();
    }
  }
}
