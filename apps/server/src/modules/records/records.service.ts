import {
  CATEGORIES,
  SOURCE_RECORD_EDITABLE,
  checkRecord,
  searchKey,
  countryName,
  translate,
  type DatePart,
  type CategoryDefinition,
  type HealthRecord,
  type Language,
  type RecordListQuery,
  type RecordSummary,
  type RecordValues,
  type RecordVersion,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import type { RecordData } from '../../db/schema';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import { VersionedCache } from '../../lib/versioned-cache';
import type { AuditLog } from '../audit/audit.service';
import { DocumentsRepository } from '../documents/documents.repository';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import type { Storage } from '../../plugins/storage';
import { presentAttachment } from '../documents/documents.presenter';
import { RecordsRepository, orderExpression, type RecordRow } from './records.repository';
import { assertRoomForRecords } from './records.limits';

export const DEFAULT_PAGE_SIZE = 20;

/**
 * A row of another table that keeps one record of the patient's (a video visit keeps its note:
 * visits.note_record_id). RecordsService.putHeld locks it first, in the write's transaction.
 */
export interface RecordHolder {
  /** Locks the holder; answers the id of the record it keeps, or null for none yet. */
  lock(trx: Db): Promise<number | null>;
  /** Keeps the record just made. */
  keep(trx: Db, recordId: number): Promise<void>;
}

/**
 * The key of a cached answer about a patient's records: the patient, the version of their data
 * read with the grant (before the answer is computed), whether private records are in it, and
 * what was asked. A change of the data moves the version on, so a changed record is never
 * answered from the cache.
 */
function answerKey(grant: PatientScope, includePrivate: boolean, ...asked: Array<string | number | undefined>): string {
  return JSON.stringify([grant.patient.id, grant.patient.data_version, includePrivate, grant.categories, ...asked]);
}

/**
 * The latest "today" anywhere on Earth (UTC+14): a date the patient sees as today is never
 * refused as "in the future" because the server's clock is in another time zone. The web
 * form checks against the patient's own today.
 */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}


/** The label of a field of a category in a language (a category may name a shared field its own way). */
export function fieldLabel(category: CategoryDefinition, field: string, lang: Language): string {
  const own = translate(lang, `records:categoryFields.${category.key}.${field}`);
  return own !== `records:categoryFields.${category.key}.${field}` ? own : translate(lang, `records:fields.${field}`);
}

/**
 * Health records of every category through one mechanism: a category's declaration
 * (packages/shared/src/records) decides its fields, rules, ordering and search; whose record it
 * is and what the actor may do is the patients policy's decision; every read by someone other
 * than the owner is audited; every change keeps a version.
 */
