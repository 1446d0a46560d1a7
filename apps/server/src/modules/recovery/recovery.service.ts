import type { FastifyRequest } from 'fastify';
import { RESET_TOKEN_TTL_S, isSupportedLanguage, type ForgotPasswordBody, type Language, type ResetPasswordConfirmBody } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { decodeUid, encodeUid } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import { hashPassword } from '../../lib/passwords';
import type { AuditLog } from '../audit/audit.service';
import { SessionsRepository } from '../auth/sessions.repository';
import { resolveOrg } from '../invitations/invitations.service';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import type { UsersRepository } from '../users/users.repository';
import type { BackgroundMail } from './background-mail';
import { RecoveryRepository } from './recovery.repository';
import { UserTokensRepository } from './user-tokens.repository';

export interface RecoveryDeps {
  db: Db;
  users: UsersRepository;
  audit: AuditLog;
  publicUrl: string;
  background: BackgroundMail;
}

const linkInvalid = () => new HttpError(400, 'errors:resetLinkInvalid');

/** The language of mail to an account holder: the one they chose, else the request's. */
function mailLanguage(settings: unknown, fallback: Language): Language {
  const chosen = (settings as { language?: unknown } | null)?.language;
  return isSupportedLanguage(chosen) ? chosen : fallback;
}

/**
 * Password reset by e-mailed link: 256-bit single-use tokens valid for 60 minutes (only their
 * hash is kept). Asking never reveals whether an account exists. Completing a reset ends every
 * session of the account and leaves its second factors as they are.
 */
export class RecoveryService {
  private readonly orgs: OrganizationsRepository;
  private readonly repo: RecoveryRepository;
  private readonly tokens: UserTokensRepository;

  constructor(private readonly deps: RecoveryDeps) {
    this.orgs = new OrganizationsRepository(deps.db);
    this.repo = new RecoveryRepository(deps.db);
    this.tokens = new UserTokensRepository(deps.db);
  }

  /**
   * When an active account has this address in the organisation: a new reset token (earlier
   * unused ones stop working) and a mail with the link, sent in the background. The caller
   * answers the same in every case.
   */
  async requestReset(request: FastifyRequest, body: ForgotPasswordBody): Promise<void> {
    const { users, audit, db } = this.deps;
    const org = await resolveOrg(this.orgs, body.org_id);
    const user = org ? await users.findByEmail(org.id, body.email) : undefined;
    const subject = `${org?.id ?? String(body.org_id).toLowerCase()}:${body.email.trim().toLowerCase()}`;
    if (!org || !user || !user.is_active) {
      await audit.record(request, { action: 'password_reset_request', outcome: 'failure', orgId: org?.id ?? null, subject });
      return;
    }
    const token = await db.transaction().execute(async (trx) => {
      const issued = await new UserTokensRepository(trx).issue(user.id, 'reset_password', RESET_TOKEN_TTL_S, { replace: true });
      await audit.record(request, { action: 'password_reset_request', outcome: 'success', orgId: org.id, actorUserId: user.id, subject }, trx);
      return issued;
    });
    this.deps.background.send(
      renderMail('reset', mailLanguage(user.settings, request.lang), user.email, {
        name: user.first_name,
        orgName: org.org_name,
        link: `${this.deps.publicUrl}/${org.name}/password/reset/${encodeUid(user.id)}/${token}`,
      }),
      { user: user.id },
    );
  }

  /**
   * Sets the new password when uid and token name a live, unused reset token of an active
   * account. In one transaction: the token is used up (with any other outstanding ones), the
   * hash replaced, and every session of the account ended.
   */
  async confirmReset(request: FastifyRequest, body: ResetPasswordConfirmBody): Promise<void> {
    const { audit, db } = this.deps;
    const userId = decodeUid(body.uid);
    const account = userId === null ? undefined : await this.repo.findAccount(userId);
    // A cheap check first, so an invalid link never costs a password hash.
    if (!account || !account.is_active || !(await this.tokens.isLive(account.id, 'reset_password', body.token))) {
      await audit.record(request, { action: 'password_reset', outcome: 'failure', actorUserId: account?.id ?? null, orgId: account?.org_id ?? null });
      throw linkInvalid();
    }
    const passwordHash = await hashPassword(body.password);
    const done = await db.transaction().execute(async (trx) => {
      const tokens = new UserTokensRepository(trx);
      if (!(await tokens.consume(account.id, 'reset_password', body.token))) return false;
      await tokens.invalidate(account.id, 'reset_password');
      await new RecoveryRepository(trx).setPassword(account.id, passwordHash);
      await new SessionsRepository(trx).revokeAllForUser(account.id, 'password_reset');
      await audit.record(request, { action: 'password_reset', outcome: 'success', actorUserId: account.id, orgId: account.org_id }, trx);
      return true;
    });
    if (!done) {
      await audit.record(request, { action: 'password_reset', outcome: 'failure', actorUserId: account.id, orgId: account.org_id });
      throw linkInvalid();
    }
    this.deps.background.send(
      renderMail('passwordChanged', mailLanguage(account.settings, request.lang), account.email, {
        name: account.first_name,
        orgName: account.org_name,
      }),
      { user: account.id },
    );
  }
}
