import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CONFIRM_TOKEN_TTL_S, GENDER_KEYS, parseDob, type ConfirmEmailBodySchema, type Language, type RegisterBodySchema, type UserOptions } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { decodeUid, encodeUid } from '../../lib/crypto';
import { FieldError, HttpError } from '../../lib/http-errors';
import { renderMail } from '../../lib/mail-templates';
import { hashPassword } from '../../lib/passwords';
import type { AuditLog } from '../audit/audit.service';
import { InvitationsRepository, type InvitationRow } from '../invitations/invitations.repository';
import { accessCodeHash, isUniqueViolation, resolveOrg } from '../invitations/invitations.service';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import type { BackgroundMail } from '../recovery/background-mail';
import { UserTokensRepository } from '../recovery/user-tokens.repository';
import { genderOption } from '../users/users.presenter';
import { SignupRepository } from './signup.repository';

export type RegisterRequest = z.output<typeof RegisterBodySchema>;
export type ConfirmEmailRequest = z.output<typeof ConfirmEmailBodySchema>;

export interface SignupDeps {
  db: Db;
  audit: AuditLog;
  publicUrl: string;
  /** The confirmation mail leaves after the account is committed; its failure is logged, not answered. */
  background: BackgroundMail;
}

type Fields = Record<string, string[]>;
const codeInvalid = () => new FieldError({ signup_code: ['validation:accessCodeInvalid'] });
const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Sign-up with an invitation's access code, and the confirmation of the e-mail address. */
export class SignupService {
  private readonly invitations: InvitationsRepository;
  private readonly orgs: OrganizationsRepository;

  constructor(private readonly deps: SignupDeps) {
    this.invitations = new InvitationsRepository(deps.db);
    this.orgs = new OrganizationsRepository(deps.db);
  }

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
   */
  async register(request: FastifyRequest, body: RegisterRequest): Promise<void> {
    const { audit, db } = this.deps;
    const org = body.org_id === undefined ? null : await resolveOrg(this.orgs, body.org_id);
    const invitation =
      body.org_id !== undefined && !org ? undefined : await this.invitations.findPendingByCode(org?.id ?? null, accessCodeHash(body.signup_code));
    if (!invitation) {
      await audit.record(request, { action: 'invitation_use', outcome: 'failure', orgId: org?.id ?? null, detail: { reason: 'code' } });
      throw codeInvalid();
    }

    const fields = this.mismatches(invitation, body);
    if (await this.invitations.emailHasAccount(invitation.org_id, body.email)) (fields.email ??= []).push('validation:emailTaken');
    if (Object.keys(fields).length > 0) {
      await audit.record(request, {
        action: 'register',
        outcome: 'failure',
        orgId: invitation.org_id,
        detail: { invitation: invitation.id, fields: Object.keys(fields).join(',') },
      });
      throw new FieldError(fields);
    }

    const passwordHash = await hashPassword(body.password);
    const { user, token } = await db.transaction().execute(async (trx) => {
      if (!(await new InvitationsRepository(trx).claim(invitation.id))) throw codeInvalid();
      let created;
      try {
        created = await new SignupRepository(trx).createPatient({
          org_id: invitation.org_id,
          email: body.email,
          password_hash: passwordHash,
          first_name: invitation.first_name,
          last_name: invitation.last_name,
          dob: invitation.dob,
          gender: invitation.gender,
          sex: invitation.gender,
        });
      } catch (err) {
        if (isUniqueViolation(err, 'users_org_email_key')) throw new FieldError({ email: ['validation:emailTaken'] });
        throw err;
      }
      await new InvitationsRepository(trx).setUser(invitation.id, created.id);
      const confirmToken = await new UserTokensRepository(trx).issue(created.id, 'confirm_email', CONFIRM_TOKEN_TTL_S);
      const event = { orgId: created.org_id, actorUserId: created.id, subject: `${created.org_id}:${created.email}` };
      await audit.record(request, { ...event, action: 'invitation_use', outcome: 'success', detail: { invitation: invitation.id } }, trx);
      await audit.record(request, { ...event, action: 'register', outcome: 'success', detail: { invitation: invitation.id } }, trx);
      return { user: created, token: confirmToken };
    });

    const orgRow = org ?? (await this.orgs.findById(user.org_id))!;
    this.deps.background.send(
      renderMail('confirm', request.lang, user.email, {
        name: user.first_name,
        orgName: orgRow.org_name,
        link: `${this.deps.publicUrl}/${orgRow.name}/email/confirm/${encodeUid(user.id)}/${token}`,
      }),
      { user: user.id },
    );
  }

  /** Sets email_confirmed_at once; an unknown, expired or used link is a 400. */
  async confirmEmail(request: FastifyRequest, body: ConfirmEmailRequest): Promise<void> {
    const userId = decodeUid(body.uid);
    const confirmed =
      userId !== null &&
      (await this.deps.db.transaction().execute(async (trx) => {
        if (!(await new UserTokensRepository(trx).consume(userId, 'confirm_email', body.token))) return false;
        await new SignupRepository(trx).confirmEmail(userId);
        await this.deps.audit.record(request, { action: 'email_confirm', outcome: 'success', actorUserId: userId }, trx);
        return true;
      }));
    if (!confirmed) {
      await this.deps.audit.record(request, { action: 'email_confirm', outcome: 'failure', actorUserId: userId });
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
