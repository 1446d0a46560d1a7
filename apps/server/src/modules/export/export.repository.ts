import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';

export interface NewExport {
  user_id: number;
  patient_id: number;
  token_hash: string;
  storage_key: string;
  records: number;
  expires_at: Date;
}

/** One organisation's PDF exports (the link's token kept as its hash only). */
export class ExportsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  async insert(row: NewExport): Promise<{ id: number; created_at: Date; expires_at: Date }> {
    const created = await this.db
      .insertInto('exports')
      .values({ org_id: this.scope.orgId, ...row })
      .returning(['id', 'created_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { id: created.id, created_at: new Date(created.created_at), expires_at: new Date(created.expires_at) };
  }

  /** The export a token opens while it lives (expires_at in the future, by the database's clock), whoever made it. */
  findLive(tokenHash: string) {
    return this.db
      .selectFrom('exports')
      .select(['id', 'user_id', 'patient_id', 'storage_key', 'created_at'])
      .where('org_id', '=', this.scope.orgId)
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
  }

  /**
   * Removes expired exports, at most `limit`, and their files: the rows are claimed (FOR UPDATE
   * SKIP LOCKED, so each is removed by one of several processes), `removeFile` is called for each,
   * and only the rows whose file went are deleted (the others are tried again next time).
   * Across organisations: the cleanup job's own work.
   */
  static async removeExpired(db: Db, removeFile: (key: string) => Promise<boolean>, limit = 500): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const expired = await trx.selectFrom('exports').select(['id', 'storage_key']).where('expires_at', '<=', sql<Date>`now()`).orderBy('id').limit(limit).forUpdate().skipLocked().execute();
      const gone: number[] = [];
      for (const row of expired) if (await removeFile(row.storage_key)) gone.push(row.id);
      if (gone.length > 0) await trx.deleteFrom('exports').where('id', 'in', gone).execute();
      return gone.length;
    });
  }
}
