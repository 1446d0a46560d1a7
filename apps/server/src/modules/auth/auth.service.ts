import type { AuditAction } from '@healthbook/shared';
import {
  INCORRECT_CREDENTIALS,
  type LimitedUser,
  type LoginAnswer,
  type OrgRef,
  type ReauthFields,
  type TokenPair,
  type UserDto,
  translate,
} from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { FieldError, HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { BackgroundMail } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import type { AttemptLimiter } from '../limits/limits.service';
import type { MfaService } from '../mfa/mfa.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { mailTarget, presentLimitedUser, presentUser } from '../users/users.presenter';
import { findUserOrg, UsersRepository, type UserRecord, type UserView } from '../users/users.repository';
import { SessionsRepository } from './sessions.repository';
import type { TokenService } from './tokens';
import { servicePlugin } from '../../lib/service-plugin';
import { cancelClosingOnSignIn } from '../account-closing/account-closing.service';

/** Never localised: the spec's client compares this exact text to decide not to renew its token. */
const incorrect = () => new HttpError(401, INCORRECT_CREDENTIALS);

/** A 429 for a limit that is reached, with Retry-After. */
export const tooManyTries = (retryAfterS: number, key = 'errors:tooManyTries') =>
  new HttpError(429, key, { minutes: Math.ceil(retryAfterS / 60) }, { 'Retry-After': String(retryAfterS) });

/** A hash to verify against when the account does not exist, so both cases take the same time. */
let dummyHash: Promise<string> | undefined;
export const verifyAgainstNothing = async (password: string) => {
  await verifyPassword(await (dummyHash ??= hashPassword('not-a-real-password#1A')), password);
  return false;
};

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
  audit: AuditLog;
  mfa: MfaService;
  limiter: AttemptLimiter;
  background: BackgroundMail;
  organizations: OrganizationsService;
}

/** Sign-in, second step, token rotation, sign-out, and asking again who is at the keyboard. */
export class AuthService {
  private readonly sessions: SessionsRepository;
  constructor(private readonly deps: AuthDeps) {
    this.sessions = new SessionsRepository(deps.db);
  }

  static accountKey(org: number | string, email: string) {
    return `${org}:${email.trim().toLowerCase()}`;
  }

  /**
   * Email + password within one organisation. The same 401 for an unknown account, a wrong
   * password, another organisation's account or a disabled one. Each try is counted before the
   * password is checked: five failures in 15 minutes lock that account's sign-in for 15
   * minutes, whatever the client address, however many requests arrive at once.
   */
  async login(
    ctx: ServiceContext,
    body: { email: string; password: string; org: OrgRef; userAgent?: string },
  ): Promise<LoginAnswer & { access_level: 'full' | 'limited' }> {
    const user = await this.checkCredentials(ctx, body);
    return this.openSession(ctx, user, { userAgent: body.userAgent });
  }

  /**
   * Sign-in's first step, without opening a session: the account of that address in that
   * organisation, if the password is right. Used by sign-in and by linking accounts (connection
   * hub, `action: 'account_link'`). The same 401 for an unknown account, a wrong password,
   * another organisation's account or a disabled one. Each try is counted before the password is
   * checked: five failures in 15 minutes lock that account's sign-in for 15 minutes, whatever
   * the client address, however many requests arrive at once. Audited in the account's
   * organisation.
   */
  async checkCredentials(
    ctx: ServiceContext,
    body: { email: string; password: string; org: OrgRef },
    action: 'login' | 'account_link' = 'login',
  ): Promise<UserRecord> {
    const { audit, limiter } = this.deps;
    const org = await this.deps.organizations.resolve(body.org);
    const subject = AuthService.accountKey(org?.id ?? String(body.org).toLowerCase(), body.email);
    // The event's actor: nobody yet at sign-in; the account linking, when linking.
    const by: Record<string, number | null> = action === 'login' ? {} : { linking_user: ctx.actor?.userId ?? null };

    // A deactivated organisation: nobody signs in (its status is public, its branding says so too).
    if (org?.deactivated_at) {
      await audit.record(ctx, { action, outcome: 'denied', orgId: org.id, actorUserId: null, subject, detail: { reason: 'organization_deactivated', ...by } });
    }
    await this.deps.organizations.requireActive(org, 'errors:organizationDeactivated');

    const attempt = await limiter.take('login', subject);
    if (!attempt.allowed) {
      await audit.record(ctx, { action, outcome: 'denied', orgId: org?.id ?? null, actorUserId: null, subject, detail: { reason: 'locked', ...by } });
      throw tooManyTries(attempt.retryAfterS, 'errors:loginLocked');
    }

    const found = org ? await new UsersRepository(this.deps.db, orgScope(org.id)).findByEmail(body.email) : undefined;
    // An account without a password yet (its set-password link unused) signs in with none: the
    // same work and the same answer as an unknown address.
    const passwordOk = found?.password_hash ? await verifyPassword(found.password_hash, body.password) : await verifyAgainstNothing(body.password);
    if (!found || !passwordOk || !found.is_active) {
      await audit.record(ctx, { action, outcome: 'failure', orgId: org?.id ?? null, actorUserId: action === 'login' ? (found?.id ?? null) : null, subject, detail: { ...by } });
      throw incorrect();
    }
    await limiter.clear('login', subject);
    const { password_hash: _hash, ...user } = found;
    if (!user.email_confirmed_at) {
      await audit.record(ctx, { action, outcome: 'denied', orgId: user.org_id, actorUserId: action === 'login' ? user.id : null, subject, detail: { reason: 'email_not_confirmed', ...by } });
      throw new HttpError(403, 'errors:emailNotConfirmed');
    }
    return user;
  }

