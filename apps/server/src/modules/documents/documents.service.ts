import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  categoryDefinition,
  cleanText,
  DOCUMENT_MAX_BYTES,
  type Attachment,
  type CategoryDefinition,
  type DocumentDto,
  type DocumentListQuery,
  type FolderDto,
  type UpdateDocumentBody,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { FILE_TYPES, sniffFile, type FileType } from '../../lib/files/file-types';
import { stripMetadata } from '../../lib/files/strip-metadata';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import type { UploadedFile } from '../../lib/multipart';
import { servicePlugin } from '../../lib/service-plugin';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { RecordsRepository } from '../records/records.repository';
import { titleOf } from '../records/records.service';
import { presentAttachment } from './documents.presenter';
import { DocumentsRepository, type DocumentRow, type NewDocument } from './documents.repository';

export const DOCUMENT_MAX_MEGABYTES = DOCUMENT_MAX_BYTES / (1024 * 1024);


/** A file name to show and to offer on download: its last segment, one clean line, the real type's extension. */
export function cleanFileName(name: string, type: FileType): string {
  return cleanNameWith(name, FILE_TYPES[type]);
}

/** What the server keeps of an import besides what users upload (keepImported), with its extension. */
const KEPT_TYPES = { 'application/xml': 'xml', 'application/pdf': 'pdf' } as const;

