import { translate } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import { recipientLanguage, renderMail } from '../../lib/mail-templates';
import type { BackgroundMail } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import { AccountLinksRepository, type AccountScope } from './connection-hub.repository';

/** What ends an account's links: the credentials that made them are no longer what they were. */
export type LinkEndReason = 'password_changed' | 'password_reset' | 'mfa_removed' | 'deactivated' | 'closed';

/**
 * A link between two accounts lives only as long as the credentials that made it: linking
 * proved the other account's password (and second factor). When either account's password is
 * changed or reset, a second factor is removed, or the account is deactivated, every link of
 * that account ends, for both sides at once (gone from both lists; pending switch tokens with
 * them), the devices remembered as having passed its second factor are forgotten, and both
 * accounts are told by e-mail, each in its own language. Audited in both organisations.
 *
 * Called where those events happen, after they are committed (users: password change; recovery:
 * reset; mfa: removal of a confirmed device; deactivation). Answers how many links ended.
 */
export async function endLinksOf(
  deps: { db: Db; audit: AuditLog; mail: BackgroundMail },
  ctx: ServiceContext,
  account: AccountScope,
  reason: LinkEndReason,
): Promise<number> {
  const repo = new AccountLinksRepository(deps.db, account);
  const removed = await repo.removeAll();
  await repo.forgetDevices();
  if (removed.length === 0) return 0;

  const others = removed.map((l) => (l.user_a === account.userId && l.org_a === account.orgId ? { userId: l.user_b, orgId: l.org_b, link: l.id } : { userId: l.user_a, orgId: l.org_a, link: l.id }));
  const contacts = await repo.contacts([account, ...others]);
  const contactOf = (a: AccountScope) => contacts.find((c) => c.id === a.userId && c.org_id === a.orgId);
  const changed = contactOf(account);

  for (const other of others) {
    await deps.audit.record(ctx, { action: 'account_unlink', outcome: 'success', orgId: account.orgId, actorUserId: account.userId, subject: `user:${other.userId}`, detail: { link: other.link, reason, side: 'from' } });
    await deps.audit.record(ctx, { action: 'account_unlink', outcome: 'success', orgId: other.orgId, actorUserId: other.userId, subject: `user:${account.userId}`, detail: { link: other.link, reason, side: 'to' } });
    const there = contactOf(other);
    if (!changed || !there) continue;
    for (const [to, from] of [
      [changed, there],
      [there, changed],
    ] as const) {
      if (!to.email) continue;
      const lang = recipientLanguage(to.settings, ctx.lang);
      const why = translate(lang, `emails:accountLinkEnded.reasons.${reason}`, { where: changed.org_name });
      deps.mail.send(
        renderMail('accountLinkEnded', lang, to.email, { name: to.first_name ?? '', orgName: to.org_name, email: to.email, otherOrgName: from.org_name, otherEmail: from.email, reason: why }),
        { user: to.id },
      );
    }
  }
  return removed.length;
}
