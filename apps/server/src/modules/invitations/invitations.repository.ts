import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { InvitationsTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';

export type InvitationRow = Selectable<InvitationsTable>;

/** A pending invitation: not used and not expired. */
const PENDING = sql<boolean>`used_at is null and expires_at > now()`;

/**
 * The pending invitation behind an access code, in any organisation. The code (2^50, only its
 * hash stored, unique) is the capability of whoever holds it, so this lookup needs no scope;
 * the caller compares the organisation when the client named one.
 */
export function findPendingByCode(db: Db, codeHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('code_hash', '=', codeHash).where(PENDING).executeTakeFirst();
}

/** Invitations of one organisation. */
export class InvitationsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  insert(values: {
    first_name: string;
    last_name: string;
    dob: string;
    gender: string;
    email: string;
    code_hash: string;
    created_by: number | null;
    expires_at: Date;
    /** A family member's patient: the account made with this invitation becomes it. */
    patient_id?: number | null;
  }): Promise<InvitationRow> {
    return this.db
      .insertInto('invitations')
      .values({ ...values, org_id: this.scope.orgId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('invitations').where('org_id', '=', this.scope.orgId).where('id', '=', id).execute();
  }

  list(): Promise<InvitationRow[]> {
    return this.db
      .selectFrom('invitations')
      .selectAll()
      .where('org_id', '=', this.scope.orgId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The newest pending invitation for this person (names case-insensitive). */
  findPendingByPerson(firstName: string, lastName: string, dob: string): Promise<InvitationRow | undefined> {
    return this.db
      .selectFrom('invitations')
      .selectAll()
      .where('org_id', '=', this.scope.orgId)
      .where('dob', '=', dob)
      .where(sql`lower(first_name)`, '=', firstName.trim().toLowerCase())
      .where(sql`lower(last_name)`, '=', lastName.trim().toLowerCase())
      .where(PENDING)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Gives a pending invitation a new code and a new expiry; answers undefined when it is no longer pending. */
  rotateCode(id: number, codeHash: string, expiresAt: Date): Promise<InvitationRow | undefined> {
    return this.db
      .updateTable('invitations')
      .set({ code_hash: codeHash, expires_at: expiresAt })
      .where('org_id', '=', this.scope.orgId)
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
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .where(PENDING)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setUser(id: number, userId: number): Promise<void> {
    await this.db.updateTable('invitations').set({ user_id: userId }).where('org_id', '=', this.scope.orgId).where('id', '=', id).execute();
  }
}
