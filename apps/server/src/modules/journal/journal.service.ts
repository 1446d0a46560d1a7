import { searchKey, type JournalEntry, type JournalEntryInput, type JournalEntryPatch, type JournalListQuery, type JournalMoods, type JournalMoodsQuery, type JournalPage } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { FieldError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { latestToday } from '../records/records.service';
import { JournalRepository, type JournalRow, type JournalValues } from './journal.repository';

export const JOURNAL_PAGE_SIZE = 20;


/** Tags as stored: trimmed, each once (compared without case), in the order given. */
export function cleanTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLocaleLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** What an entry is found by: its title, text and tags, folded as searches are. */
export const journalSearchText = (entry: Pick<JournalValues, 'title' | 'text' | 'tags'>) => searchKey([entry.title, entry.text, ...entry.tags].join('\n'));

/** The day of an entry: not in the future (anywhere on Earth), not before the patient's birth. */
export function checkEntryDate(date: string, dob: string | null, today = latestToday()): string[] | null {
  if (date > today) return ['validation:date-in-future'];
  if (dob && date < dob) return ['validation:date-before-birthday'];
  return null;
}

export function presentEntry(row: JournalRow): JournalEntry {
  return {
    id: row.id,
    patient: row.patient_id,
    entry_date: row.entry_date,
    title: row.title,
    text: row.text,
    mood: row.mood,
    tags: row.tags,
    private: row.private,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The journal: a patient's dated entries. Whose journal and what the actor may do is the patients
 * policy's decision (as for records); a private entry is its owner's alone (404 for anyone else,
 * as if it were not there); every read by someone other than the owner is audited.
 */
export class JournalService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
  ) {}

  async list(ctx: SignedInContext, query: JournalListQuery): Promise<JournalPage> {
    const grant = await this.patients.open(ctx, 'journal', query.patient);
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? JOURNAL_PAGE_SIZE;
    const search = query.search?.trim() ? searchKey(query.search.trim()) : undefined;
    const { count, rows } = await new JournalRepository(this.db, grant).list(
      { search, tag: query.tag?.trim() || undefined, dateFrom: query.date_from, dateTo: query.date_to },
      pageSize,
      (page - 1) * pageSize,
    );
    await grant.auditRead(ctx, { records: rows.length });
    return { count, page, page_size: pageSize, results: rows.map(presentEntry) };
  }

  async moods(ctx: SignedInContext, query: JournalMoodsQuery): Promise<JournalMoods> {
    const grant = await this.patients.open(ctx, 'journal', query.patient);
    const rows = await new JournalRepository(this.db, grant).moods({ dateFrom: query.date_from, dateTo: query.date_to });
    await grant.auditRead(ctx, { moods: rows.length });
    return rows.map((r) => ({ id: r.id, date: r.date, mood: Number(r.mood) }));
  }

  async get(ctx: SignedInContext, id: number, patientId?: number): Promise<JournalEntry> {
    const grant = await this.patients.open(ctx, 'journal', patientId);
    const row = await new JournalRepository(this.db, grant).get(id);
    if (!row) throw notFound();
    await grant.auditRead(ctx, { record: id });
    return presentEntry(row);
  }

  async create(ctx: SignedInContext, body: JournalEntryInput, patientId?: number): Promise<JournalEntry> {
    const grant = await this.patients.open(ctx, 'journal', patientId, 'write');
    const values = this.check(body, grant);
    const row = await new JournalRepository(this.db, grant).insert(values, ctx.actor.userId);
    await this.audit.record(ctx, { action: 'record_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { category: 'journal', record: row.id } });
    return presentEntry(row);
  }

  /** PUT (the body is whole, defaults applied) or PATCH (the fields given; the others kept). */
  async update(ctx: SignedInContext, id: number, body: JournalEntryInput | JournalEntryPatch, patientId?: number): Promise<JournalEntry> {
    const grant = await this.patients.open(ctx, 'journal', patientId, 'write');
    const row = await this.db.transaction().execute(async (trx) => {
      const repo = new JournalRepository(trx, grant);
      const current = await repo.lock(id);
      // A private entry is not there for anyone but its owner, to change no more than to read.
      if (!current || (current.private && !grant.includePrivate)) throw notFound();
      const merged: JournalEntryInput = {
        entry_date: body.entry_date ?? current.entry_date,
        title: body.title ?? current.title,
        text: body.text ?? current.text,
        mood: body.mood !== undefined ? body.mood : current.mood,
        tags: body.tags ?? current.tags,
        private: body.private ?? current.private,
      };
      // Only the owner may make an entry private or shared (someone else's change keeps it as it is).
      if (!grant.includePrivate) merged.private = current.private;
      return repo.update(id, this.check(merged, grant), ctx.actor.userId);
    });
    await this.audit.record(ctx, { action: 'record_update', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { category: 'journal', record: id } });
    return presentEntry(row);
  }

  async remove(ctx: SignedInContext, id: number, patientId?: number): Promise<void> {
    const grant = await this.patients.open(ctx, 'journal', patientId, 'write');
    await this.db.transaction().execute(async (trx) => {
      const repo = new JournalRepository(trx, grant);
      const current = await repo.lock(id);
      if (!current || (current.private && !grant.includePrivate)) throw notFound();
      await repo.delete(id);
    });
    await this.audit.record(ctx, { action: 'record_delete', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { category: 'journal', record: id } });
  }

  /** Every entry the actor may see, for the PDF export (private ones only for the owner who asked for them). */
  async forExport(grant: PatientScope, options: { includePrivate: boolean; dateFrom?: string | undefined; dateTo?: string | undefined }): Promise<JournalEntry[]> {
    const rows = await new JournalRepository(this.db, options.includePrivate ? grant : grant.withoutPrivate()).all({
      dateFrom: options.dateFrom,
      dateTo: options.dateTo,
    });
    return rows.map(presentEntry);
  }

  /** The values as stored, or a 400 naming each field that is wrong (the shape is the contract's). */
  private check(body: JournalEntryInput, grant: PatientScope): JournalValues {
    const errors: Record<string, string[]> = {};
    const dateProblem = checkEntryDate(body.entry_date, grant.patient.dob);
    if (dateProblem) errors.entry_date = dateProblem;
    if (Object.keys(errors).length) throw new FieldError(errors);
    const tags = cleanTags(body.tags);
    const values = { entry_date: body.entry_date, title: body.title.trim(), text: body.text, mood: body.mood, tags, private: body.private };
    return { ...values, search_text: journalSearchText(values) };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    journal: JournalService;
  }
}

export default servicePlugin('journal', ['db', 'patients-service', 'audit-service'], (app) => new JournalService(app.db, app.patients, app.audit));
