import {
  type InviteStaffBodySchema,
  type Language,
  type ListPeopleQuery,
  type OrgRef,
  type PeoplePage,
  type Person,
  type ResetMfaBodySchema,
  type SetRolesBodySchema,
} from '@healthbook/shared';
import type { z } from 'zod';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { isUniqueViolation } from '../../db/errors';
import { FieldError, HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import { servicePlugin } from '../../lib/service-plugin';
import type { BackgroundMail, Mailer } from '../../plugins/mail';
import { ProvidersRepository } from '../appointments/appointments.repository';
import type { AppointmentsService } from '../appointments/appointments.service';
import type { AuditLog } from '../audit/audit.service';
import { AuthService } from '../auth/auth.service';
import { SessionsRepository } from '../auth/sessions.repository';
import type { InvitationsService } from '../invitations/invitations.service';
import type { AttemptLimiter } from '../limits/limits.service';
import type { OrganizationRow } from '../organizations/organizations.repository';
import type { OrganizationsService } from '../organizations/organizations.service';
import { recipientLanguage } from '../../lib/mail-templates';
import { sendAccountSetupLink } from './account-setup';
import { canChange, canReachOrg, storedRoles, type PeopleAction, type Refusal } from './people.policy';
import { orgOfInvitation, orgOfUser, PeopleRepository, type PersonRow } from './people.repository';

type InviteStaff = z.output<typeof InviteStaffBodySchema>;
type SetRoles = z.output<typeof SetRolesBodySchema>;
type ResetMfa = z.output<typeof ResetMfaBodySchema>;

export interface PeopleDeps {
  db: Db;
  audit: AuditLog;
  mailer: Mailer;
  background: BackgroundMail;
  limiter: AttemptLimiter;
  organizations: OrganizationsService;
  invitations: InvitationsService;
  appointments: AppointmentsService;
  publicUrl: string;
}

export function presentPerson(row: PersonRow): Person {
  const statuses: Person['statuses'] = [];
  if (row.invited) statuses.push('invited');
  if (!row.is_active) statuses.push('deactivated');
  else if (!row.invited) statuses.push('active');
  if (row.locked) statuses.push('locked');
  if (row.has_mfa) statuses.push('mfa');
  const staff = row.is_superadmin || row.roles.some((r) => r !== 'patient');
  return {
    key: row.key,
    user_id: row.user_id,
    invitation_id: row.invitation_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    kind: staff ? 'staff' : 'patient',
    roles: row.roles,
    is_superadmin: row.is_superadmin,
    statuses,
    last_sign_in: row.last_sign_in ? new Date(row.last_sign_in).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

const isAdmin = (u: { roles: readonly string[]; is_active: boolean }) => u.is_active && u.roles.includes('org_admin');

/**
 * The people of an organisation, for its administrators (and super admins, for any): the list,
 * staff invitations, roles, deactivation, unlocking a sign-in, resetting a lost second factor,
 * invitations sent again. Every action and every refusal is audited. At least one active
 * organisation admin always remains: the changes that could remove the last one run in a
 * transaction holding the admins' rows.
 */
export class PeopleService {
  constructor(private readonly deps: PeopleDeps) {}

  private repo(orgId: number, db: Db = this.deps.db) {
    return new PeopleRepository(db, orgScope(orgId));
  }

  private async refuse(ctx: SignedInContext, action: PeopleAction, refusal: NonNullable<Refusal>, orgId: number | null, subject?: string): Promise<never> {
    await this.deps.audit.record(ctx, { action: `people_${action}`, outcome: 'denied', orgId, ...(subject ? { subject } : {}), detail: { reason: refusal.reason } });
    throw new HttpError(refusal.status, refusal.detail);
  }

  /** The organisation an administrator names (their own by default). Another organisation's, or none: 404 for org admins. */
  async org(ctx: SignedInContext, ref: OrgRef | undefined, action: PeopleAction): Promise<OrganizationRow> {
    const { actor } = ctx;
    const org = ref === undefined ? await this.deps.organizations.findById(actor.orgId) : await this.deps.organizations.resolve(ref);
    if (!org) {
      if (actor.isSuperadmin) throw new FieldError({ org_id: ['errors:organizationUnknown'] });
      return this.refuse(ctx, action, canReachOrg(actor, -1) ?? { status: 404, reason: 'unknown_org', detail: 'errors:notFound' }, null);
    }
    const refusal = canReachOrg(actor, org.id);
    if (refusal) return this.refuse(ctx, action, refusal, org.id);
    return org;
  }

  /** The account an administrator acts on, with its organisation; out of reach: 404 (or 403 when seen but refused). */
  private async target(ctx: SignedInContext, userId: number, action: PeopleAction, change: { makeSuperadmin?: boolean } = {}) {
    const orgId = await orgOfUser(this.deps.db, userId);
    const subject = `user:${userId}`;
    const reach = canReachOrg(ctx.actor, orgId ?? -1);
    if (orgId === undefined || reach) return this.refuse(ctx, action, reach ?? { status: 404, reason: 'unknown_user', detail: 'errors:notFound' }, orgId ?? null, subject);
    const org = (await this.deps.organizations.findById(orgId))!;
    const person = (await this.repo(orgId).person(userId))!;
    const refusal = canChange(ctx.actor, action, { id: userId, org_id: orgId, is_superadmin: person.is_superadmin }, change);
    if (refusal) return this.refuse(ctx, action, refusal, orgId, subject);
    return { org, person };
  }

  async list(ctx: SignedInContext, query: ListPeopleQuery): Promise<PeoplePage> {
    const org = await this.org(ctx, query.org_id, 'list');
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? 25;
    const { count, rows } = await this.repo(org.id).list({ search: query.search, kind: query.kind, page, pageSize });
    await this.deps.audit.record(ctx, { action: 'people_list', outcome: 'success', orgId: org.id, detail: { page, results: rows.length, ...(query.search ? { search: 1 } : {}) } });
    return { count, page, page_size: pageSize, org: { id: org.id, name: org.name, org_name: org.org_name }, results: rows.map(presentPerson) };
  }

  private async present(orgId: number, userId: number): Promise<Person> {
    return presentPerson((await this.repo(orgId).person(userId))!);
  }

  /**
   * Invites a staff member: an account with the role (provider: with the profile telehealth
   * shows; coach: the chat queue's peer coach) and no usable password, and a single-use link to
   * choose one. An address that has an account there: 400 {email}. When the mail cannot be sent
   * the account is removed again (it exists only if its holder was told).
   */
  async inviteStaff(ctx: SignedInContext, body: InviteStaff): Promise<Person> {
    const org = await this.org(ctx, body.org_id, 'invite');
    const lang: Language = body.language ?? ctx.lang;
    const roles = storedRoles([body.role]);
    let userId: number;
    try {
      userId = await this.deps.db.transaction().execute(async (trx) => {
        const id = await this.repo(org.id, trx).insertInvitedStaff({ email: body.email, first_name: body.first_name, last_name: body.last_name, roles, language: lang });
        if (body.role === 'provider') {
          const providers = new ProvidersRepository(trx, orgScope(org.id));
          await providers.ensure(id);
          await providers.updateProfile(id, {
            speciality: body.speciality,
            credentials: body.credentials,
            languages: [...new Set((body.languages ?? []).map((l) => l.trim()))],
            biography: body.biography,
          });
        }
        return id;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'users_org_email_key')) throw new FieldError({ email: ['validation:emailTaken'] });
      throw err;
    }
    try {
      await this.sendSetupLink(ctx, org, { id: userId, email: body.email, first_name: body.first_name, settings: { language: lang } });
    } catch (err) {
      await this.repo(org.id).removeUser(userId);
      throw err;
    }
    await this.deps.audit.record(ctx, { action: 'people_invite_staff', outcome: 'success', orgId: org.id, subject: `user:${userId}`, detail: { role: body.role } });
    return this.present(org.id, userId);
  }

  private sendSetupLink(ctx: SignedInContext, org: OrganizationRow, user: { id: number; email: string; first_name: string; settings?: unknown }) {
    return sendAccountSetupLink({ db: this.deps.db, mailer: this.deps.mailer, audit: this.deps.audit, publicUrl: this.deps.publicUrl }, ctx, { user: { ...user, org_id: org.id }, org });
  }

  /** Sends a staff member who has not chosen a password yet a new set-password link (the earlier one stops working). */
  async resendStaff(ctx: SignedInContext, userId: number): Promise<Person> {
    const { org, person } = await this.target(ctx, userId, 'resend');
    if (!person.invited) throw new HttpError(409, 'errors:peopleNotInvited');
    const user = (await this.repo(org.id).lockUser(userId))!;
    await this.sendSetupLink(ctx, org, { id: userId, email: person.email, first_name: person.first_name, settings: user.settings });
    await this.deps.audit.record(ctx, { action: 'people_resend', outcome: 'success', orgId: org.id, subject: `user:${userId}` });
    return this.present(org.id, userId);
  }

  /** Sends a patient's pending invitation again, with a new access code (the earlier one stops working). */
  async resendPatientInvitation(ctx: SignedInContext, invitationId: number): Promise<void> {
    const orgId = await orgOfInvitation(this.deps.db, invitationId);
    const reach = canReachOrg(ctx.actor, orgId ?? -1);
    const subject = `invitation:${invitationId}`;
    if (orgId === undefined || reach) return this.refuse(ctx, 'resend', reach ?? { status: 404, reason: 'unknown_invitation', detail: 'errors:notFound' }, orgId ?? null, subject);
    const org = (await this.deps.organizations.findById(orgId))!;
    const invitation = await this.repo(orgId).pendingInvitation(invitationId);
    if (!invitation) throw new HttpError(409, 'errors:peopleNotInvited');
    await this.deps.invitations.resend(ctx, org, invitation, ctx.lang);
    await this.deps.audit.record(ctx, { action: 'people_resend', outcome: 'success', orgId, subject });
  }

  /**
   * Gives an account exactly these roles (professional follows provider and coach). Not one's
   * own; super admin only by a super admin; the last active organisation admin keeps the role
   * (two admins demoting each other at once: the second finds the first already demoted). A
   * provider who loses the role keeps their past appointments; the future ones are cancelled,
   * both sides e-mailed as when a provider cancels.
   */
  async setRoles(ctx: SignedInContext, userId: number, body: SetRoles): Promise<Person> {
    const { org } = await this.target(ctx, userId, 'roles', { makeSuperadmin: body.is_superadmin === true });
    const roles = storedRoles(body.roles);
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(org.id, trx);
      const locked = await repo.lockWithActiveAdmins(userId);
      const before = locked.user!;
      const admins = locked.admins;
      const isSuperadmin = body.is_superadmin ?? before.is_superadmin;
      if (isAdmin(before) && !roles.includes('org_admin') && admins.filter((id) => id !== userId).length === 0) return { refused: true as const };
      await repo.setRoles(userId, roles, isSuperadmin);
      if (roles.includes('provider')) await new ProvidersRepository(trx, orgScope(org.id)).ensure(userId);
      await this.deps.audit.record(ctx, { action: 'people_roles', outcome: 'success', orgId: org.id, subject: `user:${userId}`, detail: { before: before.roles.join(' '), after: roles.join(' '), superadmin: isSuperadmin } }, trx);
      return { refused: false as const, lostProvider: before.roles.includes('provider') && !roles.includes('provider') };
    });
    if (outcome.refused) return this.refuse(ctx, 'roles', { status: 409, reason: 'last_admin', detail: 'errors:peopleLastAdmin' }, org.id, `user:${userId}`);
    if (outcome.lostProvider) {
      const cancelled = await this.deps.appointments.cancelFutureOfProvider(ctx, org.id, userId);
      if (cancelled) await this.deps.audit.record(ctx, { action: 'people_roles', outcome: 'success', orgId: org.id, subject: `user:${userId}`, detail: { appointments_cancelled: cancelled } });
    }
    return this.present(org.id, userId);
  }

  /**
   * Deactivates an account: it can no longer sign in, and its sessions end at once (the
   * database tells every process, whose session caches and chat sockets drop them). The last
   * active organisation admin cannot be deactivated.
   */
  async deactivate(ctx: SignedInContext, userId: number): Promise<Person> {
    const { org } = await this.target(ctx, userId, 'deactivate');
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(org.id, trx);
      const locked = await repo.lockWithActiveAdmins(userId);
      const before = locked.user!;
      const admins = locked.admins;
      if (!before.is_active) return 'already' as const;
      if (isAdmin(before) && admins.filter((id) => id !== userId).length === 0) return 'last_admin' as const;
      await repo.setActive(userId, false);
      await new SessionsRepository(trx).revokeAllForUser(orgScope(org.id), userId, 'deactivated');
      await this.deps.audit.record(ctx, { action: 'people_deactivate', outcome: 'success', orgId: org.id, subject: `user:${userId}` }, trx);
      return 'done' as const;
    });
    if (outcome === 'already') throw new HttpError(409, 'errors:peopleAlreadyDeactivated');
    if (outcome === 'last_admin') return this.refuse(ctx, 'deactivate', { status: 409, reason: 'last_admin', detail: 'errors:peopleLastAdmin' }, org.id, `user:${userId}`);
    return this.present(org.id, userId);
  }

  async reactivate(ctx: SignedInContext, userId: number): Promise<Person> {
    const { org } = await this.target(ctx, userId, 'reactivate');
    if (!(await this.repo(org.id).setActive(userId, true))) throw new HttpError(409, 'errors:peopleAlreadyActive');
    await this.deps.audit.record(ctx, { action: 'people_reactivate', outcome: 'success', orgId: org.id, subject: `user:${userId}` });
    return this.present(org.id, userId);
  }

  /** Lifts the lock five failed sign-ins put on an account (before its 15 minutes are over). */
  async unlock(ctx: SignedInContext, userId: number): Promise<Person> {
    const { org, person } = await this.target(ctx, userId, 'unlock');
    if (!person.locked) throw new HttpError(409, 'errors:peopleNotLocked');
    await this.deps.limiter.clear('login', AuthService.accountKey(org.id, person.email));
    await this.deps.audit.record(ctx, { action: 'people_unlock', outcome: 'success', orgId: org.id, subject: `user:${userId}` });
    return this.present(org.id, userId);
  }

  /**
   * Removes the second sign-in step of someone who lost it (a reason is required, kept in the
   * audit trail and told to them by e-mail). Their sessions end: the next sign-in takes the
   * password alone.
   */
  async resetMfa(ctx: SignedInContext, userId: number, body: ResetMfa): Promise<Person> {
    const { org } = await this.target(ctx, userId, 'reset_mfa');
    const removed = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(org.id, trx);
      await repo.lockUser(userId);
      const types = await repo.removeMfa(userId);
      if (!types.length) return types;
      await new SessionsRepository(trx).revokeAllForUser(orgScope(org.id), userId, 'mfa_reset');
      await this.deps.audit.record(ctx, { action: 'people_reset_mfa', outcome: 'success', orgId: org.id, subject: `user:${userId}`, detail: { reason: body.reason, devices: types.join(' ') } }, trx);
      return types;
    });
    if (!removed.length) throw new HttpError(409, 'errors:peopleNoMfa');
    const user = (await this.repo(org.id).lockUser(userId))!;
    const lang = recipientLanguage(user.settings, ctx.lang);
    this.deps.background.send(renderMail('mfaReset', lang, user.email, { name: user.first_name, orgName: org.org_name, reason: body.reason }), { user: userId });
    return this.present(org.id, userId);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    people: PeopleService;
  }
}

export default servicePlugin<'people', { publicUrl: string }>(
  'people',
  ['db', 'audit-service', 'mail', 'limiter-service', 'organizations-service', 'invitations-service', 'appointments-service'],
  (app, opts) =>
    new PeopleService({
      db: app.db,
      audit: app.audit,
      mailer: app.mailer,
      background: app.backgroundMail,
      limiter: app.limiter,
      organizations: app.organizations,
      invitations: app.invitations,
      appointments: app.appointments,
      publicUrl: opts.publicUrl,
    }),
);
