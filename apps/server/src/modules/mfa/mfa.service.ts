import { randomUUID } from 'node:crypto';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { EMAIL_CODE_TTL_S, TOTP_DIGITS, TOTP_STEP_S, type Language, type MfaDevice, type MfaDeviceType } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { randomDigits, SecretBox, sha256 } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import type { Mailer } from '../../plugins/mail';
import { MfaRepository, type Binding } from './mfa.repository';
import { servicePlugin } from '../../lib/service-plugin';

/** The person a code or notice goes to. */
export interface CodeTarget {
  userId: number;
  orgId: number;
  email: string;
  name: string;
  orgName: string;
  lang: Language;
  /** Their time zone (IANA): times in their mail are written in it. */
  timeZone: string;
}

/** A user as far as second factors care: who, and in which organisation. */
export interface MfaSubject {
  id: number;
  org_id: number;
}

/**
 * Second factors: e-mailed six-digit codes (5 minutes, single use, bound to one sign-in or one
 * enrolment) and authenticator apps (RFC 6238: 30 s, 6 digits, one step of drift, a code is
 * refused the second time). Authenticator secrets are sealed with AES-256-GCM.
 */
export class MfaService {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    secret: string,
  ) {
    this.box = new SecretBox(secret, 'mfa-secrets');
  }

  private repo(orgId: number, db: Db = this.db) {
    return new MfaRepository(db, orgScope(orgId));
  }

  /** E-mails a fresh code bound to a session (sign-in, re-authentication) or a device (enrolment); earlier ones stop working. */
  async sendEmailCode(target: CodeTarget, bind: Binding): Promise<void> {
    const code = randomDigits(6);
    await this.db.transaction().execute((trx) =>
      this.repo(target.orgId, trx).replaceCode(target.userId, bind, sha256(code), new Date(Date.now() + EMAIL_CODE_TTL_S * 1000)),
    );
    await this.mailer.send(
      renderMail('mfaCode', target.lang, target.email, { name: target.name, orgName: target.orgName, code, minutes: EMAIL_CODE_TTL_S / 60 }),
    );
  }

  /** Consumes a matching, live e-mailed code for that binding; answers whether it matched. */
  consumeEmailCode(user: MfaSubject, bind: Binding, code: string): Promise<boolean> {
    return this.repo(user.org_id).consumeCode(user.id, bind, sha256(code));
  }

  /** Checks an authenticator code for a device and records its time step so it cannot be used again. */
  async consumeTotp(user: MfaSubject, deviceUuid: string, code: string): Promise<boolean> {
    const repo = this.repo(user.org_id);
    const device = await repo.findSecret(user.id, deviceUuid);
    if (!device?.secret_enc) return false;
    const result = await verifyTotp({
      secret: this.box.open(device.secret_enc),
      token: code,
      period: TOTP_STEP_S,
      digits: TOTP_DIGITS,
      epochTolerance: TOTP_STEP_S,
      ...(device.last_used_step !== null ? { afterTimeStep: Number(device.last_used_step) } : {}),
    });
    if (!result.valid) return false;
    return repo.useStep(deviceUuid, (result as { timeStep: number }).timeStep);
  }

  /**
   * Is this code right for one of the user's confirmed devices? E-mailed codes must be bound to
   * `sessionId` (the sign-in, or a re-authentication code of this session).
   */
  async checkCode(user: MfaSubject, sessionId: string, code: string): Promise<boolean> {
    return this.checkBoundCode(user, { sessionId }, code);
  }

  /** As checkCode, with the e-mailed code bound to any binding (linking this account from another one: `{ linkFrom }`). */
  async checkBoundCode(user: MfaSubject, bind: Binding, code: string): Promise<boolean> {
    for (const d of await this.repo(user.org_id).confirmed(user.id)) {
      if (d.device_type === 'email' && (await this.consumeEmailCode(user, bind, code))) return true;
      if (d.device_type === 'google' && (await this.consumeTotp(user, d.uuid, code))) return true;
    }
    return false;
  }

  /** Starts enrolling a device (unconfirmed until a code proves it). One of each type at most. */
  async register(target: CodeTarget, type: MfaDeviceType): Promise<MfaDevice> {
    const repo = this.repo(target.orgId);
    if (await repo.hasConfirmed(target.userId, type)) throw new HttpError(400, 'errors:mfaAlreadyEnabled');
    const uuid = randomUUID();
    if (type === 'email') {
      await repo.insertPending(target.userId, uuid, 'email', null);
      await this.sendEmailCode(target, { deviceUuid: uuid });
      return { uuid, device_type: 'email', confirmed: false };
    }
    const secret = generateSecret();
    await repo.insertPending(target.userId, uuid, 'google', this.box.seal(secret));
    const provisioning_url = generateURI({ issuer: target.orgName, label: target.email, secret, period: TOTP_STEP_S, digits: TOTP_DIGITS });
    return { uuid, device_type: 'google', confirmed: false, provisioning_url };
  }

  /** The newest device being enrolled, if any. */
  pendingDevice(user: MfaSubject) {
    return this.repo(user.org_id).pending(user.id);
  }

  /** A device being enrolled, confirmed by a right code (e-mailed for that device, or from the authenticator). */
  async confirmPending(user: MfaSubject, pending: { uuid: string; device_type: MfaDeviceType }, code: string): Promise<boolean> {
    const ok =
      pending.device_type === 'email'
        ? await this.consumeEmailCode(user, { deviceUuid: pending.uuid }, code)
        : await this.consumeTotp(user, pending.uuid, code);
    if (ok) await this.repo(user.org_id).confirm(user.id, pending.uuid);
    return ok;
  }

  findDevice(user: MfaSubject, uuid: string) {
    return this.repo(user.org_id).find(user.id, uuid);
  }

  confirmedDevices(user: MfaSubject) {
    return this.repo(user.org_id).confirmed(user.id);
  }

  /** Removes one of the user's own devices; answers what it was, or undefined. */
  remove(user: MfaSubject, uuid: string) {
    return this.repo(user.org_id).remove(user.id, uuid);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    mfa: MfaService;
  }
}

export default servicePlugin<'mfa', { jwtSecret: string }>('mfa', ['db', 'mail'], (app, opts) => new MfaService(app.db, app.mailer, opts.jwtSecret));
