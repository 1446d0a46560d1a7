import { reachesArea, reachesCategory, type AuditAction, type PatientAccessLevel, type PatientDataArea } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { AuditLog } from '../audit/audit.service';
import type { PatientRow } from './patients.repository';

/** The audit action of a read of each area ("who saw my record" words it). */
const READ_ACTION: Readonly<Record<PatientDataArea, AuditAction>> = {
  profile: 'patient_read',
  records: 'record_read',
  documents: 'document_read',
  journal: 'journal_read',
  insurance: 'insurance_read',
  calendar: 'calendar_read',
  appointments: 'appointment_read',
  chat: 'chat_read',
  assessments: 'assessment_read',
  shares: 'share_list_read',
  connections: 'connection_read',
};

/**
 * Who holds the scope: a level of the patients policy, a share's verified recipient, or the
 * provider of a video visit writing its note (PatientsService.openVisitNote: the medical-visit
 * records of that one patient, nothing else of the record).
 */
export type ScopeAccess = PatientAccessLevel | 'recipient' | 'provider';

export interface PatientScopeInit {
  patient: PatientRow;
  access: ScopeAccess;
  area: PatientDataArea;
  categories: readonly string[] | null;
  includePrivate: boolean;
  grantId: number | null;
  /** null only for the system's own work for the patient (ownerScope): nothing to audit there. */
  audit: AuditLog | null;
}

/**
 * The one door to a patient's data. Every repository of patient data takes this value and
 * nothing else: its organisation, its patient, whether private rows are in it and the
 * categories of a limited grant are the filter the repository adds to every query. It is made
 * only by the patients policy (PatientsService.open; openVisitNote for a visit's provider, one
 * category) and, for a verified recipient, by the sharing service: a lint rule forbids `new PatientScope` anywhere else, and the private field
 * makes a look-alike object unassignable to it.
 *
 * A scope can be narrowed (withoutPrivate) but never widened.
 */
export class PatientScope {
  readonly #minted = true;
  readonly orgId: number;
  readonly patientId: number;
  readonly patient: PatientRow;
  readonly access: ScopeAccess;
  /** The area the scope was opened for (what its audit rows say was reached). */
  readonly area: PatientDataArea;
  /** The categories a limited grant reaches; null for every one. */
  readonly categories: readonly string[] | null;
  /** Private ("for my eyes only") rows are in it: the owner's scope only, unless narrowed. */
  readonly includePrivate: boolean;
  /** The care-network grant it comes from (null for the owner and a recipient). */
  readonly grantId: number | null;
  readonly #audit: AuditLog | null;

  constructor(init: PatientScopeInit) {
    this.patient = init.patient;
    this.orgId = init.patient.org_id;
    this.patientId = init.patient.id;
    this.access = init.access;
    this.area = init.area;
    this.categories = init.categories;
    this.includePrivate = init.includePrivate && init.access === 'owner';
    this.grantId = init.grantId;
    this.#audit = init.audit;
  }

  /** The scope is a real one (a look-alike object has no private field). */
  static isScope(value: unknown): value is PatientScope {
    return typeof value === 'object' && value !== null && #minted in value;
  }

  get isOwner(): boolean {
    return this.access === 'owner';
  }

  /** Writes: the owner, full access, and a visit's provider (inside the scope's one category). */
  get canWrite(): boolean {
    return this.access === 'owner' || this.access === 'full' || this.access === 'provider';
  }

  /** Only the owner marks rows private (or public again). */
  get canMarkPrivate(): boolean {
    return this.access === 'owner';
  }

  /** Whether the holder reaches another area of the same record (an export that carries assessments, the journal…). */
  reachesArea(area: PatientDataArea): boolean {
    if (this.access === 'recipient' || this.access === 'provider') return area === this.area;
    return reachesArea({ access: this.access, categories: this.categories }, area);
  }

  /** Whether a record category is inside the scope. */
  reaches(category: string): boolean {
    return reachesCategory(this, category);
  }

  /** The same scope without private rows (an export that was not asked for them). */
  withoutPrivate(): PatientScope {
    if (!this.includePrivate) return this;
    return new PatientScope({ patient: this.patient, access: this.access, area: this.area, categories: this.categories, includePrivate: false, grantId: this.grantId, audit: this.#audit });
  }

  /**
   * The scope's audit: a read or change by anyone but the patient goes on the patient's trail
   * ("who saw my record"); the owner's own reads are not written.
   */
  async audit(ctx: ServiceContext, action: AuditAction, detail: Record<string, string | number | boolean | null> = {}, outcome: 'success' | 'denied' = 'success'): Promise<void> {
    if (this.isOwner && outcome === 'success') return;
    await this.#audit?.record(ctx, { action, outcome, subject: `patient:${this.patientId}`, detail: { area: this.area, ...detail } });
  }

  /** A read of the scope's area by anyone but the patient, with what was seen. */
  auditRead(ctx: ServiceContext, detail: Record<string, string | number | boolean | null> = {}): Promise<void> {
    return this.audit(ctx, READ_ACTION[this.area], detail);
  }

  /** Every change, the owner's included, is audited. */
  async auditChange(ctx: ServiceContext, action: AuditAction, detail: Record<string, string | number | boolean | null> = {}): Promise<void> {
    await this.#audit?.record(ctx, { action, outcome: 'success', subject: `patient:${this.patientId}`, detail });
  }
}

/**
 * The patient's own scope for work the system does for them, with nobody else involved: the
 * demo seed writing their chart, their calendar feed read by its secret address, a job. Allowed
 * by the lint rule only where that is so (eslint.config.js).
 */
export const ownerScope = (patient: PatientRow, area: PatientDataArea, audit: AuditLog | null = null): PatientScope =>
  new PatientScope({ patient, access: 'owner', area, categories: null, includePrivate: true, grantId: null, audit });
