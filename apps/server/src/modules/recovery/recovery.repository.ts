import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** The account fields password recovery needs, and the password change itself. */
export class RecoveryRepository {
  constructor(private readonly db: Db) {}

  /** An account by id with its organisation (the uid of a reset link names no organisation). */
  findAccount(userId: number) {
    return this.db
      .selectFrom('users as u')
      .innerJoin('organizations as o', 'o.id', 'u.org_id')
      .select(['u.id', 'u.org_id', 'u.email', 'u.first_name', 'u.is_active', 'u.settings', 'o.name as org_client_id', 'o.org_name'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Sets a new password hash. Completing a reset proves the address as a confirmation link
   * would, so an unconfirmed address becomes confirmed.
   */
  async setPassword(userId: number, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        password_changed_at: sql`now()`,
        updated_at: sql`now()`,
        email_confirmed_at: sql`coalesce(email_confirmed_at, now())`,
      })
      .where('id', '=', userId)
      .execute();
  }
}
