import { INCORRECT_CREDENTIALS, LOGIN_FAILURES_MAX, LOGIN_LOCKOUT_S, MFA_MAX_ATTEMPTS, type Language, type LoginAnswer, type TokenPair, type UserDto } from '@healthbook/shared';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { AuditLog } from '../audit/audit.service';
import type { MfaService } from '../mfa/mfa.service';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { presentUser } from '../users/users.presenter';
import type { UsersRepository, UserView } from '../users/users.repository';
import { SessionsRepository } from './sessions.repository';
import type { TokenService } from './tokens';

/** Never localised: the spec's client compares this exact text to decide not to renew its token. */
const incorrect = () => new HttpError(401, INCORRECT_CREDENTIALS);

/** A hash to verify against when the account does not exist, so both cases take the same time. */
let dummyHash: Promise<string> | undefined;

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
  users: UsersRepository;
  audit: AuditLog;
  mfa: MfaService;
}

/** Sign-in, second step, token rotation and sign-out. */
export class AuthService {
  private readonly sessions: SessionsRepository;
  private readonly orgs: OrganizationsRepository;

  constructor(private readonly deps: AuthDeps) {
    this.sessions = new SessionsRepository(deps.db);
    this.orgs = new OrganizationsRepository(deps.db);
  }

  static accountKey(orgId: number | string, email: string) {
    return `${orgId}:${email.trim().toLowerCase()}`;
  }

  async resolveOrg(ref: number | string) {
    return typeof ref === 'number' || /^[0-9]+$/.test(ref) ? this.orgs.findById(Number(ref)) : this.orgs.findByName(ref);
  }

