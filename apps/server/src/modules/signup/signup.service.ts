import type { z } from 'zod';
import { CONFIRM_TOKEN_TTL_S, GENDER_KEYS, parseDob, type ConfirmEmailBodySchema, type Language, type RegisterBodySchema, type UserOptions } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { orgScope } from '../../db/scope';
import { decodeUid, encodeUid } from '../../lib/crypto';
import { FieldError, HttpError } from '../../lib/http-errors';
import { recipientLanguage, renderMail } from '../../lib/mail-templates';
import { hashPassword } from '../../lib/passwords';
import type { BackgroundMail } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import { attachAccount } from '../family-members/family-members.repository';
import { InvitationsRepository, type InvitationRow } from '../invitations/invitations.repository';
import type { InvitationsService } from '../invitations/invitations.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { UserTokensRepository } from '../recovery/user-tokens.repository';
import { genderOption } from '../users/users.presenter';
import { UsersRepository } from '../users/users.repository';
import { servicePlugin } from '../../lib/service-plugin';

export type RegisterRequest = z.output<typeof RegisterBodySchema>;
export type ConfirmEmailRequest = z.output<typeof ConfirmEmailBodySchema>;

export interface SignupDeps {
  db: Db;
  audit: AuditLog;
  invitations: InvitationsService;
  publicUrl: string;
  /** Mail leaves after the answer is decided; its failure is logged, not answered. */
  background: BackgroundMail;
  organizations: OrganizationsService;
}

type Fields = Record<string, string[]>;
const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Sign-up with an invitation's access code, and the confirmation of the e-mail address. */
export class SignupService {
  constructor(private readonly deps: SignupDeps) {}

  /** The gender and sex choices in the reader's language. */
  options(lang: Language): UserOptions {
    const choices = GENDER_KEYS.map((key) => genderOption(key, lang)!);
    return { gender: choices, sex: choices };
  }

  /**
   * Creates a patient account from a pending invitation (the code, in the organisation named or
   * the invitation's own). Names, date of birth and sex come from the invitation; when sent
   * they must match it. In one transaction: the invitation is claimed (a concurrent
   * registration with the same code loses and gets the invalid-code answer), the account is
   * created and a confirmation token issued. Nothing is created when anything fails.
   *
   * Whether the e-mail address already has an account is never told: then nothing is created,
   * the invitation stays usable, the answer is the same, and the address's owner gets a mail
   * saying so. The password is hashed either way, so timing tells nothing either.
   */
  async register(ctx: ServiceContext, body: RegisterRequest): Promise<void> {
    const { audit, db } = this.deps;
    const invitation = await this.deps.invitations.findByCode(ctx, body.org_id, body.signup_code, 'invitation_use');

    const fields = this.mismatches(invitation, body);
    if (Object.keys(fields).length > 0) {
      await audit.record(ctx, {
        action: 'register',
        outcome: 'failure',
        orgId: invitation.org_id,
        detail: { invitation: invitation.id, fields: Object.keys(fields).join(',') },
      });
      throw new FieldError(fields);
    }

    const scope = orgScope(invitation.org_id);
    const passwordHash = await hashPassword(body.password);
    const org = (await this.deps.organizations.findById(invitation.org_id))!;
    const taken = async () => {
      await audit.record(ctx, { action: 'register', outcome: 'failure', orgId: invitation.org_id, detail: { invitation: invitation.id, reason: 'email_taken' } });
      this.deps.background.send(
        renderMail('signupExisting', ctx.lang, body.email, { name: body.email, orgName: org.org_name, link: `${this.deps.publicUrl}/${org.name}/forgotpassword` }),
        { invitation: invitation.id },
      );
    };
    if (await new UsersRepository(db, scope).emailTaken(body.email)) return taken();

    const created = await db.transaction().execute(async (trx) => {
      if (!(await new InvitationsRepository(trx, scope).claim(invitation.id))) throw new FieldError({ signup_code: ['validation:accessCodeInvalid'] });
      let user;
      try {
        user = await new UsersRepository(trx, scope).createPatient({
          email: body.email,
          password_hash: passwordHash,
          first_name: invitation.first_name,
          last_name: invitation.last_name,
          dob: invitation.dob,
          gender: invitation.gender,
          sex: invitation.gender,
        });
      } catch (err) {
        // Taken by a registration that committed meanwhile: roll back (the invitation stays pending).
        if (isUniqueViolation(err, 'users_org_email_key')) return null;
        throw err;
      }
      // A family member's invitation: the account becomes that (existing) patient, not a fresh one.
      const family = invitation.patient_id === null ? null : await attachAccount(trx, scope, invitation.patient_id, user.id);
      if (family === false) throw new FieldError({ signup_code: ['validation:accessCodeInvalid'] });
      await new InvitationsRepository(trx, scope).setUser(invitation.id, user.id);
      const token = await new UserTokensRepository(trx).issue(scope, user.id, 'confirm_email', CONFIRM_TOKEN_TTL_S);
      const event = { orgId: user.org_id, actorUserId: user.id, subject: `${user.org_id}:${user.email}` };
      await audit.record(ctx, { ...event, action: 'invitation_use', outcome: 'success', detail: { invitation: invitation.id } }, trx);
      await audit.record(ctx, { ...event, action: 'register', outcome: 'success', detail: { invitation: invitation.id } }, trx);
      if (family) await audit.record(ctx, { ...event, action: 'family_member_account', outcome: 'success', subject: `patient:${invitation.patient_id}`, detail: { invitation: invitation.id } }, trx);
      return { user, token, family };
    });
    if (!created) return taken();

    this.deps.background.send(
      renderMail('confirm', ctx.lang, created.user.email, {
        name: created.user.first_name,
        orgName: org.org_name,
        link: `${this.deps.publicUrl}/${org.name}/email/confirm/${encodeUid(created.user.id)}/${created.token}`,
      }),
      { user: created.user.id },
    );
    for (const manager of created.family ? created.family.managers : []) {
      this.deps.background.send(
        renderMail('familyMemberJoined', recipientLanguage(manager.settings, ctx.lang), manager.email, {
          name: manager.first_name,
          member: `${invitation.first_name} ${invitation.last_name}`,
          orgName: org.org_name,
        }),
        { user: created.user.id },
      );
    }
  }

