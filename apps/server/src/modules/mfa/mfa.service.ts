import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { EMAIL_CODE_TTL_S, TOTP_DIGITS, TOTP_STEP_S, type Language, type MfaDevice, type MfaDeviceType } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { randomDigits, SecretBox, sha256 } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import type { Mailer } from '../../plugins/mail';

interface CodeTarget {
  userId: number;
  email: string;
  name: string;
  orgName: string;
  lang: Language;
}

/**
 * Second factors: e-mailed six-digit codes (5 minutes, single use, bound to one sign-in or one
 * enrolment) and authenticator apps (RFC 6238: 30 s, 6 digits, one step of drift, a code is
 * refused the second time).
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

  /** E-mails a fresh code bound to a session (sign-in) or a device (enrolment); earlier ones stop working. */
  async sendEmailCode(target: CodeTarget, bind: { sessionId: string } | { deviceUuid: string }): Promise<void> {
    const code = randomDigits(6);
    await this.db.transaction().execute(async (trx) => {
      const binding = 'sessionId' in bind ? { session_id: bind.sessionId } : { device_uuid: bind.deviceUuid };
      let stale = trx.updateTable('mfa_codes').set({ used_at: sql`now()` }).where('used_at', 'is', null).where('user_id', '=', target.userId);
      stale = 'sessionId' in bind ? stale.where('session_id', '=', bind.sessionId) : stale.where('device_uuid', '=', bind.deviceUuid);
      await stale.execute();
      await trx
        .insertInto('mfa_codes')
        .values({
          user_id: target.userId,
          ...binding,
          code_hash: sha256(code),
          expires_at: new Date(Date.now() + EMAIL_CODE_TTL_S * 1000),
        })
        .execute();
    });
    await this.mailer.send(
      renderMail('mfaCode', target.lang, target.email, { name: target.name, orgName: target.orgName, code, minutes: EMAIL_CODE_TTL_S / 60 }),
    );
  }

  /** Consumes a matching, live e-mailed code for that binding; answers whether it matched. */
  async consumeEmailCode(userId: number, bind: { sessionId: string } | { deviceUuid: string }, code: string): Promise<boolean> {
    let q = this.db
      .updateTable('mfa_codes')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('code_hash', '=', sha256(code))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`);
    q = 'sessionId' in bind ? q.where('session_id', '=', bind.sessionId) : q.where('device_uuid', '=', bind.deviceUuid);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Checks an authenticator code for a device and records its time step so it cannot be used again. */
  async consumeTotp(deviceUuid: string, code: string): Promise<boolean> {
    const device = await this.db.selectFrom('mfa_devices').select(['secret_enc', 'last_used_step']).where('uuid', '=', deviceUuid).executeTakeFirst();
    if (!device?.secret_enc) return false;
    const secret = this.box.open(device.secret_enc);
    const result = await verifyTotp({
      secret,
      token: code,
      period: TOTP_STEP_S,
      digits: TOTP_DIGITS,
      epochTolerance: TOTP_STEP_S,
      ...(device.last_used_step !== null ? { afterTimeStep: Number(device.last_used_step) } : {}),
    });
    if (!result.valid) return false;
    const step = (result as { timeStep: number }).timeStep;
    // Conditional update: two requests with the same code cannot both win.
    const updated = await this.db
      .updateTable('mfa_devices')
      .set({ last_used_step: step })
      .where('uuid', '=', deviceUuid)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  /** Starts enrolling a device (unconfirmed until a code proves it). */
  async register(target: CodeTarget & { orgShort: string }, type: MfaDeviceType): Promise<MfaDevice> {
    const existing = await this.db
      .selectFrom('mfa_devices')
      .select('uuid')
      .where('user_id', '=', target.userId)
      .where('device_type', '=', type)
      .where(sql<boolean>`confirmed`)
      .executeTakeFirst();
    if (existing) throw new HttpError(400, 'errors:mfaAlreadyEnabled');
    await this.db.deleteFrom('mfa_devices').where('user_id', '=', target.userId).where(sql<boolean>`not confirmed`).execute();
    const uuid = randomUUID();
    if (type === 'email') {
      await this.db.insertInto('mfa_devices').values({ uuid, user_id: target.userId, device_type: 'email', secret_enc: null }).execute();
      await this.sendEmailCode(target, { deviceUuid: uuid });
      return { uuid, device_type: 'email', confirmed: false };
    }
    const secret = generateSecret();
    await this.db.insertInto('mfa_devices').values({ uuid, user_id: target.userId, device_type: 'google', secret_enc: this.box.seal(secret) }).execute();
    const provisioning_url = generateURI({ issuer: target.orgName, label: target.email, secret, period: TOTP_STEP_S, digits: TOTP_DIGITS });
    return { uuid, device_type: 'google', confirmed: false, provisioning_url };
  }

  /** The newest device being enrolled, if any. */
  pendingDevice(userId: number) {
    return this.db
      .selectFrom('mfa_devices')
      .select(['uuid', 'device_type'])
      .where('user_id', '=', userId)
      .where(sql<boolean>`not confirmed`)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  async confirm(uuid: string): Promise<void> {
    await this.db.updateTable('mfa_devices').set({ confirmed: true }).where('uuid', '=', uuid).execute();
    await this.db.deleteFrom('mfa_codes').where('device_uuid', '=', uuid).execute();
  }

  confirmedDevices(userId: number) {
    return this.db
      .selectFrom('mfa_devices')
      .select(['uuid', 'device_type'])
      .where('user_id', '=', userId)
      .where(sql<boolean>`confirmed`)
      .orderBy('created_at')
      .execute();
  }

  /** Removes one of the user's own devices; answers whether it existed. */
  async remove(userId: number, uuid: string): Promise<{ device_type: string; confirmed: boolean } | undefined> {
    return this.db.deleteFrom('mfa_devices').where('uuid', '=', uuid).where('user_id', '=', userId).returning(['device_type', 'confirmed']).executeTakeFirst();
  }

  /** Is this code right for any of the user's confirmed devices, at sign-in? */
  async verifySignIn(userId: number, sessionId: string, code: string): Promise<boolean> {
    const devices = await this.confirmedDevices(userId);
    for (const d of devices) {
      if (d.device_type === 'email' && (await this.consumeEmailCode(userId, { sessionId }, code))) return true;
      if (d.device_type === 'google' && (await this.consumeTotp(d.uuid, code))) return true;
    }
    return false;
  }
}

