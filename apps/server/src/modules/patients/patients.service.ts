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
}

/**
 * Whose record a request acts on (`?patient=`, the actor's own by default) and what the actor
 * may do with it (patients.policy.ts). Refusals are 404 — "not yours" and "not there" look the
 * same — and are audited.
 */
export class PatientsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  async grant(ctx: SignedInContext, patientId?: number, intent: 'read' | 'write' = 'read'): Promise<PatientGrant> {
    const repo = new PatientsRepository(this.db, orgScope(ctx.actor.orgId));
    // The actor's own patient came with the session (kept true by the session cache).
    const patient = patientId === undefined ? (ctx.actor.user.own_patient ?? (await repo.findByUser(ctx.actor.userId))) : await repo.findById(patientId);
    const access = patient ? patientAccess(ctx.actor, patient) : null;
    if (!patient || !access) {
      await this.audit.record(ctx, { action: 'patient_access', outcome: 'denied', subject: `patient:${patientId ?? 'self'}`, detail: { intent } });
      throw notFound();
    }
    if (intent === 'write' && !canWrite(access)) {
      await this.audit.record(ctx, { action: 'patient_access', outcome: 'denied', subject: `patient:${patient.id}`, detail: { intent } });
      throw new HttpError(403, 'errors:readOnlyAccess');
    }
    return { patient, access, isOwner: access === 'owner' };
  }

  present(grant: PatientGrant): Patient {
    const { patient, access } = grant;
    return {
      patient_id: patient.id,
      first_name: patient.first_name,
      last_name: patient.last_name,
      dob: patient.dob,
      gender: patient.gender,
      is_self: grant.isOwner,
      access,
    };
  }

  /** The patients whose records the actor may open: their own (the care network adds others later). */
  async list(ctx: SignedInContext): Promise<Patient[]> {
    return [this.present(await this.grant(ctx))];
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    patients: PatientsService;
  }
}

export default servicePlugin('patients', ['db', 'audit-service'], (app) => new PatientsService(app.db, app.audit));