  /** Sets email_confirmed_at once; an unknown, expired or used link is a 400. */
  async confirmEmail(ctx: ServiceContext, body: ConfirmEmailRequest): Promise<void> {
    const userId = decodeUid(body.uid);
    const confirmed =
      userId !== null &&
      (await this.deps.db.transaction().execute(async (trx) => {
        const holder = await new UserTokensRepository(trx).consume(userId, 'confirm_email', body.token);
        if (!holder) return false;
        await new UsersRepository(trx, orgScope(holder.org_id)).confirmEmail(userId);
        await this.deps.audit.record(ctx, { action: 'email_confirm', outcome: 'success', actorUserId: userId, orgId: holder.org_id }, trx);
        return true;
      }));
    if (!confirmed) {
      await this.deps.audit.record(ctx, { action: 'email_confirm', outcome: 'failure', actorUserId: userId });
      throw new HttpError(400, 'errors:confirmLinkInvalid');
    }
  }

  /** What the form sent that differs from the invitation (each only when sent). */
  private mismatches(invitation: InvitationRow, body: RegisterRequest): Fields {
    const fields: Fields = {};
    const add = (field: string, key: string) => (fields[field] ??= []).push(key);
    if (body.first_name && !sameText(body.first_name, invitation.first_name)) add('first_name', 'validation:invitationMismatch');
    if (body.last_name && !sameText(body.last_name, invitation.last_name)) add('last_name', 'validation:invitationMismatch');
    if (body.dob) {
      const dob = parseDob(body.dob);
      if (!dob) add('dob', 'validation:dobFormat');
      else if (dob !== invitation.dob) add('dob', 'validation:invitationMismatch');
    }
    if (body.sex) {
      const key = typeof body.sex === 'string' ? body.sex : body.sex.key;
      if (!sameText(key, invitation.gender)) add('sex', 'validation:invitationMismatch');
    }
    return fields;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    signup: SignupService;
  }
}

export default servicePlugin<'signup', { publicUrl: string }>(
  'signup',
  ['db', 'audit-service', 'invitations-service', 'mail', 'organizations-service'],
  (app, opts) =>
    new SignupService({
      db: app.db,
      audit: app.audit,
      invitations: app.invitations,
      publicUrl: opts.publicUrl,
      background: app.backgroundMail,
      organizations: app.organizations,
    }),
);
