import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { GENDER_KEYS, parseDob, type ChangePasswordBody, type Language, type UpdateUserBody } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { randomToken } from '../../lib/crypto';
import { FieldError, notFound } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { Mailer } from '../../plugins/mail';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { SessionsRepository } from '../auth/sessions.repository';
import { AVATAR_TYPES, isAcceptableDeclaredType, sniffImage } from './avatar-image';
import { AVATAR_PREFIX } from './users.presenter';
import { can, isOnBehalfOfAnother, type UserAction } from './users.policy';
import { UsersRepository, type UserProfileChanges, type UserView } from './users.repository';

export interface UsersDeps {
  db: Db;
  users: UsersRepository;
  audit: AuditLog;
  storage: Storage;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

type FieldMessages = Record<string, string[]>;

const TEXT_FIELDS = ['credential', 'address', 'city', 'state', 'phone_number'] as const;

/** Optional text: absent stays absent; empty (after the schema's trim) is cleared. */
const text = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value === '' ? null : value);


/** The user's own language for mail, else the request's. */
export function mailLanguage(user: UserView, fallback: Language): Language {
  const lang = (user.settings as { language?: unknown }).language;
  return lang === 'en' || lang === 'el' ? lang : fallback;
}

/** The profile: reading and changing user records (own or, for admins, others'), password, avatar. */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  /**
   * A user the requester may act on, or a 404 (never a 403: whether a record exists is not
   * told to those who may not see it). Admins acting on someone else's record are audited.
   */
  async findFor(request: FastifyRequest, id: number, action: UserAction): Promise<UserView> {
    const actor = request.auth!;
    if (id === actor.userId) return actor.user;
    const user = await this.deps.users.findInScope(actor.isSuperadmin ? 'all' : { orgId: actor.orgId }, id);
    if (!user) throw notFound();
    if (!can(actor, action, user)) {
      await this.deps.audit.record(request, { action: `user_${action}`, outcome: 'denied', subject: `user:${id}` });
      throw notFound();
    }
    if (action === 'read') await this.auditAccess(request, 'user_read', user);
    return user;
  }

  private async auditAccess(request: FastifyRequest, action: string, user: UserView, detail: Record<string, string> = {}) {
    if (!isOnBehalfOfAnother(request.auth!, user)) return;
    await this.deps.audit.record(request, {
      action,
      outcome: 'success',
      // The trail of the organisation whose member's data was read, whoever read it.
      orgId: user.org_id,
      subject: `user:${user.id}`,
      detail: { actor_org: request.auth!.orgId, ...detail },
    });
  }

  /** PUT /me/ and PUT /users/{id}: the fields sent, checked together; answers the user as stored. */
  async update(request: FastifyRequest, target: UserView, body: UpdateUserBody): Promise<UserView> {
    const { changes, settings, errors } = this.toChanges(target, body);
    if (Object.keys(errors).length) throw new FieldError(errors);
    await this.deps.users.update(target.org_id, target.id, changes, settings);
    const fields = [...Object.keys(changes), ...(settings ? ['settings'] : [])];
    await this.auditAccess(request, 'user_update', target, { fields: fields.sort().join(',') });
    return (await this.deps.users.findById(target.org_id, target.id))!;
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

    // The e-mail address is the sign-in identity: a client may send it back unchanged (the
    // whole record), but changing it needs a confirmed address, which this call cannot give.
    if (body.email !== undefined && body.email.trim().toLowerCase() !== current.email.toLowerCase()) {
      errors.email = ['validation:emailChangeNotAllowed'];
    }
    // has_mfa_enabled is derived from the confirmed devices: ignored when sent.

    const settings = body.settings && Object.keys(body.settings).length ? { ...body.settings } : undefined;
    return { changes, settings, errors };
  }

  /**
   * PUT /me/password/: the current password must verify. Sets the new one and ends every other
   * session of the user (this one stays signed in); tells the user by e-mail.
   */
  async changePassword(request: FastifyRequest, body: ChangePasswordBody): Promise<void> {
    const auth = request.auth!;
    const user = auth.user;
    const storedHash = await new UsersRepository(this.deps.db).passwordHash(user.org_id, user.id);
    if (!storedHash || !(await verifyPassword(storedHash, body.current_password))) {
      await this.deps.audit.record(request, { action: 'password_change', outcome: 'failure', detail: { reason: 'current_password_wrong' } });
      throw new FieldError({ current_password: ['validation:currentPasswordWrong'] });
    }
    // The current password verified, so comparing with it tells whether the new one differs.
    if (body.password === body.current_password) {
      await this.deps.audit.record(request, { action: 'password_change', outcome: 'failure', detail: { reason: 'same_password' } });
      throw new FieldError({ password: ['validation:passwordSameAsOld'] });
    }
    const hash = await hashPassword(body.password);
    await this.deps.db.transaction().execute(async (trx) => {
      await new UsersRepository(trx).setPassword(user.org_id, user.id, hash);
      await new SessionsRepository(trx).revokeAllForUser(user.id, 'password_change', auth.sessionId);
      await this.deps.audit.record(request, { action: 'password_change', outcome: 'success' }, trx);
    });
    try {
      await this.deps.mailer.send(
        renderMail('passwordChanged', mailLanguage(user, request.lang), user.email, { name: user.first_name, orgName: user.org_name }),
      );
    } catch (err) {
      // The password is changed either way; the notice failing must not tell the client otherwise.
      this.deps.log.error({ err }, 'password change notice could not be sent');
    }
  }

  /**
   * POST /users/avatar/: the bytes must be a PNG, JPEG, GIF or WebP image (checked by their
   * magic bytes). Stored under a new unguessable name; the previous file is deleted.
   */
  async setAvatar(request: FastifyRequest, data: Buffer, declaredType: string): Promise<UserView> {
    const user = request.auth!.user;
    const type = isAcceptableDeclaredType(declaredType) ? sniffImage(data) : null;
    if (!type) {
      await this.deps.audit.record(request, { action: 'avatar_upload', outcome: 'failure', detail: { reason: 'not_an_image' } });
      throw new FieldError({ file: ['validation:imageInvalid'] });
    }
    const key = `${AVATAR_PREFIX}${user.id}-${randomToken(18)}.${AVATAR_TYPES[type]}`;
    await this.deps.storage.put(key, data);
    let previous: string | null;
    try {
      previous = await this.deps.users.setAvatar(user.org_id, user.id, { key, contentType: type });
    } catch (err) {
      await this.deleteQuietly(key);
      throw err;
    }
    if (previous && previous !== key) await this.deleteQuietly(previous);
    await this.deps.audit.record(request, { action: 'avatar_upload', outcome: 'success', detail: { type, bytes: data.length } });
    return (await this.deps.users.findById(user.org_id, user.id))!;
  }

  /** DELETE /users/avatar/: back to initials. */
  async removeAvatar(request: FastifyRequest): Promise<UserView> {
    const user = request.auth!.user;
    const previous = await this.deps.users.setAvatar(user.org_id, user.id, null);
    if (previous) {
      await this.deleteQuietly(previous);
      await this.deps.audit.record(request, { action: 'avatar_remove', outcome: 'success' });
    }
    return (await this.deps.users.findById(user.org_id, user.id))!;
  }

  /** An avatar by its file name, while it is still its owner's current one. */
  async readAvatar(file: string): Promise<{ data: Buffer; contentType: string } | null> {
    const owner = Number(file.slice(0, file.indexOf('-')));
    const row = await this.deps.users.findAvatar(owner, AVATAR_PREFIX + file);
    if (!row) return null;
    const data = await this.deps.storage.get(row.avatar_key);
    return data ? { data, contentType: row.avatar_content_type ?? 'application/octet-stream' } : null;
  }

  private async deleteQuietly(key: string) {
    try {
      await this.deps.storage.delete(key);
    } catch (err) {
      this.deps.log.warn({ err, key }, 'stored avatar could not be deleted');
    }
  }
}
