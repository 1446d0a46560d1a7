import { sql } from 'kysely';
import type { OrganizationSettingsBody, OrgRef, UpdateOrganizationFields } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { prepare } from '../../db/prepared';
import type { Organization } from '../../db/schema';

/** The columns presenters use; storage keys of assets stay on the server. */
const COLUMNS = [
  'id',
  'name',
  'org_name',
  'org_short_name',
  'primary_color',
  'logo_key',
  'logo_content_type',
  'favicon_key',
  'favicon_content_type',
  'video_channel_url',
  'emergency_number',
  'crisis_lines',
  'support_email',
  'support_phone',
  'deactivated_at',
  'created_at',
  'updated_at',
] as const;
export type OrganizationRow = Pick<Organization, (typeof COLUMNS)[number]>;

/** Every page's first call: compiled once (the SQL does not depend on the database instance). */
let findByNameQuery: ((db: Db, name: string) => Promise<OrganizationRow[]>) | undefined;

/** Organisations are the tenants themselves: looked up by their client id, publicly. */
export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  async findByName(name: string): Promise<OrganizationRow | undefined> {
    findByNameQuery ??= prepare<OrganizationRow, [string]>(() =>
      this.db.selectFrom('organizations').select(COLUMNS).where('name', '=', ''),
    );
    const rows = await findByNameQuery(this.db, name.toLowerCase());
    return rows[0];
  }

  findById(id: number): Promise<OrganizationRow | undefined> {
    return this.db.selectFrom('organizations').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** An organisation as clients name it: by id, or by client id (case-insensitive). */
  resolve(ref: OrgRef): Promise<OrganizationRow | undefined> {
    return typeof ref === 'number' ? this.findById(ref) : this.findByName(ref);
  }

  /** Changes an organisation's settings (a new updated_at also changes its asset addresses' version). */
  async updateSettings(id: number, settings: OrganizationSettingsBody): Promise<void> {
    const { crisis_lines, ...rest } = settings;
    const lines = crisis_lines?.map((l) => ({ number: l.number, name_en: l.name.en, name_el: l.name.el }));
    await this.db
      .updateTable('organizations')
      .set({ ...rest, ...(lines ? { crisis_lines: JSON.stringify(lines) } : {}), updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** A new organisation, without logo or favicon yet. Throws the unique violation organizations_name_key when the client id is taken. */
  async create(values: { name: string; org_name: string; org_short_name: string; primary_color: string }): Promise<number> {
    const row = await this.db
      .insertInto('organizations')
      .values({ ...values, logo_key: null, logo_content_type: null, favicon_key: null, favicon_content_type: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  list(): Promise<OrganizationRow[]> {
    return this.db.selectFrom('organizations').select(COLUMNS).orderBy('name').execute();
  }
}

export type OrganizationWithCounts = OrganizationRow & { users: number; patients: number };

/** The columns a change by a super admin writes: names, client id, colour and the settings. */
function changes(fields: UpdateOrganizationFields) {
  const { crisis_lines, ...rest } = fields;
  const lines = crisis_lines?.map((l) => ({ number: l.number, name_en: l.name.en, name_el: l.name.el }));
  return { ...rest, ...(lines ? { crisis_lines: JSON.stringify(lines) } : {}) };
}

/**
 * The organisations as super admins manage them: every organisation, with its people counted;
 * creation, changes, assets and status. Organisations are the tenants themselves, so no scope.
 */
export class OrganizationAdminRepository {
  constructor(private readonly db: Db) {}

  private withCounts() {
    return this.db
      .selectFrom('organizations as o')
      .select(COLUMNS.map((c) => `o.${c}` as const))
      .select((eb) => [
        eb.selectFrom('users as u').whereRef('u.org_id', '=', 'o.id').select(eb.fn.countAll<string>().as('n')).as('users'),
        eb.selectFrom('patients as p').whereRef('p.org_id', '=', 'o.id').select(eb.fn.countAll<string>().as('n')).as('patients'),
      ]);
  }

  async list(): Promise<OrganizationWithCounts[]> {
    const rows = await this.withCounts().orderBy('o.name').execute();
    return rows.map((r) => ({ ...r, users: Number(r.users ?? 0), patients: Number(r.patients ?? 0) }));
  }

  async find(id: number): Promise<OrganizationWithCounts | undefined> {
    const row = await this.withCounts().where('o.id', '=', id).executeTakeFirst();
    return row && { ...row, users: Number(row.users ?? 0), patients: Number(row.patients ?? 0) };
  }

  /** Whether another organisation already has this client id. */
  async nameTaken(name: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('organizations').select('id').where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async create(fields: UpdateOrganizationFields & { name: string; org_name: string; org_short_name: string; primary_color: string }): Promise<number> {
    const row = await this.db.insertInto('organizations').values(changes(fields) as never).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, fields: UpdateOrganizationFields): Promise<void> {
    await this.db
      .updateTable('organizations')
      .set({ ...changes(fields), updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
  }

  /** Points the organisation at a new logo or favicon; answers the key it had (to delete after). */
  async setAsset(id: number, asset: 'logo' | 'favicon', value: { key: string; contentType: string } | null): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('organizations').select(['logo_key', 'favicon_key']).where('id', '=', id).forUpdate().executeTakeFirst();
      const set = asset === 'logo' ? { logo_key: value?.key ?? null, logo_content_type: value?.contentType ?? null } : { favicon_key: value?.key ?? null, favicon_content_type: value?.contentType ?? null };
      await trx.updateTable('organizations').set({ ...set, updated_at: sql`now()` }).where('id', '=', id).execute();
      return (asset === 'logo' ? before?.logo_key : before?.favicon_key) ?? null;
    });
  }

  /**
   * Deactivates (ends every session of its members, in the same transaction) or reactivates an
   * organisation. Answers false when it already had that status.
   */
  async setActive(id: number, active: boolean, record: (trx: Db) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('organizations')
        .set({ deactivated_at: active ? null : sql`now()`, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('deactivated_at', active ? 'is not' : 'is', null)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) return false;
      if (!active) {
        await trx
          .updateTable('sessions')
          .set({ revoked_at: sql`now()`, revoked_reason: 'organization_deactivated' })
          .where('revoked_at', 'is', null)
          .where('user_id', 'in', (eb) => eb.selectFrom('users').select('users.id').where('users.org_id', '=', id))
          .execute();
      }
      await record(trx);
      return true;
    });
  }
}
