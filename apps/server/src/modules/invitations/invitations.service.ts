import type { AuditAction } from '@healthbook/shared';
import type { z } from 'zod';
import {
  INVITATION_TTL_DAYS,
  type CodeRetrievalBodySchema,
  type CreateInvitationBodySchema,
  type Language,
  type OrgRef,
  type ValidateCodeBodySchema,
} from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { orgScope } from '../../db/scope';
import { normalizeAccessCode, randomAccessCode, sha256 } from '../../lib/crypto';
import { FieldError, HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import type { BackgroundMail, Mailer } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import type { AttemptLimiter } from '../limits/limits.service';
import type { OrganizationRow } from '../organizations/organizations.repository';
import type { OrganizationsService } from '../organizations/organizations.service';
import { UsersRepository } from '../users/users.repository';
import { can, isAdministrator, type InvitationAction } from './invitations.policy';
import { formatMailDate } from './invitations.presenter';
import { findPendingByCode, InvitationsRepository, type InvitationRow } from './invitations.repository';
import { servicePlugin } from '../../lib/service-plugin';

export type NewInvitation = z.output<typeof CreateInvitationBodySchema>;
export type CodeRetrievalRequest = z.output<typeof CodeRetrievalBodySchema>;
export type ValidateCodeRequest = z.output<typeof ValidateCodeBodySchema>;

const DAY_MS = 24 * 60 * 60 * 1000;
const CODE_ATTEMPTS = 3;

export const accessCodeHash = (code: string) => sha256(normalizeAccessCode(code));

export interface InvitationsDeps {
  db: Db;
  mailer: Mailer;
  audit: AuditLog;
  limiter: AttemptLimiter;
  publicUrl: string;
  /** For mail whose sending must not show in the answer's timing (code retrieval). */
  background: BackgroundMail;
  organizations: OrganizationsService;
}

/**
 * Invitations: an administrator (or the operator CLI) invites a person into an organisation;
 * the e-mailed access code, valid for 30 days and usable once, lets them create an account.
 * Only the code's SHA-256 is kept.
 */
export class InvitationsService {
  private readonly orgs: OrganizationsService;

  constructor(private readonly deps: InvitationsDeps) {
    this.orgs = deps.organizations;
  }

  private repo(orgId: number, db: Db = this.deps.db) {
    return new InvitationsRepository(db, orgScope(orgId));
  }

  resolveOrg(ref: OrgRef) {
    return this.orgs.resolve(ref);
  }

  accessCodeLink(org: Pick<OrganizationRow, 'name'>): string {
    return `${this.deps.publicUrl}/${org.name}/access-code`;
  }

  /**
   * The organisation an administrator acts on: the one named (super admins: any; org admins:
   * their own), else their own. 403 for everyone else, and for an org admin naming an unknown
   * organisation (nothing is revealed about which exist). Refusals are audited.
   */
  async orgForAdmin(ctx: SignedInContext, ref: OrgRef | undefined, action: InvitationAction): Promise<OrganizationRow> {
    const { actor } = ctx;
    const auditAction = action === 'create' ? 'invitation_create' : 'invitation_list';
    const deny = async (reason: string) => {
      await this.deps.audit.record(ctx, { action: auditAction, outcome: 'denied', detail: { reason, org: ref === undefined ? null : String(ref) } });
      return new HttpError(403, 'errors:permissionDenied');
    };
    if (!isAdministrator(actor)) throw await deny('not_admin');
    const org = ref === undefined ? await this.orgs.findById(actor.orgId) : await this.resolveOrg(ref);
    if (!org) {
      if (actor.isSuperadmin) throw new FieldError({ org_id: ['errors:organizationUnknown'] });
      throw await deny('unknown_org');
    }
    if (!can(actor, action, org)) throw await deny('other_org');
    return org;
  }

  /**
   * Creates an invitation and e-mails its code; answers the row and the clear code (shown once).
   * 400 {email} when the address already has an account in that organisation (administrators
   * see their members anyway). When the mail cannot be sent the invitation is removed again and
   * the error goes up: an invitation exists only if its invitee was told. With `mail: false` the
   * code is only answered (a care-network invitee asking for it on the page their e-mail opened).
   */
  async create(
    ctx: ServiceContext,
    org: OrganizationRow,
    input: NewInvitation,
    opts: {
      createdBy: number | null;
      lang: Language;
      via: 'api' | 'cli' | 'care-network' | 'family' | 'import';
      /** E-mail the code (default); false: the caller hands it over itself. */
      mail?: boolean;
      /** The existing patient (a family member) the new account becomes, and who gives it (named in the mail). */
      familyMember?: { patientId: number; inviterName: string };
    },
  ): Promise<{ invitation: InvitationRow; code: string }> {
    if (await new UsersRepository(this.deps.db, orgScope(org.id)).emailTaken(input.email)) throw new FieldError({ email: ['validation:emailTaken'] });
    const repo = this.repo(org.id);
    const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
    const { result: invitation, code } = await this.withNewCode((codeHash) =>
      repo.insert({
        first_name: input.first_name,
        last_name: input.last_name,
        dob: input.dob,
        gender: input.gender,
        email: input.email,
        code_hash: codeHash,
        created_by: opts.createdBy,
        expires_at: expiresAt,
        patient_id: opts.familyMember?.patientId ?? null,
      }),
    );
    if (opts.mail !== false) {
      try {
        await this.deps.mailer.send(
          renderMail(opts.familyMember ? 'familyInvitation' : 'invitation', opts.lang, invitation.email, {
            name: invitation.first_name,
            orgName: org.org_name,
            link: this.accessCodeLink(org),
            code,
            expires: formatMailDate(expiresAt, opts.lang),
            ...(opts.familyMember ? { inviter: opts.familyMember.inviterName } : {}),
          }),
        );
      } catch (err) {
        await repo.remove(invitation.id);
        throw err;
      }
    }
    await this.deps.audit.record(ctx, {
      action: 'invitation_create',
      outcome: 'success',
      orgId: org.id,
      actorUserId: opts.createdBy,
      subject: `${org.id}:${invitation.email}`,
      detail: { invitation: invitation.id, via: opts.via },
    });
    return { invitation, code };
  }

  list(org: Pick<OrganizationRow, 'id'>): Promise<InvitationRow[]> {
    return this.repo(org.id).list();
  }

  /**
   * The pending invitation behind a code. With an organisation named, only that organisation's:
   * unknown, used, expired and another organisation's codes all get the same 400 {signup_code}.
   */
  async findByCode(ctx: ServiceContext, orgRef: OrgRef | undefined, code: string, auditAction: AuditAction): Promise<InvitationRow> {
    const org = orgRef === undefined ? null : await this.resolveOrg(orgRef);
    const found = orgRef !== undefined && !org ? undefined : await findPendingByCode(this.deps.db, accessCodeHash(code));
    const invitation = found && (!org || found.org_id === org.id) ? found : undefined;
    await this.deps.audit.record(ctx, {
      action: auditAction,
      outcome: invitation ? 'success' : 'failure',
      orgId: invitation?.org_id ?? org?.id ?? null,
      detail: invitation ? { invitation: invitation.id } : { reason: 'code' },
    });
    if (!invitation) throw new FieldError({ signup_code: ['validation:accessCodeInvalid'] });
    // A code used without naming its organisation: the code is the proof, its organisation must be active.
    if (!org) await this.orgs.requireActive(invitation.org_id);
    return invitation;
  }

  validate(ctx: ServiceContext, body: ValidateCodeRequest): Promise<InvitationRow> {
    return this.findByCode(ctx, body.org_id, body.signup_code, 'invitation_validate');
  }

  /**
   * Code retrieval: when a pending invitation of the organisation matches the names
   * (case-insensitive) and the date of birth, it gets a new code (the old one stops working)
   * and 30 more days, and the code is e-mailed to the invited address. At most three mails per
   * person an hour (counted before the lookup, so parallel requests cannot send more). The
   * caller answers the same either way; the mail leaves in the background so timing tells nothing.
   */
  async retrieveCode(ctx: ServiceContext, body: CodeRetrievalRequest): Promise<void> {
    const org = await this.resolveOrg(body.org_id);
    const person = [org?.id ?? String(body.org_id), body.first_name.toLowerCase(), body.last_name.toLowerCase(), body.DOB].join(':');
    const attempt = await this.deps.limiter.take('codeRetrieval', person);
    if (!attempt.allowed) {
      await this.deps.audit.record(ctx, { action: 'code_retrieval', outcome: 'denied', orgId: org?.id ?? null, detail: { reason: 'attempts' } });
      return;
    }
    const repo = org ? this.repo(org.id) : undefined;
    const found = repo ? await repo.findPendingByPerson(body.first_name, body.last_name, body.DOB) : undefined;
    const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
    const rotated = found && repo ? await this.withNewCode((codeHash) => repo.rotateCode(found.id, codeHash, expiresAt)) : undefined;
    const invitation = rotated?.result;
    await this.deps.audit.record(ctx, {
      action: 'code_retrieval',
      outcome: invitation ? 'success' : 'failure',
      orgId: org?.id ?? null,
      detail: invitation ? { invitation: invitation.id } : {},
    });
    if (!org || !invitation || !rotated) return;
    this.deps.background.send(
      renderMail('codeRetrieval', ctx.lang, invitation.email, {
        name: invitation.first_name,
        orgName: org.org_name,
        link: this.accessCodeLink(org),
        code: rotated.code,
        expires: formatMailDate(expiresAt, ctx.lang),
      }),
      { invitation: invitation.id },
    );
  }

  /**
   * Sends a pending invitation again (the administrator's home): a new code and a new 30-day
   * expiry, the earlier code stops working; the mail is the invitation's, in `lang`.
   */
  async resend(ctx: ServiceContext, org: OrganizationRow, invitation: InvitationRow, lang: Language): Promise<void> {
    const repo = this.repo(org.id);
    const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
    const rotated = await this.withNewCode((codeHash) => repo.rotateCode(invitation.id, codeHash, expiresAt));
    if (!rotated.result) throw new HttpError(409, 'errors:peopleNotInvited');
    await this.deps.mailer.send(
      renderMail('invitation', lang, invitation.email, {
        name: invitation.first_name,
        orgName: org.org_name,
        link: this.accessCodeLink(org),
        code: rotated.code,
        expires: formatMailDate(expiresAt, lang),
      }),
    );
    await this.deps.audit.record(ctx, { action: 'invitation_resend', outcome: 'success', orgId: org.id, subject: `${org.id}:${invitation.email}`, detail: { invitation: invitation.id } });
  }

  /** Runs `write` with a fresh code's hash; on the (2^-50) chance of a clash with an existing code, with another. */
  private async withNewCode<T>(write: (codeHash: string) => Promise<T>): Promise<{ result: T; code: string }> {
    for (let attempt = 1; ; attempt++) {
      const code = randomAccessCode();
      try {
        return { result: await write(accessCodeHash(code)), code };
      } catch (err) {
        if (attempt >= CODE_ATTEMPTS || !isUniqueViolation(err, 'invitations_code_hash_key')) throw err;
      }
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    invitations: InvitationsService;
  }
}

export default servicePlugin<'invitations', { publicUrl: string }>(
  'invitations',
  ['db', 'mail', 'audit-service', 'limiter-service', 'organizations-service'],
  (app, opts) =>
    new InvitationsService({
      db: app.db,
      mailer: app.mailer,
      audit: app.audit,
      limiter: app.limiter,
      publicUrl: opts.publicUrl,
      background: app.backgroundMail,
      organizations: app.organizations,
    }),
);
