import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { runNamed } from '../../db/prepared';
import type { OrgScope } from '../../db/scope';

/** A patient as the app handles it: an account's own names and date of birth, or the patient's own when it has no account. */
export interface PatientRow {
  id: number;
  org_id: number;
  user_id: number | null;
  first_name: string;
  last_name: string;
  dob: string | null;
  gender: string | null;
  /** Moves on with every change of the patient's records and documents (see migration 0009). */
  data_version: string;
}

/** The patients of one organisation. */
export class PatientsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private select() {
    return this.db
      .selectFrom('patients as p')
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .select([
        'p.id',
        'p.org_id',
        'p.user_id',
        sql<string>`coalesce(u.first_name, p.first_name, '')`.as('first_name'),
        sql<string>`coalesce(u.last_name, p.last_name, '')`.as('last_name'),
        sql<string | null>`to_char(coalesce(u.dob, p.dob), 'YYYY-MM-DD')`.as('dob'),
        sql<string | null>`coalesce(u.gender, p.gender)`.as('gender'),
        sql<string>`p.data_version::text`.as('data_version'),
      ])
      .where('p.org_id', '=', this.scope.orgId);
  }

  findById(id: number): Promise<PatientRow | undefined> {
    return runNamed(this.db, this.select().where('p.id', '=', id)).then(([row]) => row);
  }

  /** The patient an account is (every account is one). */
  findByUser(userId: number): Promise<PatientRow | undefined> {
    return runNamed(this.db, this.select().where('p.user_id', '=', userId)).then(([row]) => row);
  }
}
