import {
  CARE_INVITATION_DAYS,
  CARE_NETWORK_MAX,
  firstZone,
  formatMoment,
  translate,
  zoneOf,
  type AccessLogPage,
  type AuditAction,
  type CareAccepted,
  type CareAccess,
  type CareInvitationPreview,
  type CareMember,
  type CaringFor,
  type Language,
} from '@healthbook/shared';
import type { z } from 'zod';
import type { CareSignupCodeBodySchema, InviteCareMemberBodySchema, UpdateCareMemberBodySchema } from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { orgScope } from '../../db/scope';
import { randomToken, sha256 } from '../../lib/crypto';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { recipientLanguage, renderMail, type MailKind } from '../../lib/mail-templates';
import { servicePlugin } from '../../lib/service-plugin';
import type { BackgroundMail } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import type { FeaturesService } from '../features/features.service';
import type { InvitationsService } from '../invitations/invitations.service';
import type { AttemptLimiter } from '../limits/limits.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { PatientsRepository, type PatientRow } from '../patients/patients.repository';
import type { PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { acceptRefusal, invitationLink, memberStatus } from './care-network.policy';
import { accessWords, categoryNames, presentAccess, presentCaringFor, presentMember } from './care-network.presenter';
import { CareNetworkRepository, PublicCareInvitationsRepository, type CareGrantRow, type ContactRow } from './care-network.repository';

export type InviteInput = z.output<typeof InviteCareMemberBodySchema>;
export type UpdateInput = z.output<typeof UpdateCareMemberBodySchema>;
export type SignupCodeInput = z.output<typeof CareSignupCodeBodySchema>;

const DAY_MS = 24 * 60 * 60 * 1000;
export const ACCESS_LOG_PAGE_SIZE = 50;
/** The live-address index of patient_grants: one pending or active row per patient and address. */
const LIVE_EMAIL_INDEX = 'patient_grants_live_email';
const LIVE_GRANTEE_INDEX = 'patient_grants_live_grantee';

const fullName = (p: { first_name: string | null; last_name: string | null }) => [p.first_name, p.last_name].filter(Boolean).join(' ').trim();

/**
 * The care network (issue 13, item 1): a patient lets people into their record by e-mail, with
 * full or read-only access, optionally limited to some record categories; the invited account
 * accepts with the single-use token of the e-mail (kept hashed; it travels in bodies and URL
 * fragments only). What a grant allows on each route is the patients policy's decision: this
 * service only makes, changes and ends the grants, tells the people concerned by e-mail, and
 * reads the patient's "who saw my record" from the audit trail.
 */
export class CareNetworkService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
    private readonly limiter: AttemptLimiter,
    private readonly mail: BackgroundMail,
    private readonly invitations: InvitationsService,
    private readonly features: FeaturesService,
    private readonly organizations: OrganizationsService,
    private readonly publicUrl: string,
  ) {}

  private repo(orgId: number, db: Db = this.db) {
    return new CareNetworkRepository(db, orgScope(orgId));
  }

  /** The record the actor acts on, which must be their own (a caring person does not manage someone else's network). */
  private async ownRecord(ctx: SignedInContext, action: AuditAction): Promise<PatientScope> {
    const grant = await this.patients.open(ctx, 'profile');
    if (!grant.isOwner) {
      await this.audit.record(ctx, { action, outcome: 'denied', subject: `patient:${grant.patient.id}`, detail: { reason: 'not_owner' } });
      throw new HttpError(403, 'errors:careOwnerOnly');
    }
    return grant;
  }

  // ---- The patient's side ----

  async list(ctx: SignedInContext): Promise<CareMember[]> {
    const grant = await this.ownRecord(ctx, 'care_list');
    const now = new Date();
    return (await this.repo(grant.patient.org_id).listForPatient(grant.patient.id)).map((row) => presentMember(row, now));
  }

  async invite(ctx: SignedInContext, body: InviteInput): Promise<CareMember> {
    const grant = await this.ownRecord(ctx, 'care_invite');
    const { patient } = grant;
    const email = body.email.toLowerCase();
    const refuse = async (reason: string, error: Error) => {
      await this.audit.record(ctx, { action: 'care_invite', outcome: 'denied', subject: `patient:${patient.id}`, detail: { reason } });
      throw error;
    };
    if (email === ctx.actor.user.email.toLowerCase()) return refuse('self', new FieldError({ email: ['validation:careSelf'] }));
    const token = randomToken(32);
    const expiresAt = new Date(Date.now() + CARE_INVITATION_DAYS * DAY_MS);
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        const repo = this.repo(patient.org_id, trx);
        await repo.lockPatient(patient.id);
        await repo.retireExpired(patient.id, email);
        if (await repo.liveByEmail(patient.id, email)) throw new FieldError({ email: ['validation:careAlreadyInvited'] });
        if ((await repo.countLive(patient.id)) >= CARE_NETWORK_MAX) throw new HttpError(409, 'errors:careNetworkFull', { max: CARE_NETWORK_MAX });
        return repo.insertInvitation({
          patient_id: patient.id,
          invited_by: ctx.actor.userId,
          name: body.name,
          email,
          access: body.access,
          categories: body.categories ? [...body.categories] : null,
          token_hash: sha256(token),
          expires_at: expiresAt,
        });
      });
    } catch (err) {
      // Two invitations of one address at once: the index keeps one; the other is told as if it came second.
      if (isUniqueViolation(err, LIVE_EMAIL_INDEX)) return refuse('already_invited', new FieldError({ email: ['validation:careAlreadyInvited'] }));
      if (err instanceof FieldError) return refuse('already_invited', err);
      if (err instanceof HttpError) return refuse('network_full', err);
      throw err;
    }
    const row = (await this.repo(patient.org_id).get(patient.id, id))!;
    this.mailInvitation(ctx, patient, row, token);
    await this.audit.record(ctx, { action: 'care_invite', outcome: 'success', subject: `patient:${patient.id}`, detail: { grant: id, access: row.access, categories: row.categories?.join(',') ?? null } });
    return presentMember(row);
  }

  async update(ctx: SignedInContext, id: number, body: UpdateInput): Promise<CareMember> {
    const grant = await this.ownRecord(ctx, 'care_update');
    const repo = this.repo(grant.patient.org_id);
    const before = await repo.get(grant.patient.id, id);
    if (!before || (before.status !== 'pending' && before.status !== 'active')) throw notFound();
    const change: { access?: CareAccess; categories?: string[] | null } = {};
    if (body.access !== undefined) change.access = body.access;
    if (body.categories !== undefined) change.categories = body.categories === null ? null : [...body.categories];
    if (!(await repo.update(grant.patient.id, id, change))) throw notFound();
    const row = (await repo.get(grant.patient.id, id))!;
    await this.audit.record(ctx, {
      action: 'care_update',
      outcome: 'success',
      subject: `patient:${grant.patient.id}`,
      detail: { grant: id, access_from: before.access, access_to: row.access, categories_from: before.categories?.join(',') ?? null, categories_to: row.categories?.join(',') ?? null },
    });
    return presentMember(row);
  }

  async remove(ctx: SignedInContext, id: number): Promise<void> {
    const grant = await this.ownRecord(ctx, 'care_remove');
    const { patient } = grant;
    const repo = this.repo(patient.org_id);
    const row = await repo.get(patient.id, id);
    if (!row || (row.status !== 'pending' && row.status !== 'active')) throw notFound();
    if (row.kind === 'dependant' && patient.user_id === null) {
      await this.audit.record(ctx, { action: 'care_remove', outcome: 'denied', subject: `patient:${patient.id}`, detail: { grant: id, reason: 'dependant_manager' } });
      throw new HttpError(409, 'errors:careManagerOfDependant');
    }
    const ended = await repo.end(patient.id, id);
    if (!ended) throw notFound();
    const { was, sharesEnded } = ended;
    await this.audit.record(ctx, { action: 'care_remove', outcome: 'success', subject: `patient:${patient.id}`, detail: { grant: id, was, shares_ended: sharesEnded } });
    if (was !== 'active') return;
    const member = row.account_first_name !== null || row.account_last_name !== null ? fullName({ first_name: row.account_first_name, last_name: row.account_last_name }) || row.name : row.name;
    const when = new Date();
    void this.tell(patient.org_id, patient.user_id, 'careRemoved', (lang, zone) => ({ member, when: formatMoment(when, lang, zone) }), { grant: id });
    if (sharesEnded > 0) void this.tell(patient.org_id, patient.user_id, 'careSharesEnded', () => ({ member, count: sharesEnded }), { grant: id });
    void this.tell(patient.org_id, row.grantee_user_id, 'careRemovedMember', (lang, zone) => ({ patient: fullName(patient), when: formatMoment(when, lang, zone) }), { grant: id });
  }

  async resend(ctx: SignedInContext, id: number): Promise<CareMember> {
    const grant = await this.ownRecord(ctx, 'care_resend');
    const { patient } = grant;
    const repo = this.repo(patient.org_id);
    const row = await repo.get(patient.id, id);
    if (!row || row.status === 'revoked' || row.status === 'declined') throw notFound();
    if (row.kind !== 'invitation' || row.status !== 'pending') throw new HttpError(409, 'errors:careNotResendable');
    const attempt = await this.limiter.take('careResend', String(id));
    if (!attempt.allowed) {
      await this.audit.record(ctx, { action: 'care_resend', outcome: 'denied', subject: `patient:${patient.id}`, detail: { grant: id, reason: 'attempts' } });
      throw new HttpError(429, 'errors:careResendTooOften', {}, { 'Retry-After': String(attempt.retryAfterS) });
    }
    const token = randomToken(32);
    if (!(await repo.renewToken(patient.id, id, sha256(token), new Date(Date.now() + CARE_INVITATION_DAYS * DAY_MS)))) throw new HttpError(409, 'errors:careNotResendable');
    const renewed = (await repo.get(patient.id, id))!;
    this.mailInvitation(ctx, patient, renewed, token);
    await this.audit.record(ctx, { action: 'care_resend', outcome: 'success', subject: `patient:${patient.id}`, detail: { grant: id } });
    return presentMember(renewed);
  }

  /** "Who saw my record": every access to the patient's data by someone else, newest first, 50 a page. */
  async accessLog(ctx: SignedInContext, page = 1, timeZone = 'UTC'): Promise<AccessLogPage> {
    const grant = await this.ownRecord(ctx, 'care_access_log');
    const current = Math.max(1, page);
    const { count, rows } = await this.repo(grant.patient.org_id).accessLog(grant.patient.id, ctx.actor.userId, ACCESS_LOG_PAGE_SIZE, (current - 1) * ACCESS_LOG_PAGE_SIZE, timeZone);
    return { count, results: rows.map((row) => presentAccess(row, ctx.lang)) };
  }

  // ---- The invited person's side ----

  /** What an invitation offers (public: the token is the proof). Anything unknown, and an organisation without the feature: 404. */
  async preview(token: string): Promise<CareInvitationPreview> {
    const row = await this.liveInvitation(token);
    const [organization, patient, inviter] = await Promise.all([
      this.organizations.findById(row.org_id),
      new PatientsRepository(this.db, orgScope(row.org_id)).findById(row.patient_id),
      row.invited_by !== null ? this.repo(row.org_id).contact(row.invited_by) : undefined,
    ]);
    if (!organization || !patient) throw new HttpError(404, 'errors:careInvitationNotFound');
    const status = memberStatus(row);
    return {
      patient_name: fullName(patient),
      inviter_name: inviter ? fullName(inviter) : fullName(patient),
      organization: { client_id: organization.name, name: organization.org_name },
      email: row.email ?? '',
      access: row.access,
      categories: row.categories === null ? null : [...row.categories],
      status,
      has_account: await this.repo(row.org_id).hasAccount(row.email ?? ''),
      expires_at: row.expires_at ? new Date(row.expires_at).toISOString() : null,
    };
  }

  /**
   * A sign-up code for an invited person without an account: an ordinary sign-up invitation of
   * the organisation for the invited address, made by the inviting patient, with the names, date
   * of birth and sex given here; the code is answered once (not e-mailed: the e-mail with the
   * token already proved the address). An address that has an account: 409 (sign in instead).
   */
  async signupCode(ctx: ServiceContext, body: SignupCodeInput): Promise<{ signup_code: string }> {
    const row = await this.liveInvitation(body.token);
    if (memberStatus(row) === 'expired') throw new HttpError(410, 'errors:careInvitationExpired');
    const email = row.email ?? '';
    if (await this.repo(row.org_id).hasAccount(email)) {
      await this.audit.record(ctx, { action: 'care_signup_code', outcome: 'denied', orgId: row.org_id, subject: `patient:${row.patient_id}`, detail: { grant: row.id, reason: 'has_account' } });
      throw new HttpError(409, 'errors:careSignupHasAccount');
    }
    const attempt = await this.limiter.take('careSignupCode', String(row.id));
    if (!attempt.allowed) {
      await this.audit.record(ctx, { action: 'care_signup_code', outcome: 'denied', orgId: row.org_id, subject: `patient:${row.patient_id}`, detail: { grant: row.id, reason: 'attempts' } });
      throw new HttpError(429, 'errors:careSignupTooOften', {}, { 'Retry-After': String(attempt.retryAfterS) });
    }
    const organization = await this.organizations.findById(row.org_id);
    if (!organization) throw new HttpError(404, 'errors:careInvitationNotFound');
    let code: string;
    try {
      ({ code } = await this.invitations.create(
        ctx,
        organization,
        { first_name: body.first_name, last_name: body.last_name, dob: body.dob, gender: body.gender, email },
        { createdBy: row.invited_by, lang: ctx.lang, via: 'care-network', mail: false },
      ));
    } catch (err) {
      // The address got an account meanwhile.
      if (err instanceof FieldError) throw new HttpError(409, 'errors:careSignupHasAccount');
      throw err;
    }
    await this.audit.record(ctx, { action: 'care_signup_code', outcome: 'success', orgId: row.org_id, subject: `patient:${row.patient_id}`, detail: { grant: row.id } });
    return { signup_code: code };
  }

  /**
   * Accepts an invitation for the signed-in account. Refusals change nothing and are audited:
   * unknown, used, removed, declined or another organisation's token 404; the patient's own 400;
   * another address's 403; expired 410. Single use under parallel requests (one conditional UPDATE).
   */
  async accept(ctx: SignedInContext, token: string): Promise<CareAccepted> {
    const tokenHash = sha256(token);
    const repo = this.repo(ctx.actor.orgId);
    const row = await this.checkInvited(ctx, tokenHash, 'care_accept');
    let accepted: Awaited<ReturnType<CareNetworkRepository['accept']>>;
    try {
      accepted = await repo.accept(tokenHash, ctx.actor.userId);
    } catch (err) {
      if (!isUniqueViolation(err, LIVE_GRANTEE_INDEX)) throw err;
      await this.audit.record(ctx, { action: 'care_accept', outcome: 'denied', subject: `patient:${row.patient_id}`, detail: { grant: row.id, reason: 'already_member' } });
      throw new HttpError(409, 'errors:careAlreadyMember');
    }
    if (!accepted) {
      // Another request took it first (or it ran out a moment ago).
      await this.audit.record(ctx, { action: 'care_accept', outcome: 'denied', subject: `patient:${row.patient_id}`, detail: { grant: row.id, reason: 'not_pending' } });
      throw new HttpError(404, 'errors:careInvitationNotFound');
    }
    const patient = (await new PatientsRepository(this.db, orgScope(ctx.actor.orgId)).findById(accepted.patient_id))!;
    await this.audit.record(ctx, { action: 'care_accept', outcome: 'success', subject: `patient:${patient.id}`, detail: { grant: accepted.id, access: accepted.access } });
    const member = fullName(ctx.actor.user) || row.name;
    void this.tell(patient.org_id, patient.user_id, 'careAccepted', (lang) => ({ member, access: accessWords(accepted.access, lang), link: this.careclubLink(ctx.actor.user.org_client_id) }), {
      grant: accepted.id,
    });
    return { patient_id: patient.id, patient_name: fullName(patient), access: accepted.access };
  }

  /** Declines an invitation (the invited account; an expired one too). */
  async decline(ctx: SignedInContext, token: string): Promise<void> {
    const tokenHash = sha256(token);
    const row = await this.checkInvited(ctx, tokenHash, 'care_decline', true);
    const declined = await this.repo(ctx.actor.orgId).decline(tokenHash);
    if (!declined) {
      await this.audit.record(ctx, { action: 'care_decline', outcome: 'denied', subject: `patient:${row.patient_id}`, detail: { grant: row.id, reason: 'not_pending' } });
      throw new HttpError(404, 'errors:careInvitationNotFound');
    }
    await this.audit.record(ctx, { action: 'care_decline', outcome: 'success', subject: `patient:${declined.patient_id}`, detail: { grant: declined.id } });
  }

  /** The records the signed-in user was let into. */
  async caringFor(ctx: SignedInContext): Promise<CaringFor[]> {
    return (await this.repo(ctx.actor.orgId).held(ctx.actor.userId)).map(presentCaringFor);
  }

  /** The person leaves a record they were let into (the patient is told). */
  async leave(ctx: SignedInContext, patientId: number): Promise<void> {
    const repo = this.repo(ctx.actor.orgId);
    const [held] = await repo.held(ctx.actor.userId, patientId);
    if (!held) {
      await this.audit.record(ctx, { action: 'care_leave', outcome: 'denied', subject: `patient:${patientId}`, detail: { reason: 'no_grant' } });
      throw notFound();
    }
    if (held.grant_kind === 'dependant' && held.user_id === null) {
      await this.audit.record(ctx, { action: 'care_leave', outcome: 'denied', subject: `patient:${patientId}`, detail: { grant: held.grant_id, reason: 'dependant_manager' } });
      throw new HttpError(409, 'errors:careManagerOfDependant');
    }
    const ended = await repo.end(patientId, held.grant_id);
    if (!ended) throw notFound();
    await this.audit.record(ctx, { action: 'care_leave', outcome: 'success', subject: `patient:${patientId}`, detail: { grant: held.grant_id, shares_ended: ended.sharesEnded } });
    const member = fullName(ctx.actor.user);
    const when = new Date();
    void this.tell(ctx.actor.orgId, held.user_id, 'careLeft', (lang, zone) => ({ member, when: formatMoment(when, lang, zone), link: this.careclubLink(ctx.actor.user.org_client_id) }), { grant: held.grant_id });
    if (ended.sharesEnded > 0) void this.tell(ctx.actor.orgId, held.user_id, 'careSharesEnded', () => ({ member, count: ended.sharesEnded }), { grant: held.grant_id });
  }

  // ---- Inside ----

  /** The pending invitation a token names (public lookups), in an organisation whose care network is on; else 404. */
  private async liveInvitation(token: string): Promise<CareGrantRow> {
    const row = await new PublicCareInvitationsRepository(this.db).byToken(sha256(token));
    if (!row || row.status !== 'pending' || (await this.features.statusOf(row.org_id, 'careclub')) !== 'active') throw new HttpError(404, 'errors:careInvitationNotFound');
    // The token is proven: its organisation must be active (OrganizationsService.requireActive).
    await this.organizations.requireActive(row.org_id);
    return row;
  }

  /** The invitation behind a token, if the signed-in account may answer it; refusals audited, nothing changed. */
  private async checkInvited(ctx: SignedInContext, tokenHash: string, action: AuditAction, allowExpired = false): Promise<CareGrantRow> {
    const row = await this.repo(ctx.actor.orgId).byToken(tokenHash);
    const patient = row ? await new PatientsRepository(this.db, orgScope(ctx.actor.orgId)).findById(row.patient_id) : undefined;
    const refusal = acceptRefusal(row, patient?.user_id, { userId: ctx.actor.userId, orgId: ctx.actor.orgId, email: ctx.actor.user.email }, { allowExpired });
    if (refusal) {
      await this.audit.record(ctx, { action, outcome: 'denied', subject: row ? `patient:${row.patient_id}` : null, detail: { reason: refusal.key.replace('errors:', ''), ...(row ? { grant: row.id } : {}) } });
      throw new HttpError(refusal.status, refusal.key);
    }
    return row!;
  }

  private careclubLink(clientId: string): string {
    return `${this.publicUrl.replace(/\/+$/, '')}/${clientId}/careclub`;
  }

  /** The invitation e-mail, in the patient's language: who invites, what access, the link with the token in its fragment. */
  private mailInvitation(ctx: SignedInContext, patient: PatientRow, row: CareGrantRow, token: string): void {
    const user = ctx.actor.user;
    const lang = recipientLanguage(user.settings, ctx.lang);
    const t = (key: string, vars: Record<string, string | number> = {}) => translate(lang, key, vars);
    const message = renderMail('careInvitation', lang, row.email ?? '', {
      name: row.name,
      patient: fullName(patient),
      orgName: user.org_name,
      access: accessWords(row.access, lang),
      accessNote: t(`emails:care.accessNote.${row.access}`),
      scope: row.categories && row.categories.length > 0 ? t('emails:care.scopeLimited', { categories: categoryNames(row.categories, lang) }) : t('emails:care.scopeAll'),
      link: invitationLink(this.publicUrl, user.org_client_id, token),
      expires: row.expires_at ? formatMoment(row.expires_at, lang, zoneOf(user.settings, firstZone(patient.time_zone))) : '',
    });
    this.mail.send(message, { grant: row.id });
  }

  /** E-mails an account of the organisation (in their language, times in their zone), in the background; nobody to tell: nothing. */
  private async tell(orgId: number, userId: number | null, kind: MailKind, vars: (lang: Language, zone: string) => Record<string, string | number>, context: Record<string, string | number>): Promise<void> {
    if (userId === null) return;
    try {
      const contact: ContactRow | undefined = await this.repo(orgId).contact(userId);
      if (!contact?.email) return;
      const lang = recipientLanguage(contact.settings, 'en');
      this.mail.send(renderMail(kind, lang, contact.email, { name: contact.first_name, orgName: contact.org_name, ...vars(lang, zoneOf(contact.settings)) }), context);
    } catch {
      // A notice must not fail the change it tells of.
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    careNetwork: CareNetworkService;
  }
}

export default servicePlugin<'careNetwork', { publicUrl: string }>(
  'careNetwork',
  ['db', 'patients-service', 'audit-service', 'limiter-service', 'mail', 'invitations-service', 'features-service', 'organizations-service'],
  (app, opts) => new CareNetworkService(app.db, app.patients, app.audit, app.limiter, app.backgroundMail, app.invitations, app.features, app.organizations, opts.publicUrl),
);
