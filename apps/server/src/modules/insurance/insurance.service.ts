import type { AuditAction } from '@healthbook/shared';
import { randomUUID } from 'node:crypto';
import {
  INSURANCE_PHOTO_MAX_BYTES,
  type CreateInsuranceCardBody,
  type InsuranceCard,
  type InsuranceSide,
  type UpdateInsuranceCardBody,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { FILE_TYPES, sniffFile, type FileType } from '../../lib/files/file-types';
import { stripMetadata } from '../../lib/files/strip-metadata';
import { FieldError, notFound } from '../../lib/http-errors';
import type { UploadedFile } from '../../lib/multipart';
import { servicePlugin } from '../../lib/service-plugin';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { presentInsuranceCard } from './insurance.presenter';
import { InsuranceRepository, type InsuranceCardChanges, type InsuranceCardRow } from './insurance.repository';

export const INSURANCE_PHOTO_MAX_MEGABYTES = INSURANCE_PHOTO_MAX_BYTES / (1024 * 1024);

/** A card's photo may be a photograph only: JPEG, PNG or WebP, by its bytes. */
const PHOTO_TYPES: ReadonlySet<FileType> = new Set(['image/jpeg', 'image/png', 'image/webp']);


/** A photo's bytes for download. */
export interface InsurancePhotoFile {
  data: Buffer;
  contentType: string;
  fileName: string;
}

const keyColumn = (side: InsuranceSide) => (side === 'front' ? 'front_key' : 'back_key');
const typeColumn = (side: InsuranceSide) => (side === 'front' ? 'front_content_type' : 'back_content_type');

/**
 * Insurance cards: the patient's cards and their photos, behind the same access decision as the
 * records (patients.policy.ts through `patients.grant`); every read by someone other than the
 * owner is audited. Photos go through the storage interface with the documents' upload checks
 * (type by magic bytes, size, metadata stripped).
 */
export class InsuranceService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly storage: Storage,
  ) {}

  private async auditChange(ctx: SignedInContext, grant: PatientScope, action: AuditAction, card: number, side?: InsuranceSide): Promise<void> {
    await this.audit.record(ctx, { action, outcome: 'success', subject: `patient:${grant.patient.id}`, detail: side ? { card, side } : { card } });
  }

  async list(ctx: SignedInContext, patientId?: number): Promise<InsuranceCard[]> {
    const grant = await this.patients.open(ctx, 'insurance', patientId);
    const rows = await new InsuranceRepository(this.db, grant).list();
    await grant.auditRead(ctx, { cards: rows.length });
    return rows.map(presentInsuranceCard);
  }

  async get(ctx: SignedInContext, id: number, patientId?: number): Promise<InsuranceCard> {
    const grant = await this.patients.open(ctx, 'insurance', patientId);
    const row = await new InsuranceRepository(this.db, grant).get(id);
    if (!row) throw notFound();
    await grant.auditRead(ctx, { card: id });
    return presentInsuranceCard(row);
  }

  async create(ctx: SignedInContext, body: CreateInsuranceCardBody, patientId?: number): Promise<InsuranceCard> {
    const grant = await this.patients.open(ctx, 'insurance', patientId, 'write');
    const row = await new InsuranceRepository(this.db, grant).insert(
      {
        insurer: body.insurer,
        plan: body.plan ?? null,
        member_number: body.member_number,
        group_number: body.group_number ?? null,
        holder_name: body.holder_name ?? null,
        holder_relationship: body.holder_relationship ?? 'self',
        valid_from: body.valid_from ?? null,
        valid_to: body.valid_to ?? null,
        notes: body.notes ?? null,
      },
      ctx.actor.userId,
    );
    await this.auditChange(ctx, grant, 'insurance_create', row.id);
    return presentInsuranceCard(row);
  }

  /** Only the fields given change; the validity must stay in order with the stored dates. */
  async update(ctx: SignedInContext, id: number, body: UpdateInsuranceCardBody, patientId?: number): Promise<InsuranceCard> {
    const grant = await this.patients.open(ctx, 'insurance', patientId, 'write');
    const repo = new InsuranceRepository(this.db, grant);
    const row = await repo.get(id);
    if (!row) throw notFound();
    const changes: InsuranceCardChanges = {};
    for (const key of ['insurer', 'plan', 'member_number', 'group_number', 'holder_name', 'holder_relationship', 'valid_from', 'valid_to', 'notes'] as const) {
      if (body[key] !== undefined) (changes as Record<string, unknown>)[key] = body[key];
    }
    const from = changes.valid_from !== undefined ? changes.valid_from : row.valid_from;
    const to = changes.valid_to !== undefined ? changes.valid_to : row.valid_to;
    if (from && to && to < from) throw new FieldError({ valid_to: ['validation:periodOrder'] });
    const updated = await repo.update(id, changes);
    if (!updated) throw notFound();
    await this.auditChange(ctx, grant, 'insurance_update', id);
    return presentInsuranceCard(updated);
  }

  async remove(ctx: SignedInContext, id: number, patientId?: number): Promise<void> {
    const grant = await this.patients.open(ctx, 'insurance', patientId, 'write');
    const deleted = await new InsuranceRepository(this.db, grant).delete(id);
    if (!deleted) throw notFound();
    for (const key of [deleted.front_key, deleted.back_key]) if (key) await this.deleteFile(ctx, key);
    await this.auditChange(ctx, grant, 'insurance_delete', id);
  }

  private async deleteFile(ctx: SignedInContext, key: string): Promise<void> {
    await this.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'insurance photo not deleted'));
  }

  /** Stores (or replaces) the photo of one side: JPEG, PNG or WebP by its bytes, at most 5 MB, without its metadata. Nothing is kept when anything fails. */
  async putPhoto(ctx: SignedInContext, id: number, side: InsuranceSide, file: UploadedFile, patientId?: number): Promise<InsuranceCard> {
    const grant = await this.patients.open(ctx, 'insurance', patientId, 'write');
    const repo = new InsuranceRepository(this.db, grant);
    const row = await repo.get(id);
    if (!row) throw notFound();
    if (file.data.length > INSURANCE_PHOTO_MAX_BYTES) throw new FieldError({ file: [{ key: 'validation:fileTooLarge', vars: { max: INSURANCE_PHOTO_MAX_MEGABYTES } }] }, 413);
    const type = sniffFile(file.data);
    if (!type || !PHOTO_TYPES.has(type)) throw new FieldError({ file: ['validation:photoTypeNotAllowed'] });
    const data = stripMetadata(file.data, type);
    const key = `insurance/${grant.patient.org_id}/${grant.patient.id}/${randomUUID()}.${FILE_TYPES[type]}`;
    await this.storage.put(key, data);
    let updated: InsuranceCardRow | undefined;
    try {
      updated = await repo.update(id, { [keyColumn(side)]: key, [typeColumn(side)]: type });
    } catch (err) {
      await this.deleteFile(ctx, key);
      throw err;
    }
    if (!updated) {
      await this.deleteFile(ctx, key);
      throw notFound();
    }
    const previous = row[keyColumn(side)];
    if (previous) await this.deleteFile(ctx, previous);
    await this.auditChange(ctx, grant, 'insurance_photo_put', id, side);
    return presentInsuranceCard(updated);
  }

  async deletePhoto(ctx: SignedInContext, id: number, side: InsuranceSide, patientId?: number): Promise<InsuranceCard> {
    const grant = await this.patients.open(ctx, 'insurance', patientId, 'write');
    const repo = new InsuranceRepository(this.db, grant);
    const row = await repo.get(id);
    const previous = row?.[keyColumn(side)];
    if (!row || !previous) throw notFound();
    const updated = await repo.update(id, { [keyColumn(side)]: null, [typeColumn(side)]: null });
    if (!updated) throw notFound();
    await this.deleteFile(ctx, previous);
    await this.auditChange(ctx, grant, 'insurance_photo_delete', id, side);
    return presentInsuranceCard(updated);
  }

  /** A side's photo, for whoever may read the card (audited for anyone but the owner). */
  async photo(ctx: SignedInContext, id: number, side: InsuranceSide, patientId?: number): Promise<InsurancePhotoFile> {
    const grant = await this.patients.open(ctx, 'insurance', patientId);
    const row = await new InsuranceRepository(this.db, grant).get(id);
    const key = row?.[keyColumn(side)];
    const contentType = row?.[typeColumn(side)];
    if (!row || !key || !contentType) throw notFound();
    const data = await this.storage.get(key);
    if (!data) {
      ctx.log.error({ card: id, side }, 'insurance photo missing from storage');
      throw notFound();
    }
    await grant.auditRead(ctx, { card: id, side });
    return { data, contentType, fileName: `insurance-card-${id}-${side}.${FILE_TYPES[contentType as FileType] ?? 'bin'}` };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    insurance: InsuranceService;
  }
}

export default servicePlugin('insurance', ['db', 'patients-service', 'audit-service', 'storage'], (app) => new InsuranceService(app.db, app.patients, app.audit, app.storage));
