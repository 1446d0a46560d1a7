import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { INVITATION_TTL_DAYS, type CodeRetrievalBodySchema, type CreateInvitationBodySchema, type Language, type ValidateCodeBody } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { normalizeAccessCode, randomAccessCode, sha256 } from '../../lib/crypto';
import { FieldError, HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import type { Mailer } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import { OrganizationsRepository, type OrganizationRow } from '../organizations/organizations.repository';
import type { BackgroundMail } from '../recovery/background-mail';
import { can, isAdministrator, type InvitationAction } from './invitations.policy';
import { formatMailDate } from './invitations.presenter';
import { InvitationsRepository, type InvitationRow } from './invitations.repository';

export type NewInvitation = z.output<typeof CreateInvitationBodySchema>;
export type CodeRetrievalRequest = z.output<typeof CodeRetrievalBodySchema>;
type AuditRequest = Pick<FastifyRequest, 'ip' | 'auth'> | null;

const DAY_MS = 24 * 60 * 60 * 1000;
const CODE_ATTEMPTS = 3;

/** A PostgreSQL unique violation (pg and PGlite both carry the SQLSTATE and constraint name). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && e.constraint === constraint;
}

/** An organisation by id (number or digits) or by client id (case-insensitive). */
export function resolveOrg(orgs: OrganizationsRepository, ref: number | string): Promise<OrganizationRow | undefined> {
  return typeof ref === 'number' || /^[0-9]+$/.test(ref) ? orgs.findById(Number(ref)) : orgs.findByName(ref.trim());
}

export const accessCodeHash = (code: string) => sha256(normalizeAccessCode(code));

export interface InvitationsDeps {
  db: Db;
  mailer: Mailer;
  audit: AuditLog;
  publicUrl: string;
  /** For mail whose sending must not show in the answer's timing (code retrieval). */
  background: BackgroundMail;
}

/**
 * Invitations: an administrator (or the operator CLI) invites a person into an organisation;
 * the e-mailed access code, valid for 30 days and usable once, lets them create an account.
 * Only the code's SHA-256 is kept.
 */
export class InvitationsService {
  readonly repo: InvitationsRepository;
  readonly orgs: OrganizationsRepository;

  constructor(private readonly deps: InvitationsDeps) {
    this.repo = new InvitationsRepository(deps.db);
    this.orgs = new OrganizationsRepository(deps.db);
  }

  resolveOrg(ref: number | string) {
    return resolveOrg(this.orgs, ref);
  }

  accessCodeLink(org: Pick<OrganizationRow, 'name'>): string {
    return `${this.deps.publicUrl}/${org.name}/access-code`;
  }

  /**
   * The organisation an authenticated administrator acts on: the one named (super admins: any;
   * org admins: their own), else their own. 403 for everyone else, and for an org admin naming
   * an unknown organisation (nothing is revealed about which exist).
   */
  async orgForAdmin(request: FastifyRequest, ref: number | string | undefined, action: InvitationAction): Promise<OrganizationRow> {
    const actor = request.auth!;
    const auditAction = action === 'create' ? 'invitation_create' : 'invitation_list';
    const deny = async (reason: string) => {
      await this.deps.audit.record(request, { action: auditAction, outcome: 'denied', detail: { reason, org: ref === undefined ? null : String(ref) } });
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
   * 400 {email} when the address already has an account in that organisation. When the mail
   * cannot be sent the invitation is removed again and the error goes up: an invitation exists
   * only if its invitee was told.
   */
  async create(
    request: AuditRequest,
    org: OrganizationRow,
    input: NewInvitation,
    opts: { createdBy: number | null; lang: Language; via: 'api' | 'cli' },
  ): Promise<{ invitation: InvitationRow; code: string }> {
    if (await this.repo.emailHasAccount(org.id, input.email)) throw new FieldError({ email: ['validation:emailTaken'] });
    const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
    const { result: invitation, code } = await this.withNewCode((codeHash) =>
      this.repo.insert({
        org_id: org.id,
        first_name: input.first_name,
        last_name: input.last_name,
        dob: input.dob,
        gender: input.gender,
        email: input.email,
        code_hash: codeHash,
        created_by: opts.createdBy,
        expires_at: expiresAt,
      }),
    );
    try {
      await this.deps.mailer.send(
        renderMail('invitation', opts.lang, invitation.email, {
          name: invitation.first_name,
          orgName: org.org_name,
          link: this.accessCodeLink(org),
          code,
          expires: formatMailDate(expiresAt, opts.lang),
        }),
      );
    } catch (err) {
      await this.repo.remove(invitation.id);
      throw err;
    }
    await this.deps.audit.record(request, {
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
    return this.repo.listForOrg(org.id);
  }

  /**
   * The pending invitation behind a code, within the organisation named. Unknown, used, expired
   * and another organisation's codes all get the same 400 {signup_code}.
   */
  async validate(request: FastifyRequest, body: ValidateCodeBody): Promise<InvitationRow> {
    const org = await this.resolveOrg(body.org_id);
    const invitation = org ? await this.repo.findPendingByCode(org.id, accessCodeHash(body.signup_code)) : undefined;
    await this.deps.audit.record(request, {
      action: 'invitation_validate',
      outcome: invitation ? 'success' : 'failure',
      orgId: org?.id ?? null,
      detail: invitation ? { invitation: invitation.id } : {},
    });
    if (!invitation) throw new FieldError({ signup_code: ['validation:accessCodeInvalid'] });
    return invitation;
  }

  /**
   * Code retrieval: when a pending invitation of the organisation matches the names
   * (case-insensitive) and the date of birth, it gets a new code (the old one stops working)
   * and 30 more days, and the code is e-mailed to the invited address. The caller answers the
   * same either way; the mail leaves in the background so timing tells nothing either.
   */
  async retrieveCode(request: FastifyRequest, body: CodeRetrievalRequest): Promise<void> {
    const org = await this.resolveOrg(body.org_id);
    const found = org ? await this.repo.findPendingByPerson(org.id, body.first_name, body.last_name, body.DOB) : undefined;
    const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
    const rotated = found ? await this.withNewCode((codeHash) => this.repo.rotateCode(found.id, codeHash, expiresAt)) : undefined;
    const invitation = rotated?.result;
    await this.deps.audit.record(request, {
      action: 'code_retrieval',
      outcome: invitation ? 'success' : 'failure',
      orgId: org?.id ?? null,
      detail: invitation ? { invitation: invitation.id } : {},
    });
    if (!org || !invitation || !rotated) return;
    this.deps.background.send(
      renderMail('codeRetrieval', request.lang, invitation.email, {
        name: invitation.first_name,
        orgName: org.org_name,
        link: this.accessCodeLink(org),
        code: rotated.code,
        expires: formatMailDate(expiresAt, request.lang),
      }),
      { invitation: invitation.id },
    );
  }

  /** Runs `write` with a fresh code's hash; on the (2^-50) chance of a clash with an existing code, with another. */
  private async withNewCode<T>(write: (codeHash: string) => Promise<T>): Promise<{ result: T; code: string }> {
    for (let attempt = 1; ; attempt++) {
      const code = randomAccessCode();
      try {
        return { result: await write(sha256(normalizeAccessCode(code))), code };
      } catch (err) {
        if (attempt >= CODE_ATTEMPTS || !isUniqueViolation(err, 'invitations_code_hash_key')) throw err;
      }
    }
  }
}