  /**
   * Opens a session for an account whose password was checked (sign-in) or that a linked
   * account switches to (connection hub): full, or limited until the second factor when the
   * account has one and the device is not known to have passed it (`secondFactorDone`). An
   * e-mailed code is sent for a limited session, as sign-in does. Answers the sign-in's answer.
   */
  async openSession(
    ctx: ServiceContext,
    user: UserView,
    opts: { userAgent?: string | undefined; secondFactorDone?: boolean; via?: string },
  ): Promise<LoginAnswer & { access_level: 'full' | 'limited'; session_id: string }> {
    const access = user.mfa_devices.length > 0 && !opts.secondFactorDone ? 'limited' : 'full';
    const session = await this.sessions.create(orgScope(user.org_id), { userId: user.id, access, ip: ctx.ip, userAgent: opts.userAgent });
    if (access === 'limited' && user.mfa_devices.some((d) => d.device_type === 'email')) {
      await this.deps.mfa.sendEmailCode(mailTarget(user, ctx.lang), { sessionId: session.id });
    }
    await this.deps.audit.record(ctx, {
      action: 'login',
      outcome: 'success',
      orgId: user.org_id,
      actorUserId: user.id,
      subject: AuthService.accountKey(user.org_id, user.email),
      detail: { access, ...(opts.via ? { via: opts.via } : {}) },
    });
    // Signing in again within a closing's grace period cancels it (with the second factor, once that is passed).
    if (access === 'full') await cancelClosingOnSignIn(this.deps, ctx, user);
    const presented: UserDto | LimitedUser = access === 'full' ? presentUser(user, ctx.lang) : presentLimitedUser(user);
    return { ...this.pair(user, session.id, access, session.refresh_jti), user: presented, access_level: access, session_id: session.id };
  }

  /**
   * The second factor of an account being signed in to without a session (linking accounts):
   * nothing to do without one; without a code, an e-mailed code is sent (bound to `bind`) and
   * a 400 under `code` asks for it; a wrong code is a 400 under `code`. Codes are counted per
   * binding before they are checked (five, then 429), as at sign-in. Answers once it is passed.
   */
  async checkSecondFactor(ctx: ServiceContext, user: UserView, bind: { linkFrom: number }, code: string | undefined, action: AuditAction = 'account_link'): Promise<void> {
    if (user.mfa_devices.length === 0) return;
    const viaEmail = user.mfa_devices.some((d) => d.device_type === 'email');
    const asked = viaEmail ? 'validation:linkCodeSent' : 'validation:linkCodeApp';
    if (!code) {
      if (viaEmail) {
        const sends = await this.deps.limiter.take('reauthCode', `link:${bind.linkFrom}:${user.id}`);
        if (!sends.allowed) throw tooManyTries(sends.retryAfterS);
        await this.deps.mfa.sendEmailCode(mailTarget(user, ctx.lang), bind);
      }
      await this.deps.audit.record(ctx, { action, outcome: 'failure', orgId: user.org_id, actorUserId: null, subject: `user:${user.id}`, detail: { reason: 'second_factor_needed' } });
      throw new FieldError({ code: [asked] });
    }
    const key = `link:${bind.linkFrom}:${user.id}`;
    const attempt = await this.deps.limiter.take('mfaSignIn', key);
    if (!attempt.allowed) {
      await this.deps.audit.record(ctx, { action, outcome: 'denied', orgId: user.org_id, actorUserId: null, subject: `user:${user.id}`, detail: { reason: 'attempts' } });
      throw tooManyTries(attempt.retryAfterS);
    }
    if (!(await this.deps.mfa.checkBoundCode(user, bind, code))) {
      await this.deps.audit.record(ctx, { action, outcome: 'failure', orgId: user.org_id, actorUserId: null, subject: `user:${user.id}`, detail: { reason: 'second_factor_wrong' } });
      throw new FieldError({ code: ['validation:codeInvalid'] });
    }
    await this.deps.limiter.clear('mfaSignIn', key);
  }

