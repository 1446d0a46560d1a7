import { sql } from 'kysely';
import type { Db } from '../db/client';

/** The installation as a whole (no organisation's scope): whether it has been set up at all. */
export class InstallationRepository {
  constructor(private readonly db: Db) {}

  /** Whether any organisation exists, and any active super admin. */
  state(): Promise<{ has_org: boolean; has_superadmin: boolean }> {
    return this.db
      .selectNoFrom([
        sql<boolean>`exists (select 1 from organizations)`.as('has_org'),
        sql<boolean>`exists (select 1 from users where is_superadmin and is_active)`.as('has_superadmin'),
      ])
      .executeTakeFirstOrThrow();
  }
}
