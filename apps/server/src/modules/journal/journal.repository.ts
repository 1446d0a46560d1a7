import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { PatientScope } from '../patients/patient-scope';


export interface JournalRow {
  id: number;
  patient_id: number;
  entry_date: string;
  title: string;
  text: string;
  mood: number | null;
  tags: string[];
  private: boolean;
  created_at: string;
  updated_at: string;
}

export interface JournalValues {
  entry_date: string;
  title: string;
  text: string;
  mood: number | null;
  tags: string[];
  private: boolean;
  search_text: string;
}

const isoTime = (column: 'created_at' | 'updated_at') =>
  sql<string>`to_char(${sql.ref(`journal_entries.${column}`)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(column);

const columns = [
  'journal_entries.id',
  'journal_entries.patient_id',
  sql<string>`to_char(journal_entries.entry_date, 'YYYY-MM-DD')`.as('entry_date'),
  'journal_entries.title',
  'journal_entries.text',
  'journal_entries.mood',
  'journal_entries.tags',
  'journal_entries.private',
  isoTime('created_at'),
  isoTime('updated_at'),
] as const;

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface JournalFilter {
  /** Already folded (searchKey). */
  search?: string | undefined;
  tag?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

export class JournalRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  private base(filter: JournalFilter) {
    let query = this.db.selectFrom('journal_entries').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId);
    if (!this.scope.includePrivate) query = query.where('private', '=', false);
    if (filter.search) query = query.where('search_text', 'like', containing(filter.search));
    if (filter.tag) query = query.where(sql<boolean>`lower(${filter.tag}) = any (select lower(t) from unnest(journal_entries.tags) t)`);
    if (filter.dateFrom) query = query.where('entry_date', '>=', filter.dateFrom);
    if (filter.dateTo) query = query.where('entry_date', '<=', filter.dateTo);
    return query;
  }

  /** A page, newest first, and the total. */
  async list(filter: JournalFilter, limit: number, offset: number): Promise<{ count: number; rows: JournalRow[] }> {
    const query = this.base(filter);
    const [counted, rows] = await Promise.all([
      query.select(sql<string>`count(*)`.as('count')).executeTakeFirstOrThrow(),
      query.select(columns).orderBy('entry_date', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    ]);
    return { count: Number(counted.count), rows };
  }

  /** Every entry in a range, newest first (what an export shows). */
  all(filter: JournalFilter): Promise<JournalRow[]> {
    return this.base(filter).select(columns).orderBy('entry_date', 'desc').orderBy('id', 'desc').execute();
  }

  /** The moods over time, oldest first (entries without a mood are not in it). */
  moods(filter: JournalFilter): Promise<Array<{ id: number; date: string; mood: number }>> {
    return this.base(filter)
      .where('mood', 'is not', null)
      .select(['journal_entries.id', sql<string>`to_char(journal_entries.entry_date, 'YYYY-MM-DD')`.as('date'), sql<number>`journal_entries.mood`.as('mood')])
      .orderBy('entry_date', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  get(id: number): Promise<JournalRow | undefined> {
    return this.base({}).where('id', '=', id).select(columns).executeTakeFirst();
  }

  lock(id: number): Promise<JournalRow | undefined> {
    return this.base({}).where('id', '=', id).select(columns).forUpdate().executeTakeFirst();
  }

  insert(values: JournalValues, userId: number): Promise<JournalRow> {
    return this.db
      .insertInto('journal_entries')
      .values({ org_id: this.scope.orgId, patient_id: this.scope.patientId, ...values, created_by: userId, updated_by: userId })
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  update(id: number, values: JournalValues, userId: number): Promise<JournalRow> {
    return this.db
      .updateTable('journal_entries')
      .set({ ...values, updated_by: userId, updated_at: new Date() })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('journal_entries').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId).where('id', '=', id).execute();
  }
}
