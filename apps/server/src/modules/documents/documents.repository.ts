import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { DocumentFoldersTable, DocumentsTable } from '../../db/schema';
import type { PatientScope } from '../patients/patient-scope';
import { HttpError } from '../../lib/http-errors';

export type DocumentRow = Selectable<DocumentsTable>;
export type FolderRow = Selectable<DocumentFoldersTable>;

/** A document as a record's attachment; read inside a record's own statement (see attachmentsOf), its time is an ISO text. */
export type AttachmentRow = Pick<DocumentRow, 'id' | 'file_name' | 'content_type' | 'size'> & { created_at: string | Date };

/**
 * The attachments of the record of the enclosing statement (`health_records`), oldest first, as a
 * JSON array (empty when none): a subquery a record's select or returning clause carries, so a
 * record and its attachments are one round trip. Correlated on the record's id, organisation
 * and patient: an attachment is never read outside its record's scope.
 */
export function attachmentsOf(): RawBuilder<AttachmentRow[]> {
  return sql<AttachmentRow[]>`coalesce((select json_agg(json_build_object('id', d.id, 'file_name', d.file_name, 'content_type', d.content_type, 'size', d.size,
    'created_at', to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by d.created_at, d.id)
    from documents d where d.record_id = health_records.id and d.org_id = health_records.org_id and d.patient_id = health_records.patient_id), '[]'::json)`;
}

export type NewDocument = Pick<DocumentRow, 'folder_id' | 'record_id' | 'origin' | 'file_name' | 'content_type' | 'size' | 'storage_key'>;

