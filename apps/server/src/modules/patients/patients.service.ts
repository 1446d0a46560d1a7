import { AREA_RULES, RECORD_ACCESS_REFUSED, VISIT_NOTE_DAYS, type Patient, type PatientDataArea } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import { CareTeamScope, chatTypesOf, isProvider, type CareTeamWork } from './care-team-scope';
import { canWrite, patientAccess, type PatientAccess } from './patients.policy';
import { PatientScope } from './patient-scope';
import { PatientsRepository, type PatientRow } from './patients.repository';

/** Reading or changing: what a request does with the area it opens. */
export type Intent = 'read' | 'write';

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

  /**
   * The one door: the scope of a patient's data for an area, if the actor may reach it. Whose
   * record (`patientId`, else the viewed record, else the actor's own), then the policy's level,
   * then the area's rule for that level and a limited grant (packages/shared patient-data.ts).
   * Refusals are audited: "not yours" is 404, "not for your level" 403 with the area's reason.
   */
  async open(ctx: SignedInContext, area: PatientDataArea, patientId?: number, intent: Intent = 'read'): Promise<PatientScope> {
    const repo = new PatientsRepository(this.db, orgScope(ctx.actor.orgId));
    const own = ctx.actor.user.own_patient;
    const asked = patientId ?? ctx.viewing;
    // The actor's own patient came with the session (kept true by the session cache).
    const patient = asked === undefined || asked === own?.id ? (own ?? (await repo.findByUser(ctx.actor.userId))) : await repo.findById(asked);
    // Read on every request, never cached: a removal or a change of access holds at once.
    const careGrant = patient && patient.user_id !== ctx.actor.userId ? await repo.activeGrant(patient.id, ctx.actor.userId) : undefined;
    const access = patient ? patientAccess(ctx.actor, patient, careGrant) : null;
    if (!patient || !access) {
      await this.audit.record(ctx, { action: 'patient_access', outcome: 'denied', subject: `patient:${asked ?? 'self'}`, detail: { intent, area } });
      throw notFound();
    }
    const categories = access === 'owner' ? null : (careGrant?.categories ?? null);
    const scope = new PatientScope({ patient, access, area, categories, includePrivate: access === 'owner', grantId: careGrant?.id ?? null, audit: this.audit });
    const rule = AREA_RULES[area];
    // The answer says why (the area's refusal, "Only people with full access can…") and says it is
    // this kind of refusal (code, area): the web app shows the reason in place of the page.
    const refuse = async (key: string) => {
      await scope.audit(ctx, 'patient_access', { intent, access }, 'denied');
      throw new HttpError(403, `errors:${key}`, {}, {}, { code: RECORD_ACCESS_REFUSED, area });
    };
    if (!scope.reachesArea(area)) await refuse(rule.refusal);
    if (intent === 'write' && !canWrite(access)) await refuse(rule.writeRefusal);
    // What was read or changed goes on the patient's trail from the service that did it (scope.auditRead,
    // its own change rows): "who saw my record" shows those. The grant matrix holds every route to it.
    return scope;
  }

  /**
   * The staff side of the door: a provider's appointments or a chat staff member's queue and
   * conversations, for whoever holds the role (403 otherwise, audited). What the scope reaches is
   * the staff member's own caseload; the repositories that take it filter by them.
   */
  async openCareTeam(ctx: SignedInContext, work: CareTeamWork): Promise<CareTeamScope> {
    const allowed = work === 'appointments' ? isProvider(ctx.actor) : chatTypesOf(ctx.actor).length > 0;
    if (!allowed) {
      await this.audit.record(ctx, { action: 'care_team_access', outcome: 'denied', subject: `user:${ctx.actor.userId}`, detail: { work } });
      throw new HttpError(403, work === 'appointments' ? 'errors:providersOnly' : 'errors:chatNotStaff');
    }
    return new CareTeamScope({ actor: ctx.actor, work, audit: this.audit });
  }

  /**
   * The provider's narrow door to a patient's record: the note of a video visit they held. A
   * provider has no access to their patients' records otherwise; this scope reaches the
   * medical-visit records of the appointment's patient only (no private ones, no other category or
   * area), and only for the appointment's own provider, once its visit has started (the patient
   * side admitted) and until VISIT_NOTE_DAYS after the appointment's end. Anyone else, or outside
   * that time: 404, audited (the visits service answers the reasons a participant may be told
   * before it asks). Reads and writes through it go on the patient's trail, by name.
   */
  async openVisitNote(ctx: SignedInContext, appointmentId: number, now: Date = new Date()): Promise<PatientScope> {
    const patient = isProvider(ctx.actor)
      ? await new PatientsRepository(this.db, orgScope(ctx.actor.orgId)).ofStartedVisit(appointmentId, ctx.actor.userId, new Date(now.getTime() - VISIT_NOTE_DAYS * 86_400_000))
      : undefined;
    if (!patient) {
      await this.audit.record(ctx, { action: 'patient_access', outcome: 'denied', subject: `appointment:${appointmentId}`, detail: { intent: 'write', area: 'records', work: 'visit_note' } });
      throw notFound();
    }
    return new PatientScope({ patient, access: 'provider', area: 'records', categories: ['medicalvisit'], includePrivate: false, grantId: null, audit: this.audit });
  }

  present(grant: { patient: PatientRow; access: PatientAccess; isOwner: boolean; categories: readonly string[] | null; kind?: 'invitation' | 'dependant' | undefined }): Patient {
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

  /** One patient the actor may open (GET /patients/{id}): a read of who they are, on the patient's trail when it is someone else. */
  async get(ctx: SignedInContext, patientId: number): Promise<Patient> {
    const scope = await this.open(ctx, 'profile', patientId);
    await scope.auditRead(ctx);
    const access = scope.access === 'recipient' || scope.access === 'provider' ? 'read-only' : scope.access;
    return this.present({ patient: scope.patient, access, isOwner: scope.isOwner, categories: scope.categories });
  }

  /** The patients whose records the actor may open: their own first, then those of the care network and their dependants. */
  async list(ctx: SignedInContext): Promise<Patient[]> {
    const mine = await this.open({ ...ctx, viewing: undefined }, 'profile');
    const own = this.present({ patient: mine.patient, access: 'owner', isOwner: true, categories: null });
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
