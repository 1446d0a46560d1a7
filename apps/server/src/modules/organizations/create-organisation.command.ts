import { parseArgs } from 'node:util';
import pino from 'pino';
import { NEW_CLIENT_ID_MAX_LENGTH, NewAccountSchema, NewOrganizationSchema, isSupportedLanguage } from '@healthbook/shared';
import { systemContext } from '../../context';
import { FieldError } from '../../lib/http-errors';
import { EXIT_OK, fieldLines, sendLinkAndTell, usageError, type CommandDeps } from '../../operator/command-io';
import { AuditLog } from '../audit/audit.service';
import { createAccountWithoutPassword, type NewAccountRow } from '../users/new-account';
import { createOrganization } from './create-organization';

export const CREATE_ORGANISATION_USAGE = `Usage: npm run cli -- create-organisation --client-id <id> --name <name>
                                  [--short-name <name>] [--color #rrggbb]
                                  [--admin-email <address> --admin-first-name <name> --admin-last-name <name>] [--lang en|el]

Makes an organisation, reached at /<client id>/login. The client id: lower-case letters, digits and
"-", starting with a letter, at most ${NEW_CLIENT_ID_MAX_LENGTH} characters, unique, and not a word the
application's own addresses use (login, register, api, password, email, logout, dev…).
With --admin-*, also its first organisation admin, with no password: a single-use link to choose
one (valid 24 hours) is e-mailed, and printed here once when SMTP_URL is unset.
Logo, favicon and other settings: on the organisation's pages once signed in.
`;

const OPTIONS = {
  'client-id': { type: 'string' },
  name: { type: 'string' },
  'short-name': { type: 'string' },
  color: { type: 'string' },
  'admin-email': { type: 'string' },
  'admin-first-name': { type: 'string' },
  'admin-last-name': { type: 'string' },
  lang: { type: 'string' },
} as const;
const ADMIN = ['admin-email', 'admin-first-name', 'admin-last-name'] as const;
const ORG_OPTION: Record<string, string> = { client_id: 'client-id', org_name: 'name', org_short_name: 'short-name', primary_color: 'color' };
const ADMIN_OPTION: Record<string, string> = { email: 'admin-email', first_name: 'admin-first-name', last_name: 'admin-last-name' };

const issuesByField = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) => {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) (fields[String(issue.path[0])] ??= []).push(issue.message);
  return fields;
};

/**
 * `create-organisation`: an organisation and, optionally, its first organisation admin (in one
 * transaction), then the admin's set-password link. Exit codes: 0 done, 1 the mail could not
 * leave (the organisation and admin exist), 2 bad input (nothing made).
 */
export async function runCreateOrganisationCommand(argv: string[], deps: CommandDeps): Promise<number> {
  let values: Partial<Record<keyof typeof OPTIONS, string>>;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    return usageError(deps, CREATE_ORGANISATION_USAGE, [err instanceof Error ? err.message : String(err)]);
  }
  const missing: string[] = (['client-id', 'name'] as const).filter((name) => values[name] === undefined);
  const adminGiven = ADMIN.filter((name) => values[name] !== undefined);
  if (adminGiven.length > 0) missing.push(...ADMIN.filter((name) => values[name] === undefined));
  if (missing.length) return usageError(deps, CREATE_ORGANISATION_USAGE, missing.map((name) => `--${name} is required${ADMIN.includes(name as never) ? ' with the other --admin-* options' : ''}`));
  const lang = values.lang ?? 'en';
  if (!isSupportedLanguage(lang)) return usageError(deps, CREATE_ORGANISATION_USAGE, ['--lang must be en or el']);

  const org = NewOrganizationSchema.safeParse({
    client_id: values['client-id'],
    org_name: values.name,
    org_short_name: values['short-name'],
    primary_color: values.color,
  });
  const admin = adminGiven.length
    ? NewAccountSchema.safeParse({ email: values['admin-email'], first_name: values['admin-first-name'], last_name: values['admin-last-name'] })
    : undefined;
  const problems = [
    ...(org.success ? [] : fieldLines(issuesByField(org.error.issues), ORG_OPTION)),
    ...(admin && !admin.success ? fieldLines(issuesByField(admin.error.issues), ADMIN_OPTION) : []),
  ];
  if (!org.success || (admin && !admin.success) || problems.length) return usageError(deps, CREATE_ORGANISATION_USAGE, problems);

  const ctx = systemContext(deps.log ?? pino({ level: 'silent' }), lang);
  let made;
  try {
    made = await deps.db.transaction().execute(async (trx) => {
      const audit = new AuditLog(trx);
      const row = await createOrganization(trx, audit, ctx, org.data, { via: 'cli' });
      let account: NewAccountRow | undefined;
      if (admin?.success) {
        const result = await createAccountWithoutPassword(trx, audit, ctx, row.id, admin.data, { roles: ['org_admin'], isSuperadmin: false, via: 'cli' });
        // A new organisation has no accounts: its address cannot be taken.
        if (!('created' in result)) throw new Error('the new organisation already had an account with this address');
        account = result.created;
      }
      return { row, account };
    });
  } catch (err) {
    if (err instanceof FieldError) return usageError(deps, CREATE_ORGANISATION_USAGE, fieldLines(err.fields, ORG_OPTION));
    throw err;
  }
  await deps.organizations?.forgetAll();
  const { row, account } = made;
  deps.out(`Organisation ${row.org_name} (client id ${row.name}, short name ${row.org_short_name}, colour ${row.primary_color}) created: ${deps.publicUrl}/${row.name}/login`);
  if (!account) return EXIT_OK;
  deps.out(`Organisation admin ${account.first_name} ${account.last_name} <${account.email}> created.`);
  return sendLinkAndTell(deps, ctx, { user: account, org: row }, 'cli');
}
