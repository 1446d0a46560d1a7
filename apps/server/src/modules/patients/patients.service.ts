import type { Patient } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import { canWrite, patientAccess, type PatientAccess } from './patients.policy';
import { PatientsRepository, type PatientRow } from './patients.repository';

/** A patient the actor may act on, and how. */
export interface PatientGrant {
  patient: PatientRow;
  access: PatientAccess;
  /** The actor is the patient. */
  isOwner: boolean;
  /** The record categories the actor may see: null for all (the owner; a grant without a limit). */
  categories: readonly string[] | null;
  /** The care-network grant the access comes from (null for the owner). */
  grantId: number | null;
}

/** The scope repositories of a patient's data are built for: the organisation, the patient, the categories the grant allows. */
export interface GrantScope {
  readonly orgId: number;
  readonly patientId: number;
  readonly categories?: readonly string[] | null | undefined;
}

/** The repository scope of a grant (the one place that turns a grant into a data filter). */
export const grantScope = (grant: PatientGrant): GrantScope => ({ orgId: grant.patient.org_id, patientId: grant.patient.id, categories: grant.categories });

/**
 * Whose record a request acts on (`?patient=`, the actor's own by default) and what the actor
 * may do with it (patients.policy.ts). Refusals are 404 — "not yours" and "not there" look the
 * same — and are audited, as is every access by someone other than the patient.
 */
export class PatientsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  async grant(ctx: SignedInContext, patientId?: number, intent: 'read' | 'write' = 'read'): Promise<PatientGrant> {
    const repo = new PatientsRepository(this.db, orgScope(ctx.actor.orgId));
    const own = ctx.actor.user.own_patient;
    const asked = patientId ?? ctx.viewing;
    // The actor's own patient came with the session (kept true by the session cache).
    const patient = asked === undefined || asked === own?.id ? (own ?? (await repo.findByUser(ctx.actor.userId))) : await repo.findById(asked);
    // Read on every request, never cached: a removal or a change of access holds at once.
    const careGrant = patient && patient.user_id !== ctx.actor.userId ? await repo.activeGrant(patient.id, ctx.actor.userId) : undefined;
    const access = patient ? patientAccess(ctx.actor, patient, careGrant) : null;
    if (!patient || !access) {
      await this.audit.record(ctx, { action: 'patient_access', outcome: 'denied', subject: `patient:${asked ?? 'self'}`, detail: { intent } });
      throw notFound();
    }
    if (intent === 'write' && !canWrite(access)) {
      await this.audit.record(ctx, { action: 'patient_access', outcome: 'denied', subject: `patient:${patient.id}`, detail: { intent, access } });
      throw new HttpError(403, 'errors:readOnlyAccess');
    }
    const isOwner = access === 'owner';
    // Every access by someone other than the patient is on the patient's trail ("who saw my record"), whatever the route.
    if (!isOwner) await this.audit.record(ctx, { action: 'patient_access', outcome: 'success', subject: `patient:${patient.id}`, detail: { intent, access } });
    return { patient, access, isOwner, categories: isOwner ? null : (careGrant?.categories ?? null), grantId: isOwner ? null : (careGrant?.id ?? null) };
  }

  present(grant: Pick<PatientGrant, 'patient' | 'access' | 'isOwner' | 'categories'> & { kind?: 'invitation' | 'dependant' | undefined }): Patient {
    const { patient, access } = grant;
    return {
      patient_id: patient.id,
      first_name: patient.first_name,
      last_name: patient.last_name,
      dob: patient.dob,
      gender: patient.gender,
      is_self: grant.isOwner,
      access,
      categories: grant.categories === null ? null : [...grant.categories],
      relation: grant.isOwner ? 'self' : grant.kind === 'dependant' ? 'dependant' : 'care-network',
      has_account: patient.user_id !== null,
    };
  }

  /** The patients whose records the actor may open: their own first, then those of the care network and their dependants. */
  async list(ctx: SignedInContext): Promise<Patient[]> {
    const own = this.present(await this.grant({ ...ctx, viewing: undefined }));
    const granted = await new PatientsRepository(this.db, orgScope(ctx.actor.orgId)).granted(ctx.actor.userId);
    return [own, ...granted.map((row) => this.present({ patient: row, access: row.grant_access, isOwner: false, categories: row.grant_categories, kind: row.grant_kind }))];
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    patients: PatientsService;
  }
}

export default servicePlugin('patients', ['db', 'audit-service'], (app) => new PatientsService(app.db, app.audit));