  /**
   * Email + password within one organisation. The same 401 for an unknown account, a wrong
   * password, another organisation's account or a disabled one. Five failures in 15 minutes
   * lock that account's sign-in for 15 minutes, whatever the IP.
   */
  async login(request: FastifyRequest, body: { email: string; password: string; org: number | string }): Promise<LoginAnswer> {
    const { audit, users, mfa } = this.deps;
    const org = await this.resolveOrg(body.org);
    const subject = AuthService.accountKey(org?.id ?? String(body.org).toLowerCase(), body.email);

    const failures = await audit.recentFailures('login', subject, new Date(Date.now() - LOGIN_LOCKOUT_S * 1000), LOGIN_FAILURES_MAX);
    if (failures.length >= LOGIN_FAILURES_MAX) {
      const unlockAt = failures[LOGIN_FAILURES_MAX - 1]!.getTime() + LOGIN_LOCKOUT_S * 1000;
      const seconds = Math.max(1, Math.ceil((unlockAt - Date.now()) / 1000));
      await audit.record(request, { action: 'login', outcome: 'denied', orgId: org?.id ?? null, subject, detail: { reason: 'locked' } });
      throw new HttpError(429, 'errors:loginLocked', { minutes: Math.ceil(seconds / 60) }, { 'Retry-After': String(seconds) });
    }

    const user = org ? await users.findByEmail(org.id, body.email) : undefined;
    const passwordOk = user
      ? await verifyPassword(user.password_hash, body.password)
      : (await verifyPassword(await (dummyHash ??= hashPassword('not-a-real-password#1A')), body.password), false);
    if (!user || !passwordOk || !user.is_active) {
      await audit.record(request, { action: 'login', outcome: 'failure', orgId: org?.id ?? null, actorUserId: user?.id ?? null, subject });
      throw incorrect();
    }
    if (!user.email_confirmed_at) {
      await audit.record(request, { action: 'login', outcome: 'denied', orgId: org!.id, actorUserId: user.id, subject, detail: { reason: 'email_not_confirmed' } });
      throw new HttpError(403, 'errors:emailNotConfirmed');
    }

    const access = user.mfa_devices.length > 0 ? 'limited' : 'full';
    const session = await this.sessions.create({
      userId: user.id,
      orgId: user.org_id,
      access,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    if (user.mfa_devices.some((d) => d.device_type === 'email')) {
      await mfa.sendEmailCode(this.codeTarget(user, request.lang), { sessionId: session.id });
    }
    await audit.record(request, {
      action: 'login',
      outcome: 'success',
      orgId: user.org_id,
      actorUserId: user.id,
      subject,
      detail: { access },
    });
    return { ...this.pair(user, session.id, access, session.refresh_jti), user: presentUser(user, request.lang) };
  }

  codeTarget(user: UserView, lang: Language) {
    const settingsLang = (user.settings as { language?: Language }).language;
    return { userId: user.id, email: user.email, name: user.first_name, orgName: user.org_name, lang: settingsLang ?? lang };
  }

  private pair(user: { id: number; org_id: number }, sid: string, access: 'full' | 'limited', jti: string): TokenPair {
    return {
      access: this.deps.tokens.signAccess({ user_id: user.id, org: user.org_id, access, sid }),
      refresh: this.deps.tokens.signRefresh({ user_id: user.id, sid, jti }),
    };
  }

  /** Rotates the refresh token. A rotated (old) token presented again ends the whole session. */
  async refresh(request: FastifyRequest, refreshToken: string): Promise<TokenPair> {
    const claims = this.deps.tokens.verifyRefresh(refreshToken);
    if (!claims) throw new HttpError(401, 'errors:tokenInvalid');
    const session = await this.sessions.findLive(claims.sid);
    if (!session || session.user_id !== claims.user_id || session.access !== 'full') throw new HttpError(401, 'errors:tokenInvalid');
    const next = await this.sessions.rotate(session.id, claims.jti);
    if (!next) {
      await this.sessions.revoke(session.id, 'refresh_reuse');
      await this.deps.audit.record(request, {
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

  async logout(request: FastifyRequest, refreshToken: string): Promise<void> {
    const claims = this.deps.tokens.verifyRefresh(refreshToken);
    if (!claims) throw new HttpError(401, 'errors:tokenInvalid');
    await this.sessions.revoke(claims.sid, 'logout');
    await this.deps.audit.record(request, { action: 'logout', outcome: 'success', actorUserId: claims.user_id, detail: { session: claims.sid } });
  }

  /**
   * POST /verify/. In a limited session: the sign-in's second step; answers the user with a new
   * full pair (the limited pair stops working). In a full session: confirms the device being
   * enrolled. Five wrong codes end a pending sign-in.
   */
  async verify(request: FastifyRequest, code: string): Promise<UserDto & Partial<TokenPair>> {
    const auth = request.auth!;
    const { mfa, audit } = this.deps;
    if (auth.access === 'limited') {
      if (await mfa.verifySignIn(auth.userId, auth.sessionId, code)) {
        const session = await this.sessions.findLive(auth.sessionId);
        const jti = session ? await this.sessions.rotate(auth.sessionId, session.refresh_jti, 'full') : null;
        if (!jti) throw new HttpError(401, 'errors:sessionEnded');
        await audit.record(request, { action: 'mfa_verify', outcome: 'success' });
        return { ...presentUser(auth.user, request.lang), ...this.pair(auth.user, auth.sessionId, 'full', jti) };
      }
      const attempts = await this.sessions.countMfaFailure(auth.sessionId);
      await audit.record(request, { action: 'mfa_verify', outcome: 'failure', detail: { attempts } });
      if (attempts >= MFA_MAX_ATTEMPTS) {
        await this.sessions.revoke(auth.sessionId, 'mfa_attempts');
        throw new HttpError(401, 'errors:mfaTooManyAttempts');
      }
      throw new HttpError(400, 'validation:codeInvalid');
    }

    const pending = await mfa.pendingDevice(auth.userId);
    if (!pending) throw new HttpError(400, 'errors:mfaNoPendingDevice');
    const ok =
      pending.device_type === 'email'
        ? await mfa.consumeEmailCode(auth.userId, { deviceUuid: pending.uuid }, code)
        : await mfa.consumeTotp(pending.uuid, code);
    if (!ok) {
      await audit.record(request, { action: 'mfa_enable', outcome: 'failure', detail: { device_type: pending.device_type } });
      throw new HttpError(400, 'validation:codeInvalid');
    }
    await mfa.confirm(pending.uuid);
    await audit.record(request, { action: 'mfa_enable', outcome: 'success', detail: { device_type: pending.device_type } });
    const user = await this.deps.users.findById(auth.orgId, auth.userId);
    return presentUser(user!, request.lang);
  }
}