export class RecordsService {
  /** Lists and summaries as computed for a version of a patient's data (64 MB at most, 10 minutes unused at most). */
  private readonly answers = new VersionedCache({ maxBytes: 64 * 1024 * 1024, sizeOf: (answer) => ('resultsJson' in answer ? String(answer.resultsJson).length : JSON.stringify(answer).length), ttlMs: 10 * 60_000 });

  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly storage: Storage,
  ) {}

  /**
   * Whether the signed-in user's own record holds any health record, whatever record the client
   * is viewing (the first-run wizard is the user's own). No own record: false.
   */
  async ownHasAny(ctx: SignedInContext): Promise<boolean> {
    const own = ctx.actor.user.own_patient;
    if (!own) return false;
    const scope = await this.patients.open({ ...ctx, viewing: undefined }, 'records', own.id);
    return new RecordsRepository(this.db, scope).hasAny();
  }

  /** Reads by anyone but the owner go to the audit trail (the mechanism sharing and providers will use). */
  /**
   * A page of a category's records: the total, and the page's records as JSON text (the
   * presenter's records, serialised once per version of the patient's data and kept so).
   */
  async list(ctx: SignedInContext, category: CategoryDefinition, query: RecordListQuery): Promise<{ count: number; resultsJson: string; records: number; page: number; pageSize: number }> {
    const grant = await this.patients.open(ctx, 'records', query.patient);
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
    const includePrivate = grant.includePrivate;
    const search = query.search?.trim() ? searchKey(query.search.trim()) : undefined;
    const key = answerKey(grant, includePrivate, 'list', category.key, page, pageSize, query.ordering, search, query.date_from, query.date_to);
    const answer = await this.answers.get(key, async () => {
      // Django REST's OrderingFilter ignores what it does not know: so does this, falling back to the category's default.
      const ordering = resolveOrdering(category, query.ordering) ?? resolveOrdering(category, category.ordering)!;
      const { count, rows } = await new RecordsRepository(this.db, grant).list({
        category: category.key,
        orderBy: ordering,
        search,
        dateFrom: query.date_from,
        dateTo: query.date_to,
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { count, records: rows.length, resultsJson: JSON.stringify(rows.map((row) => presentRecord(category, row))) };
    });
    await grant.auditRead(ctx, { category: category.key, records: answer.records });
    return { ...answer, page, pageSize };
  }

  async get(ctx: SignedInContext, category: CategoryDefinition, id: number, patientId?: number): Promise<HealthRecord> {
    const record = await this.getIn(ctx, await this.patients.open(ctx, 'records', patientId), category, id);
    if (!record) throw notFound();
    return record;
  }

  /** A record read under a scope another service opened (a visit's note), on the patient's trail as any read; undefined when not there for the scope. */
  async getIn(ctx: SignedInContext, scope: PatientScope, category: CategoryDefinition, id: number): Promise<HealthRecord | undefined> {
    const row = await new RecordsRepository(this.db, scope).get(category.key, id);
    if (!row) return undefined;
    await scope.auditRead(ctx, { category: category.key, record: id });
    return presentRecord(category, row);
  }

  async create(ctx: SignedInContext, category: CategoryDefinition, body: Record<string, unknown>, patientId?: number): Promise<HealthRecord> {
    const grant = await this.patients.open(ctx, 'records', patientId, 'write');
    // A grant limited to other categories: this category is not there for it (as for reading).
    if (!grant.reaches(category.key)) throw notFound();
    const row = await this.db.transaction().execute((trx) => this.insertChecked(trx, ctx, grant, category, body));
    await this.audit.record(ctx, { action: 'record_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { category: category.key, record: row.id } });
    return presentRecord(category, row);
  }

  /** PUT (every field; those not given are emptied) or PATCH (`partial`: those not given are kept). */
  async update(ctx: SignedInContext, category: CategoryDefinition, id: number, body: Record<string, unknown>, partial: boolean, patientId?: number): Promise<HealthRecord> {
    const grant = await this.patients.open(ctx, 'records', patientId, 'write');
    const row = await this.db.transaction().execute((trx) => this.updateChecked(trx, ctx, grant, category, id, body, partial));
    // A private record is not there for anyone but its owner, to change no more than to read.
    if (!row) throw notFound();
    await this.audit.record(ctx, { action: 'record_update', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { category: category.key, record: id } });
    return presentRecord(category, row);
  }

  /**
   * The one record a row of another table keeps (a video visit keeps its note), written under the
   * scope its service opened (PatientsService.openVisitNote): made the first time, every field given
   * replaced afterwards (those of the category not given are kept), by the same rules as any record
   * (checked values, search text, a version; the patient's data_version moves on). The holder is
   * locked first, so writes sent at once make one record. Null when the kept record is out of the
   * scope's reach (the patient made it private). The caller audits, knowing what was written.
   */
  async putHeld(ctx: SignedInContext, scope: PatientScope, category: CategoryDefinition, body: Record<string, unknown>, holder: RecordHolder): Promise<{ record: HealthRecord; created: boolean } | null> {
    if (!scope.canWrite || !scope.reaches(category.key)) throw notFound();
    const written = await this.db.transaction().execute(async (trx) => {
      const held = await holder.lock(trx);
      if (held !== null) {
        const row = await this.updateChecked(trx, ctx, scope, category, held, body, true);
        return row ? { row, created: false } : null;
      }
      const row = await this.insertChecked(trx, ctx, scope, category, body);
      await holder.keep(trx, row.id);
      return { row, created: true };
    });
    return written && { record: presentRecord(category, written.row), created: written.created };
  }

  /** A new record of the scope's patient, checked against its category, with its first version (in the caller's transaction). */
  private async insertChecked(trx: Db, ctx: SignedInContext, grant: PatientScope, category: CategoryDefinition, body: Record<string, unknown>): Promise<RecordRow> {
    const { values, errors } = checkRecord(category, body, { today: latestToday(), dob: grant.patient.dob, creating: true });
    if (errors) throw new FieldError(errors);
    const repo = new RecordsRepository(trx, grant);
    await assertRoomForRecords(repo, 1);
    const created = await repo.insert(toStoredRecord(category, values, latestToday()), ctx.actor.userId);
    await repo.addVersion(created.id, 1, 'create', created.data, diff({}, valuesOf(created)), ctx.actor.userId);
    return created;
  }

  /** A record changed (in the caller's transaction), with a version when something changed; undefined when it is not there for the scope. */
  private async updateChecked(trx: Db, ctx: SignedInContext, grant: PatientScope, category: CategoryDefinition, id: number, body: Record<string, unknown>, partial: boolean): Promise<RecordRow | undefined> {
    const repo = new RecordsRepository(trx, grant);
    const current = await repo.lock(category.key, id);
    if (!current) return undefined;
    const before = valuesOf(current);
    const { values, errors } = checkRecord(category, body, { today: latestToday(), dob: grant.patient.dob, ...(partial ? { existing: before } : {}) });
    if (errors) throw new FieldError(errors);
    // Only the patient marks a record private or public again.
    if (values.private !== undefined && Boolean(values.private) !== current.private && !grant.canMarkPrivate) throw new HttpError(403, 'errors:privateOwnerOnly');
    const changes = diff(before, values);
    if (changes.length === 0) return current;
    // A record a connected source brought changes at the source; the patient keeps their note and the private mark.
    if (current.provenance && changes.some((c) => !(SOURCE_RECORD_EDITABLE as readonly string[]).includes(c.field))) {
      throw new HttpError(403, 'errors:sourceRecordReadOnly', { source: current.provenance.source_name ?? '' });
    }
    const next = current.version + 1;
    const updated = await repo.update(id, toStoredRecord(category, values, current.sort_date ?? latestToday(), current), next, ctx.actor.userId);
    await repo.addVersion(id, next, 'update', updated.data, changes, ctx.actor.userId);
    return updated;
  }

  /** Deletes a record, the attachments uploaded to it (their files too); documents of the Document Center attached to it stay, detached. */
  async remove(ctx: SignedInContext, category: CategoryDefinition, id: number, patientId?: number): Promise<void> {
    const grant = await this.patients.open(ctx, 'records', patientId, 'write');
    const keys = await this.db.transaction().execute(async (trx) => {
      const repo = new RecordsRepository(trx, grant);
      const current = await repo.lock(category.key, id);
      if (!current) throw notFound();
      // Removed by disconnecting its source (with its records), unless the source no longer has it.
      if (current.provenance && !current.provenance.deleted_at) throw new HttpError(403, 'errors:sourceRecordDelete', { source: current.provenance.source_name ?? '' });
      const files = await new DocumentsRepository(trx, grant).deleteRecordAttachments(id);
      await repo.delete(category.key, id);
      return files;
    });
    // The rows are gone (committed); the files follow. A file that fails to go is logged, never shown.
    for (const key of keys) await this.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'attachment file not deleted'));
    await this.audit.record(ctx, { action: 'record_delete', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { category: category.key, record: id } });
  }

  async history(ctx: SignedInContext, category: CategoryDefinition, id: number, patientId?: number): Promise<RecordVersion[]> {
    const grant = await this.patients.open(ctx, 'records', patientId);
    const repo = new RecordsRepository(this.db, grant);
    if (!(await repo.get(category.key, id))) throw notFound();
    await grant.auditRead(ctx, { category: category.key, record: id, history: 1 });
    const versions = await repo.versions(id);
    return versions.map((v) => ({
      version: v.version,
      action: v.action,
      changed_at: new Date(v.changed_at).toISOString(),
      changed_by: v.changed_by ? { id: v.changed_by, name: `${v.first_name ?? ''} ${v.last_name ?? ''}`.trim() } : null,
      changes: v.changes.map((c) => ({
        ...c,
        label: c.field.endsWith('_part')
          ? translate(ctx.lang, 'records:datePartLabel', { field: fieldLabel(category, c.field.slice(0, -'_part'.length), ctx.lang) })
          : fieldLabel(category, c.field, ctx.lang),
      })),
    }));
  }

  async summary(ctx: SignedInContext, patientId?: number): Promise<RecordSummary> {
    const grant = await this.patients.open(ctx, 'records', patientId);
    const includePrivate = grant.includePrivate;
    const summary = await this.answers.get(answerKey(grant, includePrivate, 'summary', ctx.lang), () => this.computeSummary(grant, ctx.lang));
    await grant.auditRead(ctx, { summary: 1 });
    return summary;
  }

  private async computeSummary(grant: PatientScope, lang: Language): Promise<RecordSummary> {
    const repo = new RecordsRepository(this.db, grant);
    const [rows, latest, recent] = await Promise.all([repo.summary(), repo.latestPerCategory(), repo.recent(5)]);
    const byCategory = new Map(rows.map((r) => [r.category, r]));
    const latestOf = new Map(latest.map((r) => [r.category, r]));
    return {
      patient: grant.patient.id,
      total: rows.reduce((n, r) => n + Number(r.count), 0),
      categories: CATEGORIES.map((c) => {
        const row = byCategory.get(c.key);
        const newest = latestOf.get(c.key);
        const { date, part } = newest ? dateOf(c as CategoryDefinition, newest.data, newest.sort_date) : { date: null, part: null };
        return {
          category: c.key,
          name: translate(lang, `records:categories.${c.key}.other`),
          count: Number(row?.count ?? 0),
          latest_date: date,
          latest_date_part: part,
          last_updated: row?.last_updated ? new Date(row.last_updated).toISOString() : null,
        };
      }),
      recent: recent.map((r) => {
        const definition = CATEGORIES.find((c) => c.key === r.category)! as CategoryDefinition;
        const { date, part } = definition.dateField ? dateOf(definition, r.data, null) : { date: null, part: null };
        return {
          id: r.id,
          category: r.category,
          title: titleOf(definition, r.data, lang),
          date,
          date_part: part,
          updated_at: r.updated_at,
          private: r.private,
        };
      }),
    };
  }
}

/**
 * The date a record is known by, with its precision: its category's date field and `_part`, or, for
 * a category without one, the date it was ordered by (a whole day).
 */
function dateOf(category: CategoryDefinition, data: Record<string, unknown>, sortDate: string | null): { date: string | null; part: DatePart | null } {
  if (!category.dateField) return { date: sortDate, part: sortDate ? 'day' : null };
  const date = (data[category.dateField] as string | null) ?? null;
  const part = (data[`${category.dateField}_part`] as DatePart | undefined) ?? (date ? 'day' : null);
  return { date, part };
}

/** An ordering the category allows (`-` first for descending), or null. */
export function resolveOrdering(category: CategoryDefinition, ordering: string | undefined) {
  if (!ordering) return null;
  const descending = ordering.startsWith('-');
  const expression = orderExpression(category, descending ? ordering.slice(1) : ordering);
  return expression ? { expression, descending } : null;
}

/** A record's values as the rules read them (its data and its private flag). */
export function valuesOf(row: RecordRow): RecordValues {
  return { ...row.data, private: row.private };
}

/** What a record names itself by: its title field, a choice or country in the reader's language. */
export function titleOf(category: CategoryDefinition, data: RecordData, lang: Language): string {
  const value = data[category.titleField];
  if (value === null || value === undefined) return '';
  const field = category.fields.find((f) => f.name === category.titleField);
  if (field?.kind === 'choice') return translate(lang, `records:choices.${field.list}.${String(value)}`);
  if (field?.kind === 'country') return countryName(String(value), lang);
  return String(value);
}

/** The lower-cased text a record is found by: its searchable fields, its title, its choices and country in both languages. */
function searchText(category: CategoryDefinition, values: RecordValues): string {
  const parts: string[] = [];
  for (const field of category.fields) {
    const value = values[field.name];
    if (value === null || value === undefined) continue;
    if (field.kind === 'choice') for (const lang of ['en', 'el'] as const) parts.push(translate(lang, `records:choices.${field.list}.${String(value)}`));
    else if (field.kind === 'country') for (const lang of ['en', 'el'] as const) parts.push(countryName(String(value), lang));
    else if (field.kind === 'text' && (field.searchable || field.name === category.titleField)) parts.push(String(value));
  }
  return searchKey(parts.join('\n'));
}

/** The row written for checked values: the category's data, the private flag, the date it is ordered by, its search text. */
export function toStoredRecord(category: CategoryDefinition, values: RecordValues, today: string, current?: RecordRow) {
  const { private: isPrivate, ...data } = values;
  const own = category.dateField ? ((data[category.dateField] as string | null) ?? null) : null;
  return {
    category: category.key,
    data: data as RecordData,
    private: isPrivate === true,
    // A category without a date of its own is ordered by when it was added.
    sort_date: category.dateField ? own : (current?.sort_date ?? today),
    search_text: searchText(category, values),
  };
}

/** The fields whose value changed, with both values. */
export function diff(before: RecordValues, after: RecordValues): Array<{ field: string; from: unknown; to: unknown }> {
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changes: Array<{ field: string; from: unknown; to: unknown }> = [];
  for (const field of fields) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (from !== to && !(from === false && to === null) && !(from === null && to === false)) changes.push({ field, from, to });
  }
  return changes;
}

/** A record as the API answers it: every field of its category, the common ones, its attachments. */
export function presentRecord(category: CategoryDefinition, row: RecordRow): HealthRecord {
  const record: HealthRecord = {
    id: row.id,
    record_type: row.category,
    patient: row.patient_id,
    private: row.private,
    attachments: row.attachments.map(presentAttachment),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    provenance: row.provenance,
    ...(category.key === 'allergy' ? { allergy_id: row.id } : {}),
  };
  for (const field of category.fields) {
    const value = row.data[field.name];
    record[field.name] = field.kind === 'boolean' ? value === true : (value ?? null);
    if (field.kind === 'medicalDate') record[`${field.name}_part`] = row.data[`${field.name}_part`] ?? null;
  }
  return record;
}

declare module 'fastify' {
  interface FastifyInstance {
    records: RecordsService;
  }
}

export default servicePlugin('records', ['db', 'patients-service', 'audit-service', 'storage'], (app) => new RecordsService(app.db, app.patients, app.audit, app.storage));