function cleanNameWith(name: string, extension: string): string {
  const base = cleanText(path.basename(name.replace(/\\/g, '/')))
    .replace(/\p{Cc}/gu, '')
    .replace(/["<>|:*?]/g, '_')
    .slice(0, 180);
  const stem = base.replace(/\.[^.]{1,8}$/, '') || 'document';
  return `${stem}.${extension}`;
}

/** Where a stored file goes: a folder, a record (an attachment), or neither. */
type Placement = { folderId: number | null; recordId: number | null; origin: 'attachment' | 'document' };

/** An upload's checks (size, a type of the allow-list by its content), then its bytes without metadata and its clean name. */
function checked(file: UploadedFile) {
  if (file.data.length > DOCUMENT_MAX_BYTES) throw new FieldError({ file: [{ key: 'validation:fileTooLarge', vars: { max: DOCUMENT_MAX_MEGABYTES } }] }, 413);
  const type = sniffFile(file.data);
  if (!type) throw new FieldError({ file: ['validation:fileTypeNotAllowed'] });
  return { data: stripMetadata(file.data, type), fileName: cleanFileName(file.filename || 'document', type), contentType: type, extension: FILE_TYPES[type] };
}

/** A file's bytes for download, with what to send them as. */
export interface DocumentFile {
  data: Buffer;
  contentType: string;
  fileName: string;
}

/**
 * Documents and attachments: the patient's files, told apart by their content (an allow-list
 * of PDF and image types, never the name or the declared type), at most 20 MB, images without
 * their metadata (EXIF, GPS), behind the same access decision as the records; every read by
 * someone other than the owner is audited.
 */
export class DocumentsService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly storage: Storage,
  ) {}

  /** Checks and stores a file; answers its row. Nothing is kept when anything fails. */
  private async store(ctx: SignedInContext, grant: PatientScope, file: UploadedFile, placement: Placement): Promise<DocumentRow> {
    return (await this.put(grant, checked(file), placement, (repo, row) => repo.insert(row, ctx.actor.userId)))!;
  }

  /**
   * Stores bytes already checked, then writes their row (`write`); the file is removed again when
   * no row is written (a source's file the patient has already) or the write fails.
   */
  private async put(
    grant: PatientScope,
    file: { data: Buffer; fileName: string; contentType: string; extension: string },
    placement: Placement,
    write: (repo: DocumentsRepository, row: NewDocument) => Promise<DocumentRow | undefined>,
  ): Promise<DocumentRow | undefined> {
    const key = `documents/${grant.patient.org_id}/${grant.patient.id}/${randomUUID()}.${file.extension}`;
    await this.storage.put(key, file.data);
    try {
      const row = await write(new DocumentsRepository(this.db, grant), {
        folder_id: placement.folderId,
        record_id: placement.recordId,
        origin: placement.origin,
        file_name: file.fileName,
        content_type: file.contentType,
        size: file.data.length,
        storage_key: key,
      });
      if (!row) await this.storage.delete(key).catch(() => undefined);
      return row;
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw err;
    }
  }

  /**
   * A file a connected source brought (a DocumentReference's attachment), into the patient's
   * Document Center in the folder named after the source (made when missing); kept once by its
   * source key (undefined when the patient has it already). The checks are an upload's: a type
   * outside the allow-list or a file over the limit is a FieldError the sync reports as skipped.
   */
  async keepFromSource(scope: PatientScope, file: UploadedFile, where: { folderName: string; sourceKey: string; userId: number | null }): Promise<DocumentRow | undefined> {
    const repo = new DocumentsRepository(this.db, scope);
    const folder = (await repo.folderNamed(where.folderName)) ?? (await repo.insertFolder(where.folderName));
    return this.put(scope, checked(file), { folderId: folder.id, recordId: null, origin: 'document' }, (r, row) => r.insertFromSource(row, where.sourceKey, where.userId));
  }

  private async presentAll(grant: PatientScope, rows: DocumentRow[], lang: SignedInContext['lang']): Promise<DocumentDto[]> {
    const recordIds = [...new Set(rows.map((r) => r.record_id).filter((id): id is number => id !== null))];
    const records = new Map((await new DocumentsRepository(this.db, grant).recordsOf(recordIds)).map((r) => [r.id, r]));
    return rows.map((row) => {
      const record = row.record_id !== null ? records.get(row.record_id) : undefined;
      const definition = record ? categoryDefinition(record.category) : undefined;
      return {
        ...presentAttachment(row),
        folder: row.folder_id,
        origin: row.origin,
        record: record && definition ? { id: record.id, record_type: record.category, title: titleOf(definition, record.data, lang) } : null,
      };
    });
  }

  /** A record the actor may change, of the category named (another category's id is not found). */
  private async writableRecord(grant: PatientScope, recordId: number, category?: CategoryDefinition) {
    const repo = new RecordsRepository(this.db, grant);
    const record = category ? await repo.get(category.key, recordId) : await repo.getAny(recordId);
    if (!record) throw notFound();
    return record;
  }

  // --- The spec's attachment routes --------------------------------------------------------

  /** POST /api/v1/hr/{id}/attachment/: content_type names the record's category, content_object_id its id (both optional, but they must match). */
  async attach(ctx: SignedInContext, recordId: number, fields: Record<string, string>, file: UploadedFile, patientId?: number): Promise<Attachment> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const category = fields.content_type ? categoryDefinition(fields.content_type) : undefined;
    if (fields.content_type && !category) throw new FieldError({ content_type: [{ key: 'validation:invalidChoice', vars: { value: fields.content_type.slice(0, 50) } }] });
    if (fields.content_object_id && fields.content_object_id.trim() !== String(recordId)) throw new FieldError({ content_object_id: ['validation:recordMismatch'] });
    await this.writableRecord(grant, recordId, category);
    const row = await this.store(ctx, grant, file, { folderId: null, recordId, origin: 'attachment' });
    await this.audit.record(ctx, { action: 'attachment_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { record: recordId, document: row.id } });
    return presentAttachment(row);
  }

  /** DELETE /api/v1/hr/attachment/{id}: an attachment uploaded to the record goes (its file too); a Document Center document is only detached. */
  async removeAttachment(ctx: SignedInContext, id: number, patientId?: number): Promise<void> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const repo = new DocumentsRepository(this.db, grant);
    const row = await repo.get(id);
    if (!row || row.record_id === null) throw notFound();
    if (row.origin === 'document') await repo.update(id, { record_id: null });
    else await this.deleteRow(ctx, repo, id);
    await this.audit.record(ctx, { action: 'attachment_delete', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { document: id } });
  }

  private async deleteRow(ctx: SignedInContext, repo: DocumentsRepository, id: number): Promise<void> {
    const deleted = await repo.delete(id);
    if (!deleted) throw notFound();
    await this.storage.delete(deleted.storage_key).catch((err: unknown) => ctx.log.warn({ err, key: deleted.storage_key }, 'document file not deleted'));
  }

  // --- The Document Center -----------------------------------------------------------------

  async list(ctx: SignedInContext, query: DocumentListQuery): Promise<DocumentDto[]> {
    const grant = await this.patients.open(ctx, 'documents', query.patient);
    const rows = await new DocumentsRepository(this.db, grant).list({
      ...(query.folder === undefined ? {} : { folderId: query.folder === 'none' ? null : query.folder }),
      attachedOnly: query.attached === 'true',
      search: query.search?.trim() || undefined,
    });
    await grant.auditRead(ctx, { documents: rows.length });
    return this.presentAll(grant, rows, ctx.lang);
  }

  async get(ctx: SignedInContext, id: number, patientId?: number): Promise<DocumentDto> {
    const grant = await this.patients.open(ctx, 'documents', patientId);
    const row = await new DocumentsRepository(this.db, grant).get(id);
    if (!row) throw notFound();
    await grant.auditRead(ctx, { document: id });
    return (await this.presentAll(grant, [row], ctx.lang))[0]!;
  }

  async upload(ctx: SignedInContext, fields: Record<string, string>, file: UploadedFile, patientId?: number): Promise<DocumentDto> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const repo = new DocumentsRepository(this.db, grant);
    const folderId = fields.folder && fields.folder !== 'none' ? Number(fields.folder) : null;
    if (folderId !== null && (!Number.isInteger(folderId) || !(await repo.folder(folderId)))) throw new FieldError({ folder: ['validation:invalid'] });
    const row = await this.store(ctx, grant, file, { folderId, recordId: null, origin: 'document' });
    await this.audit.record(ctx, { action: 'document_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { document: row.id } });
    return (await this.presentAll(grant, [row], ctx.lang))[0]!;
  }

  /**
   * A document the server has read or made itself before keeping it: an imported C-CDA, parsed
   * by its converter (fhir/ccda.ts), and its readable copy (a PDF the server drew). That is why
   * the XML may be kept, a type the upload's allow-list does not take: the list is for files
   * that only their first bytes vouch for. It goes to the Document Center (no folder), served
   * like every stored file (never sniffed, sandboxed). The name keeps its stem, with the type's
   * extension. With `once`, a file whose very bytes the Document Center holds already is not
   * kept again: that document is answered, `stored` false.
   */
  async keepImported(ctx: SignedInContext, file: { data: Buffer; fileName: string; contentType: keyof typeof KEPT_TYPES }, patientId?: number, options: { once?: boolean } = {}): Promise<{ document: DocumentDto; stored: boolean }> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    if (file.data.length > DOCUMENT_MAX_BYTES) throw new FieldError({ file: [{ key: 'validation:fileTooLarge', vars: { max: DOCUMENT_MAX_MEGABYTES } }] }, 413);
    if (options.once) {
      for (const row of await new DocumentsRepository(this.db, grant).sameSize(file.contentType, file.data.length)) {
        const stored = await this.storage.get(row.storage_key);
        if (stored?.equals(file.data)) return { document: (await this.presentAll(grant, [row], ctx.lang))[0]!, stored: false };
      }
    }
    const extension = KEPT_TYPES[file.contentType];
    const row = (await this.put(grant, { data: file.data, fileName: cleanNameWith(file.fileName, extension), contentType: file.contentType, extension }, { folderId: null, recordId: null, origin: 'document' }, (repo, r) => repo.insert(r, ctx.actor.userId)))!;
    await this.audit.record(ctx, { action: 'document_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { document: row.id, source: 'ccda' } });
    return { document: (await this.presentAll(grant, [row], ctx.lang))[0]!, stored: true };
  }

  /** Move to a folder, rename, attach to a record or detach. */
  async update(ctx: SignedInContext, id: number, body: UpdateDocumentBody, patientId?: number): Promise<DocumentDto> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const repo = new DocumentsRepository(this.db, grant);
    const row = await repo.get(id);
    if (!row) throw notFound();
    const changes: Parameters<DocumentsRepository['update']>[1] = {};
    if (body.folder !== undefined) {
      if (body.folder !== null && !(await repo.folder(body.folder))) throw new FieldError({ folder: ['validation:invalid'] });
      changes.folder_id = body.folder;
    }
    if (body.record !== undefined) {
      if (body.record !== null) await this.writableRecord(grant, body.record).catch(() => Promise.reject(new FieldError({ record: ['validation:invalid'] })));
      changes.record_id = body.record;
    }
    if (body.file_name !== undefined) changes.file_name = Object.hasOwn(FILE_TYPES, row.content_type) ? cleanFileName(body.file_name, row.content_type as FileType) : cleanNameWith(body.file_name, path.extname(row.file_name).slice(1) || 'bin');
    const updated = Object.keys(changes).length ? await repo.update(id, changes) : row;
    if (!updated) throw notFound();
    await this.audit.record(ctx, { action: 'document_update', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { document: id } });
    return (await this.presentAll(grant, [updated], ctx.lang))[0]!;
  }

  async remove(ctx: SignedInContext, id: number, patientId?: number): Promise<void> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const repo = new DocumentsRepository(this.db, grant);
    if (!(await repo.get(id))) throw notFound();
    await this.deleteRow(ctx, repo, id);
    await this.audit.record(ctx, { action: 'document_delete', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { document: id } });
  }

  /** A document's bytes, for whoever may read it (a record's attachment: whoever may read the record). */
  async file(ctx: SignedInContext, id: number, patientId?: number): Promise<DocumentFile> {
    const grant = await this.patients.open(ctx, 'documents', patientId);
    const row = await new DocumentsRepository(this.db, grant).get(id);
    if (!row) throw notFound();
    const data = await this.storage.get(row.storage_key);
    if (!data) {
      ctx.log.error({ document: id }, 'document file missing from storage');
      throw notFound();
    }
    await grant.auditRead(ctx, { document: id, file: 1 });
    return { data, contentType: row.content_type, fileName: row.file_name };
  }

  // --- Folders ----------------------------------------------------------------------------

  async folders(ctx: SignedInContext, patientId?: number): Promise<FolderDto[]> {
    const grant = await this.patients.open(ctx, 'documents', patientId);
    const rows = await new DocumentsRepository(this.db, grant).folders();
    await grant.auditRead(ctx, { folders: rows.length });
    return rows.map((f) => ({ id: f.id, name: f.name, documents: Number(f.documents), created_at: new Date(f.created_at).toISOString() }));
  }

  async createFolder(ctx: SignedInContext, name: string, patientId?: number): Promise<FolderDto> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const repo = new DocumentsRepository(this.db, grant);
    if (await repo.folderNamed(name)) throw new FieldError({ name: ['validation:folderNameTaken'] });
    const row = await repo.insertFolder(name).catch((err: unknown) => {
      // Two requests racing for one name: the unique index decides.
      if ((err as { code?: string }).code === '23505') throw new FieldError({ name: ['validation:folderNameTaken'] });
      throw err;
    });
    await grant.auditChange(ctx, 'folder_create', { folder: row.id });
    return { id: row.id, name: row.name, documents: 0, created_at: new Date(row.created_at).toISOString() };
  }

  async renameFolder(ctx: SignedInContext, id: number, name: string, patientId?: number): Promise<FolderDto> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const repo = new DocumentsRepository(this.db, grant);
    if (!(await repo.folder(id))) throw notFound();
    if (await repo.folderNamed(name, id)) throw new FieldError({ name: ['validation:folderNameTaken'] });
    await repo.renameFolder(id, name).catch((err: unknown) => {
      if ((err as { code?: string }).code === '23505') throw new FieldError({ name: ['validation:folderNameTaken'] });
      throw err;
    });
    await grant.auditChange(ctx, 'folder_update', { folder: id });
    return (await this.folders(ctx, patientId)).find((f) => f.id === id)!;
  }

  async deleteFolder(ctx: SignedInContext, id: number, patientId?: number): Promise<void> {
    const grant = await this.patients.open(ctx, 'documents', patientId, 'write');
    const repo = new DocumentsRepository(this.db, grant);
    if (!(await repo.folder(id))) throw notFound();
    if (!(await repo.deleteEmptyFolder(id))) throw new HttpError(409, 'errors:folderNotEmpty');
    await grant.auditChange(ctx, 'folder_delete', { folder: id });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    documents: DocumentsService;
  }
}

export default servicePlugin('documents', ['db', 'patients-service', 'audit-service', 'storage'], (app) => new DocumentsService(app.db, app.patients, app.audit, app.storage));
