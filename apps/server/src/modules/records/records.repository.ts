import { yieldToLoop } from '../../lib/slices';
import { sql, type Expression, type RawBuilder, type Selectable, type UpdateObject } from 'kysely';
import type { CategoryDefinition } from '@healthbook/shared';
import { holdForTransaction } from '../../db/advisory-lock';
import type { Db } from '../../db/client';
import { runNamed } from '../../db/prepared';
import type { Database, HealthRecordsTable, RecordData } from '../../db/schema';
import type { PatientScope } from '../patients/patient-scope';
import { HttpError, notFound } from '../../lib/http-errors';
import { attachmentsOf, type AttachmentRow } from '../documents/documents.repository';

/**
 * A record as the service reads it: what the presenter and the rules need (not its search text
 * or bookkeeping), its times already as ISO texts, and its attachments, in the same statement.
 */
export type RecordRow = Pick<Selectable<HealthRecordsTable>, 'id' | 'patient_id' | 'category' | 'data' | 'private' | 'sort_date' | 'version'> & {
  created_at: string;
  updated_at: string;
  attachments: AttachmentRow[];
  /** Where a record a sync brought came from; null for a record typed in or imported from a file. */
  provenance: RecordProvenanceRow | null;
};

/** A synced record's provenance, read inside the record's own statement (times as ISO texts). */
export interface RecordProvenanceRow {
  source_id: number | null;
  source_name: string | null;
  resource: string;
  version: string | null;
  fetched_at: string | null;
  deleted_at: string | null;
}

const isoText = (expression: string) => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The provenance of the row in hand (health_records), with its source's name (gone when the organisation removed the source). */
const provenanceOf = () =>
  sql<RecordProvenanceRow | null>`case when health_records.source_resource is null then null else json_build_object(
    'source_id', health_records.source_id,
    'source_name', (select s.name from fhir_sources s where s.id = health_records.source_id and s.org_id = health_records.org_id),
    'resource', health_records.source_resource,
    'version', health_records.source_version,
    'fetched_at', ${sql.raw(isoText('health_records.source_fetched_at'))},
    'deleted_at', ${sql.raw(isoText('health_records.source_deleted_at'))}) end`;

