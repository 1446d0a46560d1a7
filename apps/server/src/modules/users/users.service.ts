import type { AuditAction } from '@healthbook/shared';
import {
  GENDER_KEYS,
  RESET_TOKEN_TTL_S,
  parseDob,
  type ChangePasswordBody,
  type UpdateUserBody,
} from '@healthbook/shared';
import type { z } from 'zod';
import type { ChangeEmailBodySchema } from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { decodeUid, encodeUid, randomToken } from '../../lib/crypto';
import { stripMetadata } from '../../lib/files/strip-metadata';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import { hashPassword } from '../../lib/passwords';
import type { BackgroundMail } from '../../plugins/mail';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { SessionsRepository } from '../auth/sessions.repository';
import { endLinksOf } from '../connection-hub/link-ends';
import { isUniqueViolation } from '../../db/errors';
import type { AuthService } from '../auth/auth.service';
import type { AttemptLimiter } from '../limits/limits.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { UserTokensRepository } from '../recovery/user-tokens.repository';
import { AVATAR_TYPES, isAcceptableDeclaredType, sniffImage } from './avatar-image';
import { AVATAR_PREFIX, mailTarget } from './users.presenter';
import { can, isAdministrator, isOnBehalfOfAnother, type UserAction } from './users.policy';
import { findAvatarByKey, findUserOrg, UsersRepository, type UserProfileChanges, type UserView } from './users.repository';
import { servicePlugin } from '../../lib/service-plugin';

export interface UsersDeps {
  db: Db;
  audit: AuditLog;
  auth: AuthService;
  limiter: AttemptLimiter;
  storage: Storage;
  background: BackgroundMail;
  publicUrl: string;
  organizations: OrganizationsService;
}

type FieldMessages = Record<string, string[]>;
type ChangeEmailRequest = z.output<typeof ChangeEmailBodySchema>;

const TEXT_FIELDS = ['credential', 'address', 'city', 'state', 'phone_number'] as const;

/** Optional text: absent stays absent; empty (after the schema's cleaning) is cleared. */
const text = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value === '' ? null : value);

