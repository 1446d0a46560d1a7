import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import type { Mailer } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import { sendAccountSetupLink as sendSetPasswordLink } from '../recovery/account-setup';

export interface StaffSetupTarget {
  user: { id: number; org_id: number; email: string; first_name: string; settings?: unknown };
  org: { id: number; name: string; org_name: string };
}

/**
 * E-mails an invited staff member the single-use set-password link (24 hours; an earlier one
 * stops working), through the account-setup service of issue 25 §1 (modules/recovery): the one
 * way such a link is made. Awaited: the caller learns whether the mail left.
 */
export async function sendAccountSetupLink(deps: { db: Db; mailer: Mailer; audit: AuditLog; publicUrl: string }, ctx: ServiceContext, target: StaffSetupTarget): Promise<void> {
  await sendSetPasswordLink({ db: deps.db, audit: deps.audit, mailer: deps.mailer, publicUrl: deps.publicUrl }, ctx, target, { via: 'admin' });
}
