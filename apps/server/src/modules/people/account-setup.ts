import type { Language } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { encodeUid } from '../../lib/crypto';
import { renderMail, type MailVars } from '../../lib/mail-templates';
import type { Mailer } from '../../plugins/mail';
import { UserTokensRepository } from '../recovery/user-tokens.repository';

/** How long an account-setup link works. */
export const ACCOUNT_SETUP_TTL_S = 24 * 60 * 60;

export interface AccountSetupTarget {
  user: { id: number; email: string; first_name: string };
  org: { id: number; name: string; org_name: string };
  lang: Language;
  /** More words of the mail (the role the account was made for). */
  vars: Omit<MailVars, 'orgName' | 'name' | 'link'>;
}

/**
 * E-mails a single-use link with which a person given an account by someone else (invited
 * staff) chooses their password; earlier links of the account stop working. Setting the password
 * also confirms the address.
 *
 * Today the link is the password-reset link (modules/recovery: a 256-bit token, only its hash
 * kept, used up atomically), valid for 24 hours and opening the product's set-password page.
 * The one place to change when the set-password link service of issue 25 §1 lands: call it here.
 */
export async function sendAccountSetupLink(deps: { db: Db; mailer: Mailer; publicUrl: string }, target: AccountSetupTarget): Promise<void> {
  const token = await new UserTokensRepository(deps.db).issue(orgScope(target.org.id), target.user.id, 'reset_password', ACCOUNT_SETUP_TTL_S, { replace: true });
  const link = `${deps.publicUrl}/${target.org.name}/password/reset/${encodeUid(target.user.id)}/${token}`;
  await deps.mailer.send(renderMail('staffInvitation', target.lang, target.user.email, { ...target.vars, name: target.user.first_name, orgName: target.org.org_name, link }));
}
