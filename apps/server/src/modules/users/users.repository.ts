import { sql, type Selectable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Db } from '../../db/client';
import { prepare } from '../../db/prepared';
import type { UsersTable } from '../../db/schema';

export type UserRecord = Selectable<UsersTable> & {
  org_name: string;
  org_client_id: string;
  mfa_devices: Array<{ uuid: string; device_type: 'email' | 'google' }>;
};
export type SessionUserRecord = UserRecord & { session_access: 'full' | 'limited' };

function withOrgAndDevices(db: Db) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.org_id')
    .selectAll('u')
    .select(['o.org_name', 'o.name as org_client_id'])
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('mfa_devices as d')
          .select(['d.uuid', 'd.device_type'])
          .whereRef('d.user_id', '=', 'u.id')
          .where(sql<boolean>`d.confirmed`)
          .orderBy('d.created_at'),
      ).as('mfa_devices'),
    );
}

/** The request's session and its user in one round trip (every authenticated request). */
let sessionUserQuery: ((db: Db, sid: string) => Promise<SessionUserRecord[]>) | undefined;

/** Users are tenant data: every lookup is scoped to one organisation, or by the session that proves it. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findBySession(sessionId: string): Promise<SessionUserRecord | undefined> {
    sessionUserQuery ??= prepare<SessionUserRecord, [string]>(() =>
      withOrgAndDevices(this.db)
        .innerJoin('sessions as s', 's.user_id', 'u.id')
        .select('s.access as session_access')
        .where('s.id', '=', '00000000-0000-0000-0000-000000000000')
        .where(sql<boolean>`s.revoked_at is null and s.expires_at > now() and u.is_active`),
    );
    return (await sessionUserQuery(this.db, sessionId))[0];
  }

  findById(orgId: number, id: number): Promise<UserRecord | undefined> {
    return withOrgAndDevices(this.db).where('u.org_id', '=', orgId).where('u.id', '=', id).executeTakeFirst();
  }

  findByEmail(orgId: number, email: string): Promise<UserRecord | undefined> {
    return withOrgAndDevices(this.db)
      .where('u.org_id', '=', orgId)
      .where(sql`lower(u.email)`, '=', email.trim().toLowerCase())
      .executeTakeFirst();
  }
}
