import type { z } from 'zod';
import { FAMILY_MEMBERS_MAX, type CreateFamilyMemberBodySchema, type FamilyMember, type InviteFamilyMemberBodySchema, type UpdateFamilyMemberBodySchema } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { tooManyTries } from '../auth/auth.service';
import type { InvitationsService } from '../invitations/invitations.service';
import type { AttemptLimiter } from '../limits/limits.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import type { PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { isManagedRecord, managesFamilyMember } from './family-members.policy';
import { presentFamilyMember } from './family-members.presenter';
import { FamilyMembersRepository, grantName, type FamilyMemberRow } from './family-members.repository';

export type NewFamilyMemberInput = z.output<typeof CreateFamilyMemberBodySchema>;
export type FamilyMemberChanges = z.output<typeof UpdateFamilyMemberBodySchema>;
export type FamilyInviteInput = z.output<typeof InviteFamilyMemberBodySchema>;

export interface FamilyMembersDeps {
  db: Db;
  audit: AuditLog;
  patients: PatientsService;
  invitations: InvitationsService;
  organizations: OrganizationsService;
  limiter: AttemptLimiter;
  storage: Storage;
}

type Action = 'family_member_update' | 'family_member_delete' | 'family_member_invite';

/**
 * Family members (dependants): patients without an account whose records the user who added
 * them manages with full access (a `patient_grants` row of kind 'dependant'). Access to a family
 * member's record is the patients policy's decision, as for any record: this service only adds
 * them, changes their details, removes them with all their data, and gives them an account of
 * their own — each while they have none. Every change and every refusal is audited.
 */
export class FamilyMembersService {
  constructor(private readonly deps: FamilyMembersDeps) {}

  private repo(ctx: SignedInContext, db: Db = this.deps.db) {
    return new FamilyMembersRepository(db, orgScope(ctx.actor.orgId));
  }

  /** The family members the signed-in user manages (whatever record the client is viewing). */
  async list(ctx: SignedInContext): Promise<FamilyMember[]> {
    const repo = this.repo(ctx);
    const rows = await repo.list(ctx.actor.userId);
    const invitations = await repo.openInvitations(rows.filter(isManagedRecord).map((r) => r.id));
    return rows.map((row) => presentFamilyMember(row, invitations.get(row.id)));
  }

  private async present(ctx: SignedInContext, patientId: number): Promise<FamilyMember> {
    const repo = this.repo(ctx);
    const row = await repo.find(ctx.actor.userId, patientId);
    if (!row) throw notFound();
    return presentFamilyMember(row, (await repo.openInvitations([row.id])).get(row.id));
  }

