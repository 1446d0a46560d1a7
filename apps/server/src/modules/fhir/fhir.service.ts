import { createHash, randomUUID } from 'node:crypto';
import type { Bundle, BundleEntry, Identifier, Patient, Reference, Resource } from '@medplum/fhirtypes';
import {
  CATEGORY_KEYS,
  categoryDefinition,
  checkRecord,
  formatMedicalDate,
  isCategoryKey,
  translate,
  type CategoryDefinition,
  type DatePart,
  type FhirExportQuery,
  type FhirImportItem,
  type FhirImportResult,
  type Language,
  type RecordErrors,
  type RecordValues,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { FieldError, HttpError } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { RecordsRepository, type RecordRow } from '../records/records.repository';
import { diff, fieldLabel, latestToday, titleOf, toStoredRecord, valuesOf } from '../records/records.service';
import {
  conceptText,
  exportMapping,
  PRIVATE_LABEL,
  recordToResource,
  resourceToInput,
  routeResource,
  SYSTEMS,
  type FhirJson,
  type WriteContext,
} from './fhir.mapping';
import type { SurveysService } from '../surveys/surveys.service';
import { assessmentResources, type AssessmentInput } from './assessments.fhir';
import { FhirRepository } from './fhir.repository';
import { type BundleEntryRead, type ShapeProblem } from './fhir.shapes';
import { checkImportLimits, readBundleInSlices, stringifyBundle } from './fhir.import-limits';
import { mapInSlices, sliceClock, yieldToLoop } from '../../lib/slices';
import { assertRoomForRecords } from '../records/records.limits';

/** A UUID made from a name (the SHA-1 name-based form, RFC 9562 version 5): the same record is the same resource in every export. */
export function nameUuid(name: string): string {
  const hex = createHash('sha1').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with keys in order, so that the same content is the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Longest source key kept readable; longer ones are kept as their hash. */
const SOURCE_KEY_MAX = 300;
const keyOf = (kind: 'id' | 'url', text: string) => (text.length + kind.length + 1 > SOURCE_KEY_MAX ? `${kind}:sha256:${sha256(text)}` : `${kind}:${text}`);

/** An absolute address a full URL may be known by again (not a relative or local one). */
const isGlobalUrl = (url: string) => /^(urn:uuid:|urn:oid:|https?:\/\/)/i.test(url);

/** FHIR administrative gender of ours. */
const GENDERS: Record<string, string> = { male: 'male', female: 'female', other: 'other', undisclosed: 'unknown' };

/** What an import needs of one entry, once read. */
interface Candidate {
  item: FhirImportItem;
  category?: CategoryDefinition;
  values?: RecordValues;
  /** The key the record is written with, and every key it may have been written with before. */
  sourceKey?: string;
  keys: string[];
  /** Our own records this resource was exported from (identifiers of this organisation). */
  ownIds: number[];
  signature?: string;
}

/**
 * FHIR R4 exchange of a patient's record: the export as a collection Bundle (the patient, then
 * one resource per record, fhir.mapping.ts), and the import of another system's Bundle after a
 * preview. Whose record and what the actor may do is the patients policy's decision; reads by
 * anyone but the owner are audited, like every other read of health records.
 *
 * Identifiers: a record is `urn:healthbook:record|<origin>/<record id>`, the patient
 * `urn:healthbook:patient|<origin>/<patient id>`, where the origin is the organisation's client
 * id and a short hash of when it was made (`healthbook.1a2b3c4d5e`): stable for as long as the
 * organisation exists, and different from a namesake organisation on another server.
 */
export class FhirService {
  /** Organisations' origins (they never change). */
  private readonly origins = new Map<number, string>();

  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly surveys: SurveysService,
  ) {}

  private async origin(orgId: number): Promise<string> {
    let origin = this.origins.get(orgId);
    if (!origin) {
      const org = await new FhirRepository(this.db, { orgId }).organization();
      origin = `${org?.name ?? 'org'}.${sha256(`${orgId}|${org?.created_at ?? ''}`).slice(0, 10)}`;
      this.origins.set(orgId, origin);
    }
    return origin;
  }

  private writeContext(lang: Language): WriteContext {
    return fhirWriteContext(lang);
  }

  /** The patient's records of some categories (all by default) as a FHIR R4 collection Bundle, serialised. */
  async export(ctx: SignedInContext, query: FhirExportQuery): Promise<{ json: string; records: number; patient: PatientScope['patient'] }> {
    const grant = await this.patients.open(ctx, 'records', query.patient);
    const categories = parseTypes(query.types);
    // "For my eyes only" records: asked for, and the owner asking.
    const scope = query.include_private === 'true' ? grant : grant.withoutPrivate();
    const includePrivate = scope.includePrivate;
    const rows = await new RecordsRepository(this.db, scope).listMany({ categories });
    // Survey results come too unless declined (and only for those who may see them).
    const assessments = query.assessments === 'false' ? [] : await this.surveys.forExport(grant);
    const bundle = await this.bundleOf(scope, rows, ctx.lang, assessments);

    if (!grant.isOwner) await this.audit.record(ctx, { action: 'record_read', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { fhir_export: 1, records: rows.length, assessments: assessments.length } });
    await this.audit.record(ctx, { action: 'fhir_export', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { records: rows.length, assessments: assessments.length, include_private: includePrivate } });
    return { json: await stringifyBundle(bundle), records: rows.length + assessments.length, patient: grant.patient };
  }

  /** A patient and some of their records as a FHIR R4 collection Bundle (the export's, and a SMART Health Link's content). */
  async bundleOf(scope: PatientScope, rows: RecordRow[], lang: Language, assessments: readonly AssessmentInput[] = []): Promise<Bundle> {
    const patientRow = scope.patient;
    const repo = new RecordsRepository(this.db, scope);
    const sources = await repo.sourceKeysOf(rows.map((r) => r.id));
    const origin = await this.origin(patientRow.org_id);
    const write = this.writeContext(lang);
    const now = new Date().toISOString();

    const patientId = nameUuid(`${origin}/patient/${patientRow.id}`);
    const patientRef: Reference<Patient> = { reference: `urn:uuid:${patientId}` };
    const { first_name: given, last_name: family, dob, gender } = patientRow;
    const patient: Patient = {
      resourceType: 'Patient',
      id: patientId,
      meta: { lastUpdated: now },
      identifier: [{ system: SYSTEMS.patient, value: `${origin}/${patientRow.id}` }],
      ...(given || family ? { name: [{ ...(family ? { family } : {}), ...(given ? { given: [given] } : {}) }] } : {}),
      ...(gender && GENDERS[gender] ? { gender: GENDERS[gender] as Patient['gender'] } : {}),
      ...(dob ? { birthDate: dob } : {}),
    };
    const entries: BundleEntry[] = [{ fullUrl: `urn:uuid:${patientId}`, resource: patient }];
    const clock = sliceClock();
    for (const row of rows) {
      const resource = this.recordResource(row, origin, sources.get(row.id), patientRef, write);
      entries.push({ fullUrl: `urn:uuid:${resource.id!}`, resource });
      await clock.pause();
    }
    for (const row of assessments) {
      const ids = { response: nameUuid(`${origin}/assessment/${row.id}`), observation: nameUuid(`${origin}/assessment/${row.id}/total`), identifier: `${origin}/${row.id}` };
      for (const resource of assessmentResources(row, ids, patientRef, lang)) entries.push({ fullUrl: `urn:uuid:${resource.id!}`, resource });
    }
    return { resourceType: 'Bundle', id: randomUUID(), meta: { lastUpdated: now }, type: 'collection', timestamp: now, entry: entries };
  }

  private recordResource(row: RecordRow, origin: string, sourceKey: string | undefined, patientRef: Reference<Patient>, write: WriteContext): Resource {
    const mapping = exportMapping(row.category);
    const { resourceType, extension, ...body } = recordToResource(mapping, valuesOf(row), write);
    const identifier: Identifier[] = [{ system: SYSTEMS.record, value: `${origin}/${row.id}` }];
    // A record imported from an identified resource names it too, so that it is known again wherever it goes back.
    if (sourceKey?.startsWith('id:') && !sourceKey.startsWith('id:sha256:')) {
      const [system, ...value] = sourceKey.slice(3).split('|');
      if (system && value.length) identifier.push({ system, value: value.join('|') });
    }
    // The mapping builds the resource element by element (fhir.mapping.ts); the tests validate it against R4.
    return {
      resourceType,
      id: nameUuid(`${origin}/record/${row.id}`),
      meta: { lastUpdated: row.updated_at, tag: [{ system: SYSTEMS.category, code: row.category }], ...(row.private ? { security: [PRIVATE_LABEL] } : {}) },
      ...(extension ? { extension } : {}),
      identifier,
      ...body,
      [mapping.patientElement]: patientRef,
    } as Resource;
  }

  /**
   * A Bundle read against the patient's record: each entry as it would be imported (new,
   * duplicate, skipped, invalid); with `accept`, the accepted new ones are added, in one
   * transaction, each with its first version, audited. A Bundle that is not one, or holds a
   * malformed resource, is refused whole (400), naming what is wrong.
   */
  async import(
    ctx: SignedInContext,
    body: { bundle: Record<string, unknown>; accept?: string[] | undefined; patient?: number | undefined },
    /** For one import made of many bundles (an Apple Health export's readings): the record, read once, kept up to date by each. */
    known?: KnownRecords,
  ): Promise<FhirImportResult> {
    const grant = await this.patients.open(ctx, 'records', body.patient, 'write');
    await checkImportLimits(body.bundle);
    const read = await readBundleInSlices(body.bundle);
    if (read.problems.length) throw bundleError(read.problems, read.more, ctx.lang);

    const scope = grant;
    const origin = await this.origin(grant.patient.org_id);
    const today = latestToday();
    const candidates = await this.candidates(read.entries, grant, origin, ctx.lang, today);
    const index = known ?? new KnownRecords();
    await this.markDuplicates(candidates, new RecordsRepository(this.db, scope), ctx.lang, index);

    let imported = 0;
    if (body.accept) {
      const accepted = new Set(body.accept);
      await this.db.transaction().execute(async (trx) => {
        const repo = new RecordsRepository(trx, scope);
        await assertRoomForRecords(repo, candidates.filter((c) => c.item.status === 'new' && accepted.has(c.item.key)).length, 'import');
        // The loop let go between records: a PGlite answer resolves without a turn of the event
        // loop, so thousands of inserts would otherwise be one hold.
        const clock = sliceClock();
        for (const c of candidates) {
          await clock.pause();
          if (c.item.status !== 'new' || !accepted.has(c.item.key) || !c.category || !c.values || !c.sourceKey) continue;
          const row = await repo.insertFromSource(toStoredRecord(c.category, c.values, today), c.sourceKey, ctx.actor.userId);
          if (!row) {
            // Another import of the same resource got there first.
            c.item.status = 'duplicate';
            c.item.reason = translate(ctx.lang, 'records:fhir.duplicateImported');
            continue;
          }
          await repo.addVersion(row.id, 1, 'create', row.data, diff({}, valuesOf(row)), ctx.actor.userId);
          index.add(row.id, c.signature!);
          await this.audit.record(ctx, { action: 'record_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { category: row.category, record: row.id, source: 'fhir' } }, trx);
          imported++;
        }
        const counts = tally(candidates);
        await this.audit.record(ctx, { action: 'fhir_import', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { entries: candidates.length, imported, ...counts } }, trx);
      });
    } else {
      // A preview reads the record (what is there already decides what is new).
      await grant.auditRead(ctx, { fhir_import_preview: 1, entries: candidates.length });
    }
    // The answer (thousands of items) is serialised as soon as this returns: the loop is let go first,
    // so that hold and the last slice's are not one.
    await yieldToLoop();
    return { preview: !body.accept, items: candidates.map((c) => c.item), imported, ...tally(candidates) };
  }

  /** Each entry read into a record of its category (checked by the category's rules), or why not. */
  private candidates(entries: BundleEntryRead[], grant: PatientScope, origin: string, lang: Language, today: string): Promise<Candidate[]> {
    const byUrl = new Map(entries.filter((e) => e.fullUrl).map((e) => [e.fullUrl!, e.resource]));
    // The first entry of each Type/id, as a search through the entries would find it.
    const byTypeId = new Map<string, FhirJson>();
    for (const e of entries.toReversed()) byTypeId.set(`${String(e.resource.resourceType)}/${String(e.resource.id)}`, e.resource);
    const resolve = (reference: string) => byUrl.get(reference) ?? byTypeId.get(reference);
    const pastText = translate(lang, 'records:inThePast');
    // In slices (lib/slices.ts): thousands of entries must not hold the event loop.
    return mapInSlices(entries, (entry): Candidate => {
      const type = String(entry.resource.resourceType);
      const base = { key: `${entry.index}:${type}`, resource_type: type, date: null, reason: null };
      const read = readResource(entry.resource, { reaches: (c) => grant.reaches(c), dob: grant.patient.dob, today, resolve });
      if (read.kind === 'skipped') {
        return { item: { ...base, category: read.category?.key ?? null, title: resourceTitle(entry.resource), status: 'skipped', reason: translate(lang, read.reason.key, read.reason.vars) }, keys: [], ownIds: [] };
      }
      const { category } = read;
      const shown = read.kind === 'invalid' ? read.input : read.values;
      const item: FhirImportItem = {
        ...base,
        category: category.key,
        title: titleOf(category, shown as Record<string, never>, lang) || resourceTitle(entry.resource),
        date: dateText(category, shown, lang, pastText),
        status: read.kind === 'invalid' ? 'invalid' : 'new',
        reason: read.kind === 'invalid' ? errorText(category, read.errors, lang) : null,
      };
      if (read.kind === 'invalid') return { item, keys: [], ownIds: [] };
      const { values } = read;
      const keys = sourceKeys(entry);
      const { private: _private, ...data } = values;
      return { item, category, values, sourceKey: keys[0], keys, ownIds: ownRecordIds(entry.resource, origin), signature: `${category.key}|${canonical(data)}` };
    });
  }

  /** Duplicates: imported before (a source key), exported from one of the patient's records, the same values as one, or the same entry twice. */
  private async markDuplicates(candidates: Candidate[], repo: RecordsRepository, lang: Language, index: KnownRecords): Promise<void> {
    const keys = [...new Set(candidates.flatMap((c) => c.keys))];
    const known = new Set<string>();
    // A few hundred keys a statement: one of thousands would hold the event loop (on PGlite, the whole
    // query). And the loop let go between statements: a PGlite answer resolves without a turn of the
    // event loop, so statement after statement would be one hold of them all.
    for (let i = 0; i < keys.length; i += 500) {
      for (const k of await repo.existingSourceKeys(keys.slice(i, i + 500))) known.add(k);
      await yieldToLoop();
    }
    const { ids, signatures } = await index.load(repo);
    const seenKeys = new Set<string>();
    const seenSignatures = new Set<string>();
    // Each reason translated once, and the loop in slices: thousands of entries of a bundle
    // exported twice are thousands of duplicates.
    const reasons = new Map<string, string>();
    const reason = (why: string) => reasons.get(why) ?? reasons.set(why, translate(lang, `records:fhir.${why}`)).get(why)!;
    const clock = sliceClock();
    for (const c of candidates) {
      await clock.pause();
      if (c.item.status !== 'new') continue;
      const why = c.keys.some((k) => known.has(k))
        ? 'duplicateImported'
        : c.ownIds.some((id) => ids.has(id))
          ? 'duplicateOwn'
          : signatures.has(c.signature!)
            ? 'duplicateSame'
            : c.keys.some((k) => seenKeys.has(k)) || seenSignatures.has(c.signature!)
              ? 'duplicateInBundle'
              : null;
      for (const k of c.keys) seenKeys.add(k);
      seenSignatures.add(c.signature!);
      if (why) {
        c.item.status = 'duplicate';
        c.item.reason = reason(why);
      }
    }
  }
}

/**
 * The patient's records as an import compares them: their ids (our own export coming back) and
 * their values (the same record typed or imported before). Read once per import, or once for an
 * import made of many bundles, which then keeps it up to date with what each adds.
 */
export class KnownRecords {
  private loaded: { ids: Set<number>; signatures: Set<string> } | null = null;

  async load(repo: RecordsRepository): Promise<{ ids: Set<number>; signatures: Set<string> }> {
    if (this.loaded) return this.loaded;
    const existing = await repo.contents();
    this.loaded = { ids: new Set(existing.map((r) => r.id)), signatures: new Set(await mapInSlices(existing, (r) => `${r.category}|${canonical(r.data)}`)) };
    return this.loaded;
  }

  add(id: number, signature: string): void {
    this.loaded?.ids.add(id);
    this.loaded?.signatures.add(signature);
  }
}

/** The words a resource written from a record may need, in the reader's language. */
export function fhirWriteContext(lang: Language): WriteContext {
  return { pastText: translate(lang, 'records:inThePast'), unknownDateText: translate(lang, 'records:fhir.dateUnknown') };
}

/** What a resource becomes: a record of a category (its values checked by the category's rules), a record that breaks them, or nothing (why). */
export type ResourceReading =
  | { kind: 'skipped'; category: CategoryDefinition | null; reason: { key: string; vars?: Record<string, string | number> } }
  | { kind: 'invalid'; category: CategoryDefinition; input: RecordValues; errors: RecordErrors }
  | { kind: 'record'; category: CategoryDefinition; values: RecordValues };

/**
 * One resource read through the mapping into its category (the import's preview and a source's
 * sync alike): skipped when no category takes it or the scope does not reach that category (as a
 * direct create would be refused), else checked by the category's rules.
 */
export function readResource(
  resource: FhirJson,
  ctx: { reaches: (category: string) => boolean; dob: string | null; today: string; resolve: (reference: string) => FhirJson | undefined },
): ResourceReading {
  const route = routeResource(resource);
  if ('skip' in route) return { kind: 'skipped', category: null, reason: { key: route.skip.key, ...(route.skip.vars ? { vars: route.skip.vars } : {}) } };
  const category = categoryDefinition(route.mapping.category)!;
  if (!ctx.reaches(category.key)) return { kind: 'skipped', category, reason: { key: 'records:fhir.categoryNotShared' } };
  const input = resourceToInput(route.mapping, resource, { resolve: ctx.resolve });
  const { values, errors } = checkRecord(category, input, { today: ctx.today, dob: ctx.dob, creating: true });
  return errors ? { kind: 'invalid', category, input: input as RecordValues, errors } : { kind: 'record', category, values };
}

function tally(candidates: Candidate[]) {
  const count = (status: FhirImportItem['status']) => candidates.filter((c) => c.item.status === status).length;
  return { duplicates: count('duplicate'), skipped: count('skipped'), invalid: count('invalid') };
}

/** `?types=` as categories (all when absent); an unknown one is a 400 under `types`. */
function parseTypes(types: string | undefined): string[] {
  if (!types?.trim()) return [...CATEGORY_KEYS];
  const asked = [...new Set(types.split(',').map((t) => t.trim()).filter(Boolean))];
  if (asked.some((t) => !isCategoryKey(t))) throw new FieldError({ types: ['validation:categoryUnknown'] });
  return asked;
}

/**
 * The keys an entry may have been imported with: its identifiers, its full URL (when it is a
 * global one), a hash of its content. The first is the one a new record is written with.
 */
function sourceKeys(entry: BundleEntryRead): string[] {
  const keys: string[] = [];
  for (const identifier of Array.isArray(entry.resource.identifier) ? entry.resource.identifier : []) {
    const { system, value } = identifier as { system?: unknown; value?: unknown };
    if (typeof system === 'string' && typeof value === 'string' && system && value) keys.push(keyOf('id', `${system}|${value}`));
  }
  if (entry.fullUrl && isGlobalUrl(entry.fullUrl)) keys.push(keyOf('url', entry.fullUrl));
  const { id: _id, meta: _meta, text: _text, ...content } = entry.resource;
  keys.push(`sha256:${sha256(canonical(content))}`);
  return keys;
}

/** The ids of this organisation's records a resource names as where it came from (our own export coming back). */
function ownRecordIds(resource: FhirJson, origin: string): number[] {
  const ids: number[] = [];
  for (const identifier of Array.isArray(resource.identifier) ? resource.identifier : []) {
    const { system, value } = identifier as { system?: unknown; value?: unknown };
    if (system !== SYSTEMS.record || typeof value !== 'string' || !value.startsWith(`${origin}/`)) continue;
    const id = Number(value.slice(origin.length + 1));
    if (Number.isSafeInteger(id) && id > 0) ids.push(id);
  }
  return ids;
}

/** What names a resource that is not imported: its code in words, a patient's name, else its resource type. */
function resourceTitle(resource: FhirJson): string {
  if (resource.resourceType === 'Patient' && Array.isArray(resource.name)) {
    const name = resource.name[0] as { given?: unknown; family?: unknown; text?: unknown } | undefined;
    const text = typeof name?.text === 'string' ? name.text : [...(Array.isArray(name?.given) ? name.given : []), name?.family].filter((p) => typeof p === 'string').join(' ');
    if (text.trim()) return text.trim();
  }
  return conceptText(resource.code) ?? String(resource.resourceType);
}

/** The record's date in the reader's language ("14 May 2019", "May 2019", "In the past"), or null. */
function dateText(category: CategoryDefinition, values: RecordValues, lang: Language, pastText: string): string | null {
  if (!category.dateField) return null;
  const field = category.fields.find((f) => f.name === category.dateField);
  const date = values[category.dateField];
  const part = field?.kind === 'medicalDate' ? ((values[`${category.dateField}_part`] as DatePart | null) ?? (date ? 'day' : null)) : date ? 'day' : null;
  if (!part) return null;
  return formatMedicalDate({ date: typeof date === 'string' ? date : null, part }, lang, pastText) || null;
}

/** Why a record breaks its category's rules, in words: each field and its first message (three at most). */
function errorText(category: CategoryDefinition, errors: RecordErrors, lang: Language): string {
  return Object.entries(errors)
    .slice(0, 3)
    .map(([field, messages]) => {
      const name = field.endsWith('_part') ? field.slice(0, -'_part'.length) : field;
      const label = name === 'private' ? translate(lang, 'records:fields.private') : fieldLabel(category, name, lang);
      return translate(lang, 'records:fhir.invalidField', { field: label, message: translate(lang, messages[0]!.key, messages[0]!.vars) });
    })
    .join(' ');
}

/** The 400 of a malformed Bundle: every problem found (ten at most), where and what, in the reader's language. */
function bundleError(problems: ShapeProblem[], more: number, lang: Language): HttpError {
  const notBundle = problems.find((p) => p.problem === 'fhirNotBundle');
  if (notBundle) return new HttpError(400, 'errors:fhirNotBundle', { type: notBundle.type ?? '' });
  const lines = problems.map((p) => {
    const where = p.entry === null ? (p.type ?? 'Bundle') : `${translate(lang, 'errors:fhirEntry', { index: p.entry })}${p.type ? ` (${p.type})` : ''}`;
    return translate(lang, 'errors:fhirProblem', { where, element: p.element, problem: translate(lang, `errors:${p.problem}`, { expected: p.expected ?? '' }) });
  });
  if (more) lines.push(translate(lang, 'errors:fhirMoreProblems', { count: more }));
  return new HttpError(400, 'errors:fhirBundleInvalid', { problems: lines.join('; ') });
}

declare module 'fastify' {
  interface FastifyInstance {
    fhir: FhirService;
  }
}

export default servicePlugin('fhir', ['db', 'patients-service', 'audit-service', 'surveys-service'], (app) => new FhirService(app.db, app.patients, app.audit, app.surveys));