/** One patient's documents and folders (the Document Center; a record's attachments are its documents). */
export class DocumentsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  /**
   * The patient's documents; without `includePrivate`, none attached to a private record (a
   * private record's attachments are as private as the record).
   */
  private documents() {
    let query = this.db.selectFrom('documents').where('documents.org_id', '=', this.scope.orgId).where('documents.patient_id', '=', this.scope.patientId);
    // A grant limited to some categories: the attachments of those categories' records only (a
    // document on no record, or on a record of another category, is outside the grant).
    const categories = this.scope.categories;
    if (categories)
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('health_records as c')
            .whereRef('c.id', '=', 'documents.record_id')
            .where('c.category', 'in', categories.length > 0 ? [...categories] : [''])
            .select(sql`1`.as('x')),
        ),
      );
    if (this.scope.includePrivate) return query;
    return query.where((eb) =>
      eb.not(eb.exists(eb.selectFrom('health_records as r').whereRef('r.id', '=', 'documents.record_id').where('r.private', '=', true).select(sql`1`.as('x')))),
    );
  }

  /**
   * Folders and documents on no record are of no category: a grant limited to some categories
   * does not reach them, to change no more than to read (403, the area's word for it).
   */
  private wholeRecordOnly(): void {
    if (this.scope.categories !== null) throw new HttpError(403, 'errors:areaNotShared');
  }

  get(id: number): Promise<DocumentRow | undefined> {
    return this.documents().selectAll('documents').where('documents.id', '=', id).executeTakeFirst();
  }

  /** Some documents by id (without `includePrivate`, none attached to a private record), newest first. */
  listByIds(ids: readonly number[]): Promise<DocumentRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.documents().selectAll('documents').where('documents.id', 'in', ids).orderBy('documents.created_at', 'desc').orderBy('documents.id', 'desc').execute();
  }

  /** The Document Center's documents of a type and size (the candidates for a file kept before). */
  sameSize(contentType: string, size: number): Promise<DocumentRow[]> {
    return this.documents().selectAll('documents').where('origin', '=', 'document').where('content_type', '=', contentType).where('size', '=', size).execute();
  }

  /** The records (id, category, data, private) documents are attached to. */
  recordsOf(recordIds: readonly number[]) {
    if (recordIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('health_records')
      .select(['id', 'category', 'data', 'private'])
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', 'in', recordIds)
      .execute();
  }

  /** The documents of a folder (null: those in no folder), newest first; `attached` narrows to documents attached to a record. */
  list(options: { folderId?: number | null; attachedOnly?: boolean; search?: string | undefined }): Promise<DocumentRow[]> {
    let query = this.documents().selectAll('documents');
    if (options.folderId !== undefined) query = options.folderId === null ? query.where('folder_id', 'is', null) : query.where('folder_id', '=', options.folderId);
    if (options.attachedOnly) query = query.where('record_id', 'is not', null);
    if (options.search)
      query = query.where(sql`translate(lower(file_name), 'ς', 'σ')`, 'like', sql<string>`translate(lower(${`%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}), 'ς', 'σ')`);
    return query.orderBy('documents.created_at', 'desc').orderBy('documents.id', 'desc').execute();
  }

  insert(document: NewDocument, userId: number | null): Promise<DocumentRow> {
    if (document.record_id === null) this.wholeRecordOnly();
    return this.db
      .insertInto('documents')
      .values({ ...document, org_id: this.scope.orgId, patient_id: this.scope.patientId, created_by: userId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A file a connected source brought, known by its source key: undefined when the patient has it already (kept once). */
  insertFromSource(document: NewDocument, sourceKey: string, userId: number | null): Promise<DocumentRow | undefined> {
    this.wholeRecordOnly();
    return this.db
      .insertInto('documents')
      .values({ ...document, org_id: this.scope.orgId, patient_id: this.scope.patientId, created_by: userId, source_key: sourceKey })
      .onConflict((oc) => oc.columns(['patient_id', 'source_key']).where('source_key', 'is not', null).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /** Which of these source keys the patient's documents already have. */
  async existingSourceKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.selectFrom('documents').select('source_key').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId).where('source_key', 'in', keys).execute();
    return new Set(rows.map((r) => r.source_key!));
  }

  update(id: number, changes: Partial<Pick<DocumentRow, 'folder_id' | 'record_id' | 'file_name'>>): Promise<DocumentRow | undefined> {
    // Detaching or filing a document takes it out of a limited grant's categories.
    if (changes.record_id === null || changes.folder_id !== undefined) this.wholeRecordOnly();
    return this.db
      .updateTable('documents')
      .set(changes)
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes a document; answers its row (for its file) or undefined when there was none. */
  delete(id: number): Promise<DocumentRow | undefined> {
    return this.db
      .deleteFrom('documents')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes the attachments uploaded to a record (before the record goes); answers their storage keys. */
  async deleteRecordAttachments(recordId: number): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('documents')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('record_id', '=', recordId)
      .where('origin', '=', 'attachment')
      .returning('storage_key')
      .execute();
    return rows.map((r) => r.storage_key);
  }

  folders(): Promise<Array<FolderRow & { documents: string }>> {
    return this.db
      .selectFrom('document_folders as f')
      .select(['f.id', 'f.org_id', 'f.patient_id', 'f.name', 'f.created_at'])
      .select((eb) => eb.selectFrom('documents as d').whereRef('d.folder_id', '=', 'f.id').select(sql<string>`count(*)`.as('n')).as('documents'))
      .where('f.org_id', '=', this.scope.orgId)
      .where('f.patient_id', '=', this.scope.patientId)
      .orderBy(sql`lower(f.name)`)
      .execute() as Promise<Array<FolderRow & { documents: string }>>;
  }

  folder(id: number): Promise<FolderRow | undefined> {
    return this.db
      .selectFrom('document_folders')
      .selectAll()
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  folderNamed(name: string, exceptId?: number): Promise<FolderRow | undefined> {
    let query = this.db
      .selectFrom('document_folders')
      .selectAll()
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      // Folded by PostgreSQL on both sides as the unique index does: lower case, and a final ς as σ (Greek).
      .where(sql`translate(lower(name), 'ς', 'σ')`, '=', sql<string>`translate(lower(${name}), 'ς', 'σ')`);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return query.executeTakeFirst();
  }

  insertFolder(name: string): Promise<FolderRow> {
    this.wholeRecordOnly();
    return this.db
      .insertInto('document_folders')
      .values({ org_id: this.scope.orgId, patient_id: this.scope.patientId, name })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  renameFolder(id: number, name: string): Promise<FolderRow | undefined> {
    this.wholeRecordOnly();
    return this.db
      .updateTable('document_folders')
      .set({ name })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes an empty folder: answers false when it holds documents (or is not there). */
  async deleteEmptyFolder(id: number): Promise<boolean> {
    this.wholeRecordOnly();
    const result = await this.db
      .deleteFrom('document_folders')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('documents').whereRef('documents.folder_id', '=', 'document_folders.id').select(sql`1`.as('x')))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