  /**
   * Adds a family member: the patient (in the actor's organisation) and the actor's grant to it,
   * in one transaction. At most FAMILY_MEMBERS_MAX per user, counted under a lock of the user's
   * row so parallel additions cannot pass the limit.
   */
  async create(ctx: SignedInContext, input: NewFamilyMemberInput): Promise<FamilyMember> {
    const patientId = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(ctx, trx);
      await repo.lockManager(ctx.actor.userId);
      if ((await repo.countManaged(ctx.actor.userId)) >= FAMILY_MEMBERS_MAX) return null;
      const id = await repo.insert(ctx.actor.userId, input);
      await this.deps.audit.record(ctx, { action: 'family_member_create', outcome: 'success', subject: `patient:${id}`, detail: { relationship: input.relationship } }, trx);
      return id;
    });
    if (patientId === null) {
      await this.deps.audit.record(ctx, { action: 'family_member_create', outcome: 'denied', detail: { reason: 'limit' } });
      throw new HttpError(400, 'errors:familyMembersLimit', { max: FAMILY_MEMBERS_MAX });
    }
    return this.present(ctx, patientId);
  }

  /**
   * The family member `patientId` as its manager acts on it: the policy's grant for this request
   * (404 when the actor may not open the record at all), and the actor must be the one who
   * manages it (404 otherwise: another user's family member is not there for them). While it has
   * an account of its own, the record is its holder's: 409. Refusals are audited.
   */
  private async managed(ctx: SignedInContext, patientId: number, action: Action): Promise<{ grant: PatientScope; member: FamilyMemberRow }> {
    const grant = await this.deps.patients.open({ ...ctx, viewing: undefined }, 'profile', patientId, 'read');
    const member = await this.repo(ctx).find(ctx.actor.userId, patientId);
    if (!member || !managesFamilyMember(grant, member)) {
      await this.deps.audit.record(ctx, { action, outcome: 'denied', subject: `patient:${patientId}`, detail: { reason: 'not_managed' } });
      throw notFound();
    }
    if (!isManagedRecord(member)) {
      await this.deps.audit.record(ctx, { action, outcome: 'denied', subject: `patient:${patientId}`, detail: { reason: 'has_account' } });
      throw new HttpError(409, 'errors:familyMemberHasAccount', { name: member.first_name });
    }
    return { grant, member };
  }

  async update(ctx: SignedInContext, patientId: number, changes: FamilyMemberChanges): Promise<FamilyMember> {
    const { member } = await this.managed(ctx, patientId, 'family_member_update');
    const { relationship, ...person } = changes;
    const patientChanges = Object.fromEntries(Object.entries(person).filter(([, v]) => v !== undefined));
    const updated = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(ctx, trx);
      if (!(await repo.updatePatient(member.id, patientChanges))) return false;
      const names = person.first_name !== undefined || person.last_name !== undefined;
      await repo.updateGrant(member.grant_id, {
        ...(relationship ? { relationship } : {}),
        ...(names ? { name: grantName(person.first_name ?? member.first_name, person.last_name ?? member.last_name) } : {}),
      });
      await this.deps.audit.record(
        ctx,
        { action: 'family_member_update', outcome: 'success', subject: `patient:${member.id}`, detail: { fields: Object.keys({ ...patientChanges, ...(relationship ? { relationship } : {}) }).join(',') } },
        trx,
      );
      return true;
    });
    if (!updated) {
      // An account was attached between the check and the change.
      await this.deps.audit.record(ctx, { action: 'family_member_update', outcome: 'denied', subject: `patient:${member.id}`, detail: { reason: 'has_account' } });
      throw new HttpError(409, 'errors:familyMemberHasAccount', { name: member.first_name });
    }
    return this.present(ctx, member.id);
  }

  /**
   * Removes a family member without an account and everything of theirs: the patient row goes
   * and the database's cascades take its records, documents, calendar, appointments, journal,
   * insurance cards, shares, chats and grants; the stored files go through the storage
   * interface after the commit.
   */
  async remove(ctx: SignedInContext, patientId: number): Promise<void> {
    const { member } = await this.managed(ctx, patientId, 'family_member_delete');
    const keys = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(ctx, trx);
      const files = await repo.storageKeys(member.id);
      if (!(await repo.deletePatient(member.id))) return null;
      await this.deps.audit.record(ctx, { action: 'family_member_delete', outcome: 'success', subject: `patient:${member.id}`, detail: { files: files.length } }, trx);
      return files;
    });
    if (keys === null) {
      await this.deps.audit.record(ctx, { action: 'family_member_delete', outcome: 'denied', subject: `patient:${member.id}`, detail: { reason: 'has_account' } });
      throw new HttpError(409, 'errors:familyMemberHasAccount', { name: member.first_name });
    }
    for (const key of keys) await this.deps.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'family member file not deleted'));
  }

  /**
   * Gives a family member an account of their own: an ordinary sign-up invitation (the
   * invitations service: 30 days, single use, only the code's hash kept, the code e-mailed) for
   * their names, date of birth and sex and the address given, tied to their patient so that
   * signing up with it makes the record theirs. A new invitation replaces an unused earlier one.
   * An address that already has an account in the organisation is refused as the administrators'
   * invitations refuse it; since that tells whether an address has an account, a manager may
   * send at most a few invitations an hour.
   */
  async invite(ctx: SignedInContext, patientId: number, input: FamilyInviteInput): Promise<FamilyMember> {
    const { member } = await this.managed(ctx, patientId, 'family_member_invite');
    const attempt = await this.deps.limiter.take('familyInvite', String(ctx.actor.userId));
    if (!attempt.allowed) {
      await this.deps.audit.record(ctx, { action: 'family_member_invite', outcome: 'denied', subject: `patient:${member.id}`, detail: { reason: 'attempts' } });
      throw tooManyTries(attempt.retryAfterS);
    }
    const org = await this.deps.organizations.findById(ctx.actor.orgId);
    if (!org || !member.dob || !member.gender) throw notFound();
    const me = ctx.actor.user;
    let created;
    try {
      created = await this.deps.invitations.create(
        ctx,
        org,
        { first_name: member.first_name, last_name: member.last_name, dob: member.dob, gender: member.gender as NewFamilyMemberInput['gender'], email: input.email },
        { createdBy: ctx.actor.userId, lang: ctx.lang, via: 'family', familyMember: { patientId: member.id, inviterName: `${me.first_name} ${me.last_name}`.trim() } },
      );
    } catch (err) {
      await this.deps.audit.record(ctx, { action: 'family_member_invite', outcome: 'denied', subject: `patient:${member.id}`, detail: { reason: 'refused' } });
      throw err;
    }
    await this.repo(ctx).removeOpenInvitations(member.id, created.invitation.id);
    await this.deps.audit.record(ctx, { action: 'family_member_invite', outcome: 'success', subject: `patient:${member.id}`, detail: { invitation: created.invitation.id } });
    return this.present(ctx, member.id);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    familyMembers: FamilyMembersService;
  }
}

export default servicePlugin(
  'familyMembers',
  ['db', 'audit-service', 'patients-service', 'invitations-service', 'organizations-service', 'limiter-service', 'storage'],
  (app) =>
    new FamilyMembersService({
      db: app.db,
      audit: app.audit,
      patients: app.patients,
      invitations: app.invitations,
      organizations: app.organizations,
      limiter: app.limiter,
      storage: app.storage,
    }),
);
