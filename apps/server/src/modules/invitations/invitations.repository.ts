import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { InvitationsTable } from '../../db/schema';
import type { Selectable } from 'kysely';

export type InvitationRow = Selectable<InvitationsTable>;

/** A pending invitation: not used and not expired. */
const PENDING = sql<boolean>`used_at is null and expires_at > now()`;

/** Invitations are tenant data: every lookup names its organisation (or is by the globally unique code hash). */
export class InvitationsRepository {
  constructor(private readonly db: Db) {}

  insert(values: {
    org_id: number;
    first_name: string;
    last_name: string;
    dob: string;
    gender: string;
    email: string;
    code_hash: string;
    created_by: number | null;
    expires_at: Date;
  }): Promise<InvitationRow> {
    return this.db.insertInto('invitations').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('invitations').where('id', '=', id).execute();
  }

  listForOrg(orgId: number): Promise<InvitationRow[]> {
    return this.db.selectFrom('invitations').selectAll().where('org_id', '=', orgId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** The pending invitation with this code hash, within one organisation, or (orgId null) in any. */
  findPendingByCode(orgId: number | null, codeHash: string): Promise<InvitationRow | undefined> {
    let q = this.db.selectFrom('invitations').selectAll().where('code_hash', '=', codeHash).where(PENDING);
    if (orgId !== null) q = q.where('org_id', '=', orgId);
    return q.executeTakeFirst();
  }

  /** The newest pending invitation of the organisation for this person (names case-insensitive). */
  findPendingByPerson(orgId: number, firstName: string, lastName: string, dob: string): Promise<InvitationRow | undefined> {
    return this.db
      .selectFrom('invitations')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('dob', '=', dob)
      .where(sql`lower(first_name)`, '=', firstName.trim().toLowerCase())
      .where(sql`lower(last_name)`, '=', lastName.trim().toLowerCase())
      .where(PENDING)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Gives a pending invitation a new code and a new expiry; answers false when it is no longer pending. */
  async rotateCode(id: number, codeHash: string, expiresAt: Date): Promise<InvitationRow | undefined> {
    return this.db
      .updateTable('invitations')
      .set({ code_hash: codeHash, expires_at: expiresAt })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Claims a pending invitation for a registration (conditional update: of two concurrent
   * registrations with one code, only one claims it; the other waits for the row and finds it used).
   */
  async claim(id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('invitations')
      .set({ used_at: sql`now()` })
      .where('id', '=', id)
      .where(PENDING)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setUser(id: number, userId: number): Promise<void> {
    await this.db.updateTable('invitations').set({ user_id: userId }).where('id', '=', id).execute();
  }

  /** Whether the organisation already has an account with this e-mail address (case-insensitive). */
  async emailHasAccount(orgId: number, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', orgId)
      .where(sql`lower(email)`, '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  }
}