/** The profile: reading and changing user records (own or, for admins, others'), password, e-mail address, avatar. */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  private repo(orgId: number, db: Db = this.deps.db) {
    return new UsersRepository(db, orgScope(orgId));
  }

  /**
   * A user the actor may act on, or a 404 (never a 403: whether a record exists is not told to
   * those who may not see it). Every refusal, within the organisation or across organisations,
   * is audited; so is every access to someone else's record.
   */
  async findFor(ctx: SignedInContext, id: number, action: UserAction): Promise<UserView> {
    const { actor } = ctx;
    if (id === actor.userId) return actor.user;
    const deny = async (reason: string) => {
      await this.deps.audit.record(ctx, { action: `user_${action}`, outcome: 'denied', subject: `user:${id}`, detail: { reason } });
      return notFound();
    };
    if (!isAdministrator(actor)) throw await deny('not_admin');
    // A super admin's scope is every organisation: find the user's first, then read within it.
    const orgId = actor.isSuperadmin ? await findUserOrg(this.deps.db, id) : actor.orgId;
    const user = orgId === undefined ? undefined : await this.repo(orgId).findById(id);
    if (!user) throw await deny(actor.isSuperadmin ? 'unknown' : 'unknown_or_other_org');
    if (!can(actor, action, user)) throw await deny('policy');
    if (action === 'read') await this.auditAccess(ctx, 'user_read', user);
    return user;
  }

  private async auditAccess(ctx: SignedInContext, action: AuditAction, user: UserView, detail: Record<string, string> = {}) {
    if (!isOnBehalfOfAnother(ctx.actor, user)) return;
    await this.deps.audit.record(ctx, {
      action,
      outcome: 'success',
      // The trail of the organisation whose member's data was read, whoever read it.
      orgId: user.org_id,
      subject: `user:${user.id}`,
      detail: { actor_org: ctx.actor.orgId, ...detail },
    });
  }

  /** PUT /me/ and PUT /users/{id}: the fields sent, checked together; answers the user as stored. */
  async update(ctx: SignedInContext, target: UserView, body: UpdateUserBody): Promise<UserView> {
    const { changes, settings, errors } = this.toChanges(target, body);
    if (Object.keys(errors).length) throw new FieldError(errors);
    const repo = this.repo(target.org_id);
    await repo.update(target.id, changes, settings);
    const fields = [...Object.keys(changes), ...(settings ? ['settings'] : [])];
    await this.auditAccess(ctx, 'user_update', target, { fields: fields.sort().join(',') });
    return (await repo.findById(target.id))!;
  }

  private toChanges(current: UserView, body: UpdateUserBody) {
    const errors: FieldMessages = {};
    const changes: UserProfileChanges = {};

    if (body.first_name !== undefined) changes.first_name = body.first_name;
    if (body.last_name !== undefined) changes.last_name = body.last_name;
    for (const field of TEXT_FIELDS) {
      const value = text(body[field]);
      if (value !== undefined) changes[field] = value;
    }
    const zip = text(body.zip !== undefined ? body.zip : body.zip_code);
    if (zip !== undefined) changes.zip_code = zip;
    if (body.imperial_units !== undefined) changes.imperial_units = body.imperial_units;

    for (const field of ['gender', 'sex'] as const) {
      const value = body[field];
      if (value === undefined) continue;
      const key = value === null ? null : typeof value === 'string' ? value : value.key;
      if (key !== null && !(GENDER_KEYS as readonly string[]).includes(key)) errors[field] = ['validation:genderInvalid'];
      else changes[field] = key;
    }

    if (body.dob !== undefined) {
      const raw = body.dob?.trim() ?? '';
      if (!raw) changes.dob = null;
      else {
        const dob = parseDob(raw);
        if (!dob) errors.dob = ['validation:dobFormat'];
        else if (dob > new Date().toISOString().slice(0, 10)) errors.dob = ['validation:dobFuture'];
        else changes.dob = dob;
      }
    }

    // The e-mail address is the sign-in identity: a client may send it back unchanged (the whole
    // record), but a change goes through POST /api/v1/me/email/ (password, and a link to the new address).
    if (body.email !== undefined && body.email.trim().toLowerCase() !== current.email.toLowerCase()) {
      errors.email = ['validation:emailChangeNotAllowed'];
    }
    // has_mfa_enabled is derived from the confirmed devices: ignored when sent.

    const settings = body.settings && Object.keys(body.settings).length ? { ...body.settings } : undefined;
    return { changes, settings, errors };
  }

  /**
   * PUT /me/password/: the current password must verify (counted with the other
   * re-authentications: five wrong in 15 minutes, then 429). Sets the new one and ends every
   * other session of the user (this one stays signed in); tells the user by e-mail.
   */
  async changePassword(ctx: SignedInContext, body: ChangePasswordBody): Promise<void> {
    const { actor } = ctx;
    const user = actor.user;
    try {
      await this.deps.auth.confirmIdentity(
        ctx,
        { password: body.current_password },
        { passwordField: 'current_password', wrongPassword: 'validation:currentPasswordWrong' },
      );
    } catch (err) {
      if (err instanceof FieldError) await this.deps.audit.record(ctx, { action: 'password_change', outcome: 'failure', detail: { reason: 'current_password_wrong' } });
      throw err;
    }
    // The current password verified, so comparing with it tells whether the new one differs.
    if (body.password === body.current_password) {
      await this.deps.audit.record(ctx, { action: 'password_change', outcome: 'failure', detail: { reason: 'same_password' } });
      throw new FieldError({ password: ['validation:passwordSameAsOld'] });
    }
    const hash = await hashPassword(body.password);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.repo(user.org_id, trx).setPassword(user.id, hash);
      await new SessionsRepository(trx).revokeAllForUser(orgScope(user.org_id), user.id, 'password_change', actor.sessionId);
      await this.deps.audit.record(ctx, { action: 'password_change', outcome: 'success' }, trx);
    });
    // A link to another account lives only as long as the password that made it.
    await endLinksOf({ db: this.deps.db, audit: this.deps.audit, mail: this.deps.background }, ctx, { userId: user.id, orgId: user.org_id }, 'password_changed');
    const target = mailTarget(user, ctx.lang);
    this.deps.background.send(renderMail('passwordChanged', target.lang, target.email, { name: target.name, orgName: target.orgName }), { user: user.id });
  }

  /**
   * POST /me/email/: after the password (or a code), a link valid for 60 minutes goes to the new
   * address; the address changes when it is opened. The answer is the same whether or not the
   * new address already has an account (then the mail says so instead): nothing is revealed.
   */
  async requestEmailChange(ctx: SignedInContext, body: ChangeEmailRequest): Promise<void> {
    const { actor } = ctx;
    const user = actor.user;
    await this.deps.auth.confirmIdentity(ctx, body);
    const attempt = await this.deps.limiter.take('emailChange', String(user.id));
    if (!attempt.allowed) {
      await this.deps.audit.record(ctx, { action: 'email_change_request', outcome: 'denied', detail: { reason: 'attempts' } });
      return;
    }
    if (body.email === user.email.toLowerCase()) return;
    const org = (await this.deps.organizations.findById(user.org_id))!;
    const lang = mailTarget(user, ctx.lang).lang;
    const vars = { name: user.first_name, orgName: user.org_name };
    if (await this.repo(user.org_id).emailTaken(body.email)) {
      await this.deps.audit.record(ctx, { action: 'email_change_request', outcome: 'failure', detail: { reason: 'taken' } });
      this.deps.background.send(
        renderMail('emailChangeTaken', lang, body.email, { ...vars, name: body.email, link: `${this.deps.publicUrl}/${org.name}/forgotpassword` }),
        { user: user.id },
      );
      return;
    }
    const token = await new UserTokensRepository(this.deps.db).issue(orgScope(user.org_id), user.id, 'change_email', RESET_TOKEN_TTL_S, {
      replace: true,
      newEmail: body.email,
    });
    await this.deps.audit.record(ctx, { action: 'email_change_request', outcome: 'success' });
    this.deps.background.send(
      renderMail('emailChangeConfirm', lang, body.email, { ...vars, link: `${this.deps.publicUrl}/${org.name}/email/change/${encodeUid(user.id)}/${token}` }),
      { user: user.id },
    );
  }

  /**
   * POST /users/confirm_email_change/ (the link's uid and token; no sign-in needed: the link is
   * the proof). Sets the new address; a notice goes to the old one. Answers the new address.
   */
  async confirmEmailChange(ctx: ServiceContext, body: { uid: string; token: string }): Promise<string> {
    const userId = decodeUid(body.uid);
    const invalid = () => new HttpError(400, 'errors:emailChangeLinkInvalid');
    const result =
      userId === null
        ? null
        : await this.deps.db.transaction().execute(async (trx) => {
            const holder = await new UserTokensRepository(trx).consume(userId, 'change_email', body.token);
            if (!holder?.new_email) return null;
            const repo = this.repo(holder.org_id, trx);
            const before = await repo.findById(userId);
            if (!before || !before.is_active) return null;
            try {
              await repo.setEmail(userId, holder.new_email);
            } catch (err) {
              if (isUniqueViolation(err, 'users_org_email_key')) return null;
              throw err;
            }
            await this.deps.audit.record(ctx, { action: 'email_change', outcome: 'success', actorUserId: userId, orgId: holder.org_id }, trx);
            return { before, email: holder.new_email };
          });
    if (!result) {
      await this.deps.audit.record(ctx, { action: 'email_change', outcome: 'failure', actorUserId: userId });
      throw invalid();
    }
    const target = mailTarget(result.before, ctx.lang);
    this.deps.background.send(
      renderMail('emailChanged', target.lang, target.email, { name: target.name, orgName: target.orgName, newEmail: result.email }),
      { user: result.before.id },
    );
    return result.email;
  }

  /**
   * POST /users/avatar/: the bytes must be a PNG, JPEG, GIF or WebP image (checked by their
   * magic bytes). Its metadata (Exif with GPS, camera, XMP, IPTC, comments) is stripped as a
   * document's is: an avatar is served without sign-in. Stored under a new unguessable name;
   * the previous file is deleted.
   */
  async setAvatar(ctx: SignedInContext, data: Buffer, declaredType: string): Promise<UserView> {
    const user = ctx.actor.user;
    const type = isAcceptableDeclaredType(declaredType) ? sniffImage(data) : null;
    if (!type) {
      await this.deps.audit.record(ctx, { action: 'avatar_upload', outcome: 'failure', detail: { reason: 'not_an_image' } });
      throw new FieldError({ file: ['validation:imageInvalid'] });
    }
    const clean = stripMetadata(data, type);
    const key = `${AVATAR_PREFIX}${user.id}-${randomToken(18)}.${AVATAR_TYPES[type]}`;
    await this.deps.storage.put(key, clean);
    const repo = this.repo(user.org_id);
    let previous: string | null;
    try {
      previous = await repo.setAvatar(user.id, { key, contentType: type });
    } catch (err) {
      await this.deleteQuietly(ctx, key);
      throw err;
    }
    if (previous && previous !== key) await this.deleteQuietly(ctx, previous);
    await this.deps.audit.record(ctx, { action: 'avatar_upload', outcome: 'success', detail: { type, bytes: clean.length } });
    return (await repo.findById(user.id))!;
  }

  /** DELETE /users/avatar/: back to initials. */
  async removeAvatar(ctx: SignedInContext): Promise<UserView> {
    const user = ctx.actor.user;
    const repo = this.repo(user.org_id);
    const previous = await repo.setAvatar(user.id, null);
    if (previous) {
      await this.deleteQuietly(ctx, previous);
      await this.deps.audit.record(ctx, { action: 'avatar_remove', outcome: 'success' });
    }
    return (await repo.findById(user.id))!;
  }

  /**
   * An avatar by its file name, while it is still its owner's current one. Stripped again on the
   * way out: avatars stored before uploads were stripped must not carry their metadata either
   * (for a clean file this copies bytes, nothing more).
   */
  async readAvatar(file: string): Promise<{ data: Buffer; contentType: string } | null> {
    const owner = Number(file.slice(0, file.indexOf('-')));
    const row = await findAvatarByKey(this.deps.db, owner, AVATAR_PREFIX + file);
    if (!row) return null;
    const data = await this.deps.storage.get(row.avatar_key);
    if (!data) return null;
    const type = sniffImage(data);
    return { data: type ? stripMetadata(data, type) : data, contentType: row.avatar_content_type ?? 'application/octet-stream' };
  }

  private async deleteQuietly(ctx: ServiceContext, key: string) {
    try {
      await this.deps.storage.delete(key);
    } catch (err) {
      ctx.log.warn({ err, key }, 'stored avatar could not be deleted');
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    users: UsersService;
  }
}

export default servicePlugin<'users', { publicUrl: string }>(
  'users',
  ['db', 'audit-service', 'auth-service', 'limiter-service', 'storage', 'mail', 'organizations-service'],
  (app, opts) =>
    new UsersService({
      db: app.db,
      audit: app.audit,
      auth: app.auth,
      limiter: app.limiter,
      storage: app.storage,
      background: app.backgroundMail,
      publicUrl: opts.publicUrl,
      organizations: app.organizations,
    }),
);
