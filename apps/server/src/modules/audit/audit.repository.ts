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
    await this.db
      .insertInto('audit_log')
      .values({ ...row, detail: JSON.stringify(row.detail) })
      .execute();
  }
}
