import { parseArgs } from 'node:util';
import pino from 'pino';
import { DEFAULT_CLIENT_ID, NewAccountSchema, OrgRefSchema, isSupportedLanguage } from '@healthbook/shared';
import { systemContext } from '../../context';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, fieldLines, sendLinkAndTell, usageError, type CommandDeps } from '../../operator/command-io';
import { AuditLog } from '../audit/audit.service';
import { OrganizationsRepository, type OrganizationRow } from '../organizations/organizations.repository';
import { createAccountWithoutPassword } from './new-account';

export const CREATE_ADMIN_USAGE = `Usage: npm run cli -- create-admin --email <address> --first-name <name> --last-name <name>
                                  [--org <client id>] [--lang en|el]

Makes a super admin (who administers every organisation) with no password, and e-mails a
single-use link to choose one, valid for 24 hours. Without SMTP_URL the link is also printed
here, once. The account belongs to --org; without --org, to the default organisation
"${DEFAULT_CLIENT_ID}" if it exists, else to the only organisation there is (with several,
--org is required; with none, run create-organisation first).
Run it again for an address whose link expired unused: a new link replaces the old one.
`;

const OPTIONS = {
  email: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  org: { type: 'string' },
  lang: { type: 'string' },
} as const;
const REQUIRED = ['email', 'first-name', 'last-name'] as const;

/** The organisation the super admin joins, or why none can be chosen. */
async function chooseOrganization(repo: OrganizationsRepository, ref: string | undefined): Promise<OrganizationRow | string> {
  if (ref !== undefined) {
    const parsed = OrgRefSchema.safeParse(ref);
    const org = parsed.success ? await repo.resolve(parsed.data) : undefined;
    return org ?? `--org: no organisation ${JSON.stringify(ref)}. The organisations: npm run cli -- orgs`;
  }
  const all = await repo.list();
  const chosen = all.find((o) => o.name === DEFAULT_CLIENT_ID) ?? (all.length === 1 ? all[0] : undefined);
  if (chosen) return chosen;
  if (all.length === 0) {
    return 'There is no organisation yet: make one first with npm run cli -- create-organisation --client-id <id> --name "<name>"';
  }
  return `--org is required: there are ${all.length} organisations (${all.map((o) => o.name).join(', ')}) and none is "${DEFAULT_CLIENT_ID}".`;
}

/**
 * `create-admin`: a super admin without a password, and the link to set one. Exit codes: 0
 * done, 1 failed (the address belongs to another account, or the mail could not leave), 2 bad
 * input.
 */
export async function runCreateAdminCommand(argv: string[], deps: CommandDeps): Promise<number> {
  let values: Partial<Record<keyof typeof OPTIONS, string>>;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    return usageError(deps, CREATE_ADMIN_USAGE, [err instanceof Error ? err.message : String(err)]);
  }
  const missing = REQUIRED.filter((name) => !values[name]?.trim());
  if (missing.length) return usageError(deps, CREATE_ADMIN_USAGE, missing.map((name) => `--${name} is required`));
  const lang = values.lang ?? 'en';
  if (!isSupportedLanguage(lang)) return usageError(deps, CREATE_ADMIN_USAGE, ['--lang must be en or el']);
  const parsed = NewAccountSchema.safeParse({ email: values.email, first_name: values['first-name'], last_name: values['last-name'] });
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[String(issue.path[0])] ??= []).push(issue.message);
    return usageError(deps, CREATE_ADMIN_USAGE, fieldLines(fields));
  }
  const org = await chooseOrganization(new OrganizationsRepository(deps.db), values.org);
  if (typeof org === 'string') {
    deps.err(org);
    return values.org === undefined ? EXIT_FAILED : EXIT_USAGE;
  }

  const ctx = systemContext(deps.log ?? pino({ level: 'silent' }), lang);
  const audit = new AuditLog(deps.db);
  const made = await createAccountWithoutPassword(deps.db, audit, ctx, org.id, parsed.data, { roles: ['org_admin'], isSuperadmin: true, via: 'cli' });
  const where = `${org.org_name} (${org.name})`;
  let user;
  if ('taken' in made) {
    const { taken } = made;
    if (!taken.is_superadmin || taken.has_password) {
      deps.err(
        `${parsed.data.email} already has an account in ${where}` +
          (taken.has_password ? ' with a password: it can sign in, or use "Forgot password?" on the sign-in page.' : ' that is not a super admin.') +
          ' Nothing was changed.',
      );
      return EXIT_FAILED;
    }
    deps.out(`${parsed.data.email} is a super admin in ${where} still waiting for a password: a new link replaces the earlier one.`);
    user = { id: taken.id, org_id: org.id, email: parsed.data.email, first_name: parsed.data.first_name };
  } else {
    user = made.created;
    deps.out(`Super admin ${user.first_name} ${user.last_name} <${user.email}> created in ${where}.`);
  }
  const told = await sendLinkAndTell(deps, ctx, { user, org }, 'cli');
  return told === EXIT_OK ? EXIT_OK : EXIT_FAILED;
}
