import { ACCOUNT_SETUP_TOKEN_TTL_S, type AccountSetupAnswer, type AccountSetupBody, type AccountSetupCheckAnswer, type AccountSetupLink, type Language } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { decodeUid, encodeUid } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { recipientLanguage, renderMail } from '../../lib/mail-templates';
import { hashPassword } from '../../lib/passwords';
import { servicePlugin } from '../../lib/service-plugin';
import type { BackgroundMail, Mailer } from '../../plugins/mail';
import type { OrganizationsService } from '../organizations/organizations.service';
import type { AuditLog } from '../audit/audit.service';
import { SessionsRepository } from '../auth/sessions.repository';
import { UsersRepository } from '../users/users.repository';
import { UserTokensRepository } from './user-tokens.repository';

/**
 * Accounts made for someone else (the operator's create-admin and create-organisation commands;
 * an administrator inviting staff) have no password: the person chooses it through a single-use
 * link e-mailed to them, valid 24 hours (only the token's hash is kept). No default password
 * exists anywhere. This file is the one way such a link is made and used.
 */

export interface AccountSetupDeps {
  db: Db;
  audit: AuditLog;
  publicUrl: string;
  /** The mailer the link is sent through, awaited (the caller learns whether it left). */
  mailer: Mailer;
}

/** The account the link is for, and its organisation. */
export interface AccountSetupTarget {
  user: { id: number; org_id: number; email: string; first_name: string; settings?: unknown };
  org: { id: number; name: string; org_name: string };
}

export interface AccountSetupLinkSent {
  /** The address to open (holds the token: show it only to whoever may set the password). */
  link: string;
  expiresAt: Date;
  /** How the mail left: through SMTP_URL, or kept in the outbox (no SMTP_URL). */
  mail: Mailer['mode'];
}

/** The page of the link: `/{clientId}/password/set/{uid}/{token}`. */
export function accountSetupPath(clientId: string, userId: number, token: string): string {
  return `/${clientId}/password/set/${encodeUid(userId)}/${token}`;
}

/**
 * Makes a new set-password link for the account (an earlier unused one stops working: it reads
 * as expired) and e-mails it in the account's language (else `ctx.lang`). Audited as
 * `account_setup_link` with `via` (cli, admin…). With `background`, the mail leaves without
 * being awaited (bulk invitations); otherwise a failed send throws after the link was made, so
 * the caller can say so (the link stays valid: a second call replaces it).
 */
export async function sendAccountSetupLink(
  deps: AccountSetupDeps,
  ctx: ServiceContext,
  target: AccountSetupTarget,
  opts: { via: string; background?: BackgroundMail },
): Promise<AccountSetupLinkSent> {
  const { user, org } = target;
  const expiresAt = new Date(Date.now() + ACCOUNT_SETUP_TOKEN_TTL_S * 1000);
  const token = await deps.db.transaction().execute(async (trx) => {
    const tokens = new UserTokensRepository(trx);
    await tokens.expireUnused(user.id, 'account_setup');
    const issued = await tokens.issue(orgScope(org.id), user.id, 'account_setup', ACCOUNT_SETUP_TOKEN_TTL_S);
    await deps.audit.record(ctx, { action: 'account_setup_link', outcome: 'success', orgId: org.id, subject: `user:${user.id}`, detail: { via: opts.via } }, trx);
    return issued;
  });
  const link = `${deps.publicUrl}${accountSetupPath(org.name, user.id, token)}`;
  const lang: Language = recipientLanguage(user.settings, ctx.lang);
  const message = renderMail('accountSetup', lang, user.email, {
    name: user.first_name,
    orgName: org.org_name,
    email: user.email,
    link,
    hours: ACCOUNT_SETUP_TOKEN_TTL_S / 3600,
    signIn: `${deps.publicUrl}/${org.name}/login`,
  });
  if (opts.background) opts.background.send(message, { user: user.id });
  else await deps.mailer.send(message);
  return { link, expiresAt, mail: deps.mailer.mode };
}

const invalid = () => new HttpError(400, 'errors:setupLinkInvalid');
const gone = (reason: 'expired' | 'used') =>
  new HttpError(410, reason === 'expired' ? 'errors:setupLinkExpired' : 'errors:setupLinkUsed', {}, {}, { reason });

/** Using a set-password link (public routes: the link is its own proof). */
export class AccountSetupService {
  constructor(private readonly deps: Omit<AccountSetupDeps, 'mailer' | 'publicUrl'> & { organizations: Pick<OrganizationsService, 'requireActive'> }) {}

  /**
   * The link's account, when the link is live; else 400 (unknown) or 410 with why (expired,
   * used), so the page can say so before anyone types a password.
   */
  async check(link: AccountSetupLink): Promise<AccountSetupCheckAnswer> {
    const { account } = await this.live(link);
    return { email: account.email, first_name: account.first_name, org_name: account.org_name, client_id: account.org_client_id };
  }

  /**
   * Sets the password with a live link: in one transaction the token is used up (one winner
   * among parallel uses: a conditional update), the password set, the address confirmed (the
   * link came to it) and any session ended. Audited as `account_setup`.
   */
  async complete(ctx: ServiceContext, body: AccountSetupBody): Promise<Omit<AccountSetupAnswer, 'detail'>> {
    const { audit, db } = this.deps;
    const { account } = await this.live(body, ctx);
    const scope = orgScope(account.org_id);
    const passwordHash = await hashPassword(body.password);
    const done = await db.transaction().execute(async (trx) => {
      const tokens = new UserTokensRepository(trx);
      if (!(await tokens.consume(account.id, 'account_setup', body.token))) return false;
      await new UsersRepository(trx, scope).setPassword(account.id, passwordHash, { confirmEmail: true });
      await new SessionsRepository(trx).revokeAllForUser(scope, account.id, 'account_setup');
      await audit.record(ctx, { action: 'account_setup', outcome: 'success', actorUserId: account.id, orgId: account.org_id }, trx);
      return true;
    });
    if (!done) {
      // Another request used the link a moment before this one.
      await audit.record(ctx, { action: 'account_setup', outcome: 'failure', actorUserId: account.id, orgId: account.org_id, detail: { reason: 'used' } });
      throw gone('used');
    }
    return { email: account.email, client_id: account.org_client_id };
  }

  /** The account of a live link, or the refusal (audited when `ctx` is given: a try to use it). */
  private async live(link: AccountSetupLink, ctx?: ServiceContext) {
    const { audit, db } = this.deps;
    const userId = decodeUid(link.uid);
    const token = userId === null ? undefined : await new UserTokensRepository(db).findAny(userId, 'account_setup', link.token);
    const account = token ? await new UsersRepository(db, orgScope(token.org_id)).findById(token.user_id) : undefined;
    const refusal = !token || !account || !account.is_active ? 'invalid' : token.used ? 'used' : token.expired ? 'expired' : null;
    if (refusal) {
      if (ctx) await audit.record(ctx, { action: 'account_setup', outcome: 'failure', actorUserId: account?.id ?? null, orgId: account?.org_id ?? null, detail: { reason: refusal } });
      throw refusal === 'invalid' ? invalid() : gone(refusal);
    }
    // The link is proven: its organisation must be active (OrganizationsService.requireActive).
    await this.deps.organizations.requireActive(account!.org_id);
    return { account: account! };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    accountSetup: AccountSetupService;
  }
}

export default servicePlugin('accountSetup', ['db', 'audit-service', 'organizations-service'], (app) => new AccountSetupService({ db: app.db, audit: app.audit, organizations: app.organizations }));
