import { sql } from 'kysely';
import type { OrganizationSettingsBody, OrgRef } from '@healthbook/shared';
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
