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

  list(): Promise<OrganizationRow[]> {
    return this.db.selectFrom('organizations').select(COLUMNS).orderBy('name').execute();
  }
}