  private pair(user: { id: number; org_id: number }, sid: string, access: 'full' | 'limited', jti: string): TokenPair {
    return {
      access: this.deps.tokens.signAccess({ user_id: user.id, org: user.org_id, access, sid }),
      refresh: this.deps.tokens.signRefresh({ user_id: user.id, sid, jti }),
    };
  }

  /** Ends one session (a switch to a linked account ends the session it was asked from). */
  async endSession(sessionId: string, reason: string): Promise<void> {
    await this.sessions.revoke(sessionId, reason);
  }

  /** The organisation of an account, by id alone (for the audit trail of a switch between organisations). */
  orgOfUser(userId: number): Promise<number | undefined> {
    return findUserOrg(this.deps.db, userId);
  }

  /** Rotates the refresh token. A rotated (old) token presented again ends the whole session. */
  async refresh(ctx: ServiceContext, refreshToken: string): Promise<TokenPair> {
    const claims = this.deps.tokens.verifyRefresh(refreshToken);
    if (!claims) throw new HttpError(401, 'errors:tokenInvalid');
    const session = await this.sessions.findLive(claims.sid);
    if (!session || session.user_id !== claims.user_id || session.access !== 'full') throw new HttpError(401, 'errors:tokenInvalid');
    const next = await this.sessions.rotate(session.id, claims.jti);
    if (!next) {
      await this.sessions.revoke(session.id, 'refresh_reuse');
      await this.deps.audit.record(ctx, {
        action: 'refresh_reuse',
        outcome: 'denied',
        actorUserId: session.user_id,
        orgId: session.org_id,
        detail: { session: session.id },
      });
      throw new HttpError(401, 'errors:tokenInvalid');
    }
    return this.pair({ id: session.user_id, org_id: session.org_id }, session.id, 'full', next);
  }

  async logout(ctx: ServiceContext, refreshToken: string): Promise<void> {
    const claims = this.deps.tokens.verifyRefresh(refreshToken);
    if (!claims) throw new HttpError(401, 'errors:tokenInvalid');
    const session = await this.sessions.findLive(claims.sid);
    await this.sessions.revoke(claims.sid, 'logout');
    await this.deps.audit.record(ctx, {
      action: 'logout',
      outcome: 'success',
      actorUserId: claims.user_id,
      orgId: session?.org_id ?? null,
      detail: { session: claims.sid },
    });
  }

  /**
   * POST /verify/. In a limited session: the sign-in's second step; answers the user with a new
   * full pair (the limited pair stops working). Each code is counted before it is checked:
   * the fifth wrong one ends the pending sign-in, and parallel requests cannot get past that.
   * In a full session: confirms the device being enrolled (five tries per 15 minutes).
   */
  async verify(ctx: SignedInContext, code: string): Promise<(UserDto & Partial<TokenPair>) & { upgraded: boolean }> {
    const { actor } = ctx;
    const { mfa, audit, limiter } = this.deps;
    if (actor.access === 'limited') {
      const attempt = await limiter.take('mfaSignIn', actor.sessionId);
      if (!attempt.allowed) {
        await this.sessions.revoke(actor.sessionId, 'mfa_attempts');
        await audit.record(ctx, { action: 'mfa_verify', outcome: 'denied', detail: { reason: 'attempts' } });
        throw new HttpError(401, 'errors:mfaTooManyAttempts');
      }
      if (await mfa.checkCode(actor.user, actor.sessionId, code)) {
        const session = await this.sessions.findLive(actor.sessionId);
        const jti = session ? await this.sessions.rotate(actor.sessionId, session.refresh_jti, 'full') : null;
        if (!jti) throw new HttpError(401, 'errors:sessionEnded');
        await limiter.clear('mfaSignIn', actor.sessionId);
        await audit.record(ctx, { action: 'mfa_verify', outcome: 'success' });
        await cancelClosingOnSignIn(this.deps, ctx, actor.user);
        return { ...presentUser(actor.user, ctx.lang), ...this.pair(actor.user, actor.sessionId, 'full', jti), upgraded: true };
      }
      await audit.record(ctx, { action: 'mfa_verify', outcome: 'failure', detail: { attempts: attempt.used } });
      if (attempt.last) {
        await this.sessions.revoke(actor.sessionId, 'mfa_attempts');
        throw new HttpError(401, 'errors:mfaTooManyAttempts');
      }
      throw new HttpError(400, 'validation:codeInvalid');
    }

    const pending = await mfa.pendingDevice(actor.user);
    if (!pending) throw new HttpError(400, 'errors:mfaNoPendingDevice');
    const attempt = await limiter.take('mfaEnrol', String(actor.userId));
    if (!attempt.allowed) {
      await audit.record(ctx, { action: 'mfa_enable', outcome: 'denied', detail: { reason: 'attempts', device_type: pending.device_type } });
      throw tooManyTries(attempt.retryAfterS);
    }
    if (!(await mfa.confirmPending(actor.user, pending, code))) {
      await audit.record(ctx, { action: 'mfa_enable', outcome: 'failure', detail: { device_type: pending.device_type } });
      throw new HttpError(400, 'validation:codeInvalid');
    }
    await limiter.clear('mfaEnrol', String(actor.userId));
    await audit.record(ctx, { action: 'mfa_enable', outcome: 'success', detail: { device_type: pending.device_type } });
    const user = (await new UsersRepository(this.deps.db, orgScope(actor.orgId)).findById(actor.userId))!;
    this.notify(user, ctx, 'mfaEnabled', { device: pending.device_type });
    return { ...presentUser(user, ctx.lang), upgraded: false };
  }

