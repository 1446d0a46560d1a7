import type { NewAccount } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { orgScope } from '../../db/scope';
import type { AuditLog } from '../audit/audit.service';
import { UsersRepository } from './users.repository';

export interface NewAccountRow {
  id: number;
  org_id: number;
  email: string;
  first_name: string;
  last_name: string;
  roles: string[];
  is_superadmin: boolean;
  settings: Record<string, unknown>;
}

/**
 * An account made for someone else, without a password (they set it through the link of
 * modules/recovery/account-setup.ts). Answers the account, or `taken` with the account that
 * already has the address in the organisation (also when a parallel call won the race).
 * Audited as `account_create` (roles, super admin, via). Pass a transaction as `db` to make it
 * with other things at once.
 */
export async function createAccountWithoutPassword(
  db: Db,
  audit: AuditLog,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  orgId: number,
  account: NewAccount,
  opts: { roles: string[]; isSuperadmin: boolean; via: string },
): Promise<{ created: NewAccountRow } | { taken: { id: number; roles: string[]; is_superadmin: boolean; has_password: boolean } }> {
  const users = new UsersRepository(db, orgScope(orgId));
  const existing = async () => {
    const found = (await users.findByEmail(account.email))!;
    return { taken: { id: found.id, roles: found.roles, is_superadmin: found.is_superadmin, has_password: found.password_hash !== null } };
  };
  if (await users.emailTaken(account.email)) return existing();
  let row: NewAccountRow;
  try {
    // (Inside a caller's transaction a lost race aborts it: the caller's whole change is undone.)
    row = await users.createWithoutPassword({ ...account, roles: opts.roles, is_superadmin: opts.isSuperadmin });
  } catch (err) {
    if (isUniqueViolation(err, 'users_org_email_key')) return existing();
    throw err;
  }
  await audit.record(
    ctx,
    { action: 'account_create', outcome: 'success', orgId, subject: `user:${row.id}`, detail: { roles: opts.roles.join(','), superadmin: opts.isSuperadmin, via: opts.via } },
    db,
  );
  return { created: row };
}
