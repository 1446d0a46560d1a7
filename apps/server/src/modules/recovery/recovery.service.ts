import type { z } from 'zod';
import { RESET_TOKEN_TTL_S, type ForgotPasswordBodySchema, type ResetPasswordConfirmBody } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { decodeUid, encodeUid } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import { hashPassword } from '../../lib/passwords';
import type { BackgroundMail } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import { AuthService } from '../auth/auth.service';
import { SessionsRepository } from '../auth/sessions.repository';
import { endLinksOf } from '../connection-hub/link-ends';
import type { AttemptLimiter } from '../limits/limits.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { mailTarget } from '../users/users.presenter';
import { UsersRepository } from '../users/users.repository';
import { UserTokensRepository } from './user-tokens.repository';
import { servicePlugin } from '../../lib/service-plugin';

type ForgotPasswordRequest = z.output<typeof ForgotPasswordBodySchema>;

export interface RecoveryDeps {
  db: Db;
  audit: AuditLog;
  limiter: AttemptLimiter;
  publicUrl: string;
  background: BackgroundMail;
  organizations: OrganizationsService;
}

const linkInvalid = () => new HttpError(400, 'errors:resetLinkInvalid');

/**
 * Password reset by e-mailed link: 256-bit single-use tokens valid for 60 minutes (only their
 * hash is kept). Asking never reveals whether an account exists. Completing a reset ends every
 * session of the account and leaves its second factors as they are.
 */
export class RecoveryService {
  private readonly tokens: UserTokensRepository;

  constructor(private readonly deps: RecoveryDeps) {
    this.tokens = new UserTokensRepository(deps.db);
  }

  /**
   * When an active account has this address in the organisation: a new reset token (earlier
   * unused ones stop working) and a mail with the link, sent in the background. At most three
   * mails per address an hour, counted before anything is looked up (known or unknown address
   * alike, parallel requests included). The caller answers the same in every case.
   */
  async requestReset(ctx: ServiceContext, body: ForgotPasswordRequest): Promise<void> {
    const { audit, db } = this.deps;
    const org = await this.deps.organizations.resolve(body.org_id);
    const subject = AuthService.accountKey(org?.id ?? String(body.org_id).toLowerCase(), body.email);
    const attempt = await this.deps.limiter.take('resetRequest', subject);
    if (!attempt.allowed) {
      await audit.record(ctx, { action: 'password_reset_request', outcome: 'denied', orgId: org?.id ?? null, actorUserId: null, subject, detail: { reason: 'attempts' } });
      return;
    }
    const user = org ? await new UsersRepository(db, orgScope(org.id)).findByEmail(body.email) : undefined;
    if (!org || !user || !user.is_active) {
      await audit.record(ctx, { action: 'password_reset_request', outcome: 'failure', orgId: org?.id ?? null, actorUserId: null, subject });
      return;
    }
    const token = await db.transaction().execute(async (trx) => {
      const issued = await new UserTokensRepository(trx).issue(orgScope(org.id), user.id, 'reset_password', RESET_TOKEN_TTL_S, { replace: true });
      await audit.record(ctx, { action: 'password_reset_request', outcome: 'success', orgId: org.id, actorUserId: user.id, subject }, trx);
      return issued;
    });
    const target = mailTarget(user, ctx.lang);
    this.deps.background.send(
      renderMail('reset', target.lang, target.email, {
        name: target.name,
        orgName: org.org_name,
        link: `${this.deps.publicUrl}/${org.name}/password/reset/${encodeUid(user.id)}/${token}`,
      }),
      { user: user.id },
    );
  }

  /**
   * Sets the new password when uid and token name a live, unused reset token of an active
   * account. In one transaction: the token is used up (with any other outstanding ones), the
   * hash replaced (which also confirms the address), and every session of the account ended.
   */
  async confirmReset(ctx: ServiceContext, body: ResetPasswordConfirmBody): Promise<void> {
    const { audit, db } = this.deps;
    const userId = decodeUid(body.uid);
    // A cheap check first, so an invalid link never costs a password hash.
    const holder = userId === null ? undefined : await this.tokens.findLive(userId, 'reset_password', body.token);
    const account = holder ? await new UsersRepository(db, orgScope(holder.org_id)).findById(holder.user_id) : undefined;
    if (!holder || !account || !account.is_active) {
      // The uid names the account the link claims to be for (unproven, like the link itself).
      await audit.record(ctx, { action: 'password_reset', outcome: 'failure', actorUserId: userId, orgId: account?.org_id ?? null });
      throw linkInvalid();
    }
    // The link is proven: its organisation must be active (OrganizationsService.requireActive).
    await this.deps.organizations.requireActive(account.org_id);
    const scope = orgScope(account.org_id);
    const passwordHash = await hashPassword(body.password);
    const done = await db.transaction().execute(async (trx) => {
      const tokens = new UserTokensRepository(trx);
      if (!(await tokens.consume(account.id, 'reset_password', body.token))) return false;
      await tokens.invalidate(account.id, 'reset_password');
      await new UsersRepository(trx, scope).setPassword(account.id, passwordHash, { confirmEmail: true });
      await new SessionsRepository(trx).revokeAllForUser(scope, account.id, 'password_reset');
      await audit.record(ctx, { action: 'password_reset', outcome: 'success', actorUserId: account.id, orgId: account.org_id }, trx);
      return true;
    });
    if (!done) {
      await audit.record(ctx, { action: 'password_reset', outcome: 'failure', actorUserId: account.id, orgId: account.org_id });
      throw linkInvalid();
    }
    // A link to another account lives only as long as the password that made it.
    await endLinksOf({ db, audit, mail: this.deps.background }, ctx, { userId: account.id, orgId: account.org_id }, 'password_reset');
    const target = mailTarget(account, ctx.lang);
    this.deps.background.send(renderMail('passwordChanged', target.lang, target.email, { name: target.name, orgName: target.orgName }), {
      user: account.id,
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    recovery: RecoveryService;
  }
}

export default servicePlugin<'recovery', { publicUrl: string }>(
  'recovery',
  ['db', 'audit-service', 'limiter-service', 'mail', 'organizations-service'],
  (app, opts) =>
    new RecoveryService({
      db: app.db,
      audit: app.audit,
      limiter: app.limiter,
      publicUrl: opts.publicUrl,
      background: app.backgroundMail,
      organizations: app.organizations,
    }),
);