/** An ISO 8601 text in UTC of a timestamp column (what the API answers, without a Date on the way). */
const isoTime = (column: 'created_at' | 'updated_at') =>
  sql<string>`to_char(${sql.ref(`health_records.${column}`)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(column);

/** The columns of a RecordRow, for a select or a returning clause on health_records. */
const recordColumns = [
  'health_records.id',
  'health_records.patient_id',
  'health_records.category',
  'health_records.data',
  'health_records.private',
  sql<string | null>`to_char(health_records.sort_date, 'YYYY-MM-DD')`.as('sort_date'),
  'health_records.version',
  isoTime('created_at'),
  isoTime('updated_at'),
  attachmentsOf().as('attachments'),
  provenanceOf().as('provenance'),
] as const;

/**
 * One patient's records: every query filters by the organisation and the patient, and, for a
 * care-network grant limited to some categories, by those categories (the PatientScope it is built for).
 */

export interface ListOptions {
  category: string;
  /** An ordering the category allows, already checked. */
  orderBy: { expression: RawBuilder<unknown>; descending: boolean };
  /** Already folded as the search text is (searchKey). */
  search?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  limit: number;
  offset: number;
}

/** Where a synced record comes from: the organisation's source, the resource (`Type/id`) and its version. */
export interface SyncProvenance {
  sourceId: number;
  resource: string;
  version: string | null;
}

export interface NewRecord {
  category: string;
  data: RecordData;
  private: boolean;
  sort_date: string | null;
  search_text: string;
}

export interface ManyOptions {
  categories: readonly string[];
  ids?: readonly number[] | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

/** Records read per statement by listMany (issue 24, §3: no single read of a whole record). */
const LIST_MANY_PAGE = 100;

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class RecordsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  /** The scope's rows: its organisation and patient, its categories, private rows only when it holds them. */
  private base() {
    let query = this.db.selectFrom('health_records').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId);
    if (!this.scope.includePrivate) query = query.where('private', '=', false);
    if (this.scope.categories) query = query.where('category', 'in', this.scope.categories.length > 0 ? [...this.scope.categories] : ['']);
    return query;
  }

  /**
   * A page of a category's records with the total and their attachments, in one statement (the
   * total is an uncorrelated subquery, computed once; the page reads the list index in order).
   * Only a page past the end asks again, for the total alone.
   */
  async list(options: ListOptions): Promise<{ count: number; rows: RecordRow[] }> {
    let query = this.base().where('category', '=', options.category);
    if (options.search) query = query.where('search_text', 'like', containing(options.search));
    if (options.dateFrom) query = query.where('sort_date', '>=', options.dateFrom);
    if (options.dateTo) query = query.where('sort_date', '<=', options.dateTo);
    const total = query.select(sql<string>`count(*)`.as('count'));
    const rows = await runNamed(
      this.db,
      query
        .select(recordColumns)
        .select(total.as('total_count'))
        .orderBy(options.orderBy.expression as Expression<unknown>, (ob) => (options.orderBy.descending ? ob.desc().nullsLast() : ob.asc().nullsLast()))
        .orderBy('health_records.id', 'desc')
        .limit(options.limit)
        .offset(options.offset),
    );
    if (rows.length > 0) return { count: Number(rows[0]!.total_count), rows };
    if (options.offset === 0) return { count: 0, rows };
    const [counted] = await runNamed(this.db, total);
    return { count: Number(counted!.count), rows };
  }

  /**
   * Every record of some categories (optionally only some records, a range of their dates), with
   * their attachments, newest first within a category: what an export or a share shows.
   */
  async listMany(options: ManyOptions): Promise<RecordRow[]> {
    if (options.categories.length === 0 || options.ids?.length === 0) return [];
    // Their ids first (small), then the records a page at a time, the event loop free between
    // pages: one statement of thousands of records would hold it (on PGlite, the whole query).
    const ids = await this.manyQuery(options).select('id').execute();
    const rows: RecordRow[] = [];
    for (let i = 0; i < ids.length; i += LIST_MANY_PAGE) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      rows.push(...(await this.manyQuery({ ...options, ids: ids.slice(i, i + LIST_MANY_PAGE).map((r) => r.id) }).select(recordColumns).execute()));
    }
    return rows;
  }

  /** listMany's statement (ordered), without its columns. */
  private manyQuery(options: ManyOptions) {
    let query = this.base().where('category', 'in', options.categories);
    if (options.ids) query = query.where('id', 'in', options.ids);
    if (options.dateFrom) query = query.where('sort_date', '>=', options.dateFrom);
    if (options.dateTo) query = query.where('sort_date', '<=', options.dateTo);
    return query.orderBy('category').orderBy('sort_date', (ob) => ob.desc().nullsLast()).orderBy('id', 'desc');
  }

  /**
   * How many records the patient holds, of every category, private ones too (for RECORDS_MAX_PER_PATIENT).
   * In a transaction, the patient's other creates wait until it ends: what is counted is what is there when it inserts.
   */
  async countAll(): Promise<number> {
    await holdForTransaction(this.db, 'records-cap', this.scope.patientId);
    const row = await this.db
      .selectFrom('health_records')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .select(sql<string>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Whether the patient holds any record at all (private ones too): one row looked at, no lock. */
  async hasAny(): Promise<boolean> {
    const row = await this.db
      .selectFrom('health_records')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .select('id')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** One record of a category (another category's id is not found). */
  get(category: string, id: number): Promise<RecordRow | undefined> {
    return this.base().where('category', '=', category).where('id', '=', id).select(recordColumns).executeTakeFirst();
  }

  /** Any category's record (attachments name a record by its id alone). */
  getAny(id: number): Promise<RecordRow | undefined> {
    return this.base().where('id', '=', id).select(recordColumns).executeTakeFirst();
  }

  /** The record, locked until the transaction ends (an update reads, compares and writes it). */
  lock(category: string, id: number): Promise<RecordRow | undefined> {
    return this.base().where('category', '=', category).where('id', '=', id).select(recordColumns).forUpdate('health_records').executeTakeFirst();
  }

  /** The row of a new record of this patient (from an import, with its source key). */
  private newRow(record: NewRecord, userId: number | null, sourceKey: string | null = null) {
    // The scope's bounds hold for writes too: no row of a category outside a limited grant, no private row but the owner's.
    if (!this.scope.reaches(record.category)) throw notFound();
    if (record.private && !this.scope.canMarkPrivate) throw new HttpError(403, 'errors:privateOwnerOnly');
    return {
      org_id: this.scope.orgId,
      patient_id: this.scope.patientId,
      category: record.category,
      data: JSON.stringify(record.data),
      private: record.private,
      sort_date: record.sort_date,
      search_text: record.search_text,
      created_by: userId,
      updated_by: userId,
      source_key: sourceKey,
    };
  }

  insert(record: NewRecord, userId: number): Promise<RecordRow> {
    return this.db.insertInto('health_records').values(this.newRow(record, userId)).returning(recordColumns).executeTakeFirstOrThrow();
  }

  /**
   * A record made from an imported resource, named by its source key: written unless the patient
   * already has a record of that key (then undefined — two imports at once add it once).
   */
  insertFromSource(record: NewRecord, sourceKey: string, userId: number): Promise<RecordRow | undefined> {
    return this.db
      .insertInto('health_records')
      .values(this.newRow(record, userId, sourceKey))
      .onConflict((oc) => oc.columns(['patient_id', 'source_key']).where('source_key', 'is not', null).doNothing())
      .returning(recordColumns)
      .executeTakeFirst();
  }

  /**
   * A record a connected source brought (issue 28), with its provenance: written unless the
   * patient already has a record of that key (then undefined: two syncs at once add it once).
   */
  insertFromSync(record: NewRecord, sourceKey: string, provenance: SyncProvenance, userId: number | null): Promise<RecordRow | undefined> {
    return this.db
      .insertInto('health_records')
      .values({
        ...this.newRow(record, userId, sourceKey),
        source_id: provenance.sourceId,
        source_resource: provenance.resource,
        source_version: provenance.version,
        source_fetched_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.columns(['patient_id', 'source_key']).where('source_key', 'is not', null).doNothing())
      .returning(recordColumns)
      .executeTakeFirst();
  }

  /** The patient's records of these source keys, with the version of the resource each was last made from. */
  async bySourceKeys(keys: readonly string[]): Promise<Map<string, RecordRow & { source_version: string | null; source_deleted: boolean }>> {
    if (keys.length === 0) return new Map();
    const rows = await this.base()
      .where('source_key', 'in', keys)
      .select([...recordColumns, 'health_records.source_key', 'health_records.source_version', sql<boolean>`health_records.source_deleted_at is not null`.as('source_deleted')])
      .forUpdate('health_records')
      .execute();
    return new Map(rows.map(({ source_key, ...row }) => [source_key!, row]));
  }

  /** A synced record made again from a newer version of its resource (the caller adds the version row). */
  updateFromSync(id: number, record: Omit<NewRecord, 'category'>, version: number, provenance: SyncProvenance, userId: number | null): Promise<RecordRow> {
    return this.update(id, record, version, userId, {
      source_id: provenance.sourceId,
      source_version: provenance.version,
      source_fetched_at: sql<Date>`now()`,
      source_deleted_at: null,
    });
  }

  /** Synced records read again unchanged: when they were fetched, and there again if they had been missed. */
  async touchSynced(ids: readonly number[], provenance: Pick<SyncProvenance, 'sourceId'>): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('health_records')
      .set({ source_id: provenance.sourceId, source_fetched_at: sql`now()`, source_deleted_at: null })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', 'in', ids)
      .execute();
  }

  /** The patient's records a source brought that are still there at the source as far as known: id and source key. */
  sourceRecords(sourceId: number): Promise<Array<{ id: number; source_key: string | null }>> {
    return this.base().where('source_id', '=', sourceId).where('source_deleted_at', 'is', null).select(['id', 'source_key']).execute();
  }

  /** Records whose resource the source no longer has: marked, never removed (the patient decides). */
  async markSourceDeleted(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('health_records')
      .set({ source_deleted_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', 'in', ids)
      .execute();
  }

  /** How many records each source brought, by source id. */
  async countBySource(): Promise<Map<number, number>> {
    const rows = await this.base().where('source_id', 'is not', null).groupBy('source_id').select(['source_id', sql<string>`count(*)::text`.as('n')]).execute();
    return new Map(rows.map((r) => [r.source_id!, Number(r.n)]));
  }

  /** The ids of the records a source brought (all of them, whoever may see them: the owner's disconnect). */
  async idsFromSource(sourceId: number): Promise<Array<{ id: number; category: string }>> {
    return this.base().where('source_id', '=', sourceId).select(['id', 'category']).execute();
  }

  /** Which of these source keys the patient's records already have. */
  async existingSourceKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.base().where('source_key', 'in', keys).select('source_key').execute();
    return new Set(rows.map((r) => r.source_key!));
  }

  /** The source keys of some of the patient's records (those imported), by record id. */
  async sourceKeysOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.base().where('id', 'in', ids).where('source_key', 'is not', null).select(['id', 'source_key']).execute();
    return new Map(rows.map((r) => [r.id, r.source_key!]));
  }

  /** Every record of the patient as category and values (what an import compares its records with). */
  async contents(pageSize = 500): Promise<Array<{ id: number; category: string; data: RecordData; private: boolean }>> {
    // A page at a time, the event loop let go between them: on PGlite a statement runs on the event
    // loop itself, and one statement of a long record's every row would hold it.
    const rows: Array<{ id: number; category: string; data: RecordData; private: boolean }> = [];
    for (;;) {
      const page = await this.base().select(['id', 'category', 'data', 'private']).where('id', '>', rows.at(-1)?.id ?? 0).orderBy('id').limit(pageSize).execute();
      rows.push(...page);
      if (page.length < pageSize) return rows;
      await yieldToLoop();
    }
  }

  /** The record's new values and version (`also`: the provenance a sync sets with them). */
  update(id: number, record: Omit<NewRecord, 'category'>, version: number, userId: number | null, also: UpdateObject<Database, 'health_records'> = {}): Promise<RecordRow> {
    return this.db
      .updateTable('health_records')
      .set({
        data: JSON.stringify(record.data),
        private: record.private,
        sort_date: record.sort_date,
        search_text: record.search_text,
        version,
        updated_by: userId,
        updated_at: sql`now()`,
        ...also,
      })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returning(recordColumns)
      .executeTakeFirstOrThrow();
  }

  async delete(category: string, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('health_records')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('category', '=', category)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async addVersion(recordId: number, version: number, action: 'create' | 'update', data: RecordData, changes: unknown[], userId: number | null): Promise<void> {
    await this.db
      .insertInto('health_record_versions')
      .values({ record_id: recordId, org_id: this.scope.orgId, version, action, data: JSON.stringify(data), changes: JSON.stringify(changes), changed_by: userId })
      .execute();
  }

  /** A record's versions, newest first, with who made each. */
  versions(recordId: number) {
    return this.db
      .selectFrom('health_record_versions as v')
      .leftJoin('users as u', 'u.id', 'v.changed_by')
      .select(['v.version', 'v.action', 'v.changes', 'v.changed_at', 'v.changed_by', 'u.first_name', 'u.last_name'])
      .where('v.org_id', '=', this.scope.orgId)
      .where('v.record_id', '=', recordId)
      .orderBy('v.version', 'desc')
      .execute();
  }

  /** Per category: how many records, the latest of their dates, the last change. */
  summary() {
    return this.base()
      .select([
        'category',
        sql<string>`count(*)`.as('count'),
        sql<Date | null>`max(updated_at)`.as('last_updated'),
      ])
      .groupBy('category')
      .execute();
  }

  /** Per category, its record with the latest date (what the summary's "latest" shows, with its precision). */
  latestPerCategory() {
    return this.base()
      .distinctOn('category')
      .select(['category', 'data', sql<string | null>`to_char(sort_date, 'YYYY-MM-DD')`.as('sort_date')])
      .orderBy('category')
      .orderBy(sql`sort_date desc nulls last`)
      .orderBy('id', 'desc')
      .execute();
  }

  /** The records changed most recently, any category. */
  recent(limit: number): Promise<RecordRow[]> {
    return this.base().select(recordColumns).orderBy('health_records.updated_at', 'desc').orderBy('health_records.id', 'desc').limit(limit).execute();
  }
}

/** The SQL a field of a category is ordered by: its own date column, or its value in `data` typed for comparing. */
export function orderExpression(category: CategoryDefinition, field: string): RawBuilder<unknown> | null {
  // Qualified: ORDER BY would otherwise take the output column of that name (texts, in a RecordRow).
  if (field === 'created_at' || field === 'updated_at' || field === 'id') return sql.ref(`health_records.${field}`);
  if (field === category.dateField) return sql.ref('health_records.sort_date');
  const declared = category.fields.find((f) => f.name === field);
  if (!declared) return null;
  const value = sql`health_records.data->>${field}`;
  switch (declared.kind) {
    case 'number':
    case 'measurement':
      return sql`(${value})::numeric`;
    case 'boolean':
      return sql`(${value})::boolean`;
    case 'date':
    case 'medicalDate':
      return value;
    default:
      return sql`lower(${value})`;
  }
}