  /**
   * Asks again who is at the keyboard before a sensitive change: the password, or a code from a
   * second factor the user has (an authenticator code, or an e-mailed code of this session).
   * Tries are counted first (five per 15 minutes, then 429). A wrong answer is a field error.
   */
  async confirmIdentity(
    ctx: SignedInContext,
    fields: ReauthFields,
    opts: { passwordField?: string; wrongPassword?: string } = {},
  ): Promise<void> {
    const { actor } = ctx;
    const passwordField = opts.passwordField ?? 'password';
    if (!fields.password && !fields.code) throw new FieldError({ [passwordField]: ['validation:reauthRequired'] });
    const key = String(actor.userId);
    const attempt = await this.deps.limiter.take('reauth', key);
    if (!attempt.allowed) {
      await this.deps.audit.record(ctx, { action: 'reauth', outcome: 'denied', detail: { reason: 'attempts' } });
      throw tooManyTries(attempt.retryAfterS);
    }
    const method = fields.password ? 'password' : 'code';
    let ok: boolean;
    if (fields.password) {
      const hash = await new UsersRepository(this.deps.db, orgScope(actor.orgId)).passwordHash(actor.userId);
      ok = hash ? await verifyPassword(hash, fields.password) : await verifyAgainstNothing(fields.password);
    } else {
      ok = await this.deps.mfa.checkCode(actor.user, actor.sessionId, fields.code!);
    }
    if (ok) {
      await this.deps.limiter.clear('reauth', key);
      return;
    }
    await this.deps.audit.record(ctx, { action: 'reauth', outcome: 'failure', detail: { method } });
    throw new FieldError(
      method === 'password' ? { [passwordField]: [opts.wrongPassword ?? 'validation:reauthPasswordWrong'] } : { code: ['validation:codeInvalid'] },
    );
  }

  /** E-mails a code for re-authentication, bound to this session (for users with an e-mail second factor). */
  async sendReauthCode(ctx: SignedInContext): Promise<void> {
    const { actor } = ctx;
    if (!actor.user.mfa_devices.some((d) => d.device_type === 'email')) throw new HttpError(400, 'errors:noEmailFactor');
    const attempt = await this.deps.limiter.take('reauthCode', String(actor.userId));
    if (!attempt.allowed) throw tooManyTries(attempt.retryAfterS);
    await this.deps.mfa.sendEmailCode(mailTarget(actor.user, ctx.lang), { sessionId: actor.sessionId });
    await this.deps.audit.record(ctx, { action: 'reauth_code', outcome: 'success' });
  }

  /** A notice about the account, in the user's language, sent without holding up the answer. */
  notify(user: UserView, ctx: ServiceContext, kind: 'mfaEnabled' | 'mfaRemoved', vars: { device: string }) {
    const target = mailTarget(user, ctx.lang);
    this.deps.background.send(
      renderMail(kind, target.lang, target.email, { name: target.name, orgName: target.orgName, device: translate(target.lang, `emails:devices.${vars.device}`) }),
      { user: user.id },
    );
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
  }
}

export default servicePlugin(
  'auth',
  ['db', 'auth', 'audit-service', 'mfa-service', 'limiter-service', 'mail', 'organizations-service'],
  (app) =>
    new AuthService({
      db: app.db,
      tokens: app.tokens,
      audit: app.audit,
      mfa: app.mfa,
      limiter: app.limiter,
      background: app.backgroundMail,
      organizations: app.organizations,
    }),
);
