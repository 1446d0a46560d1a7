import { parseArgs } from 'node:util';
import { CreateInvitationBodySchema, GENDER_KEYS, OrgRefSchema, isSupportedLanguage, translate } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { FieldError } from '../../lib/http-errors';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { systemContext } from '../../context';
import { BackgroundMail, type Mailer } from '../../plugins/mail';
import { AuditLog } from '../audit/audit.service';
import { AttemptLimiter } from '../limits/limits.service';
import { InvitationsService } from './invitations.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { LocalBus } from '../../lib/shared-cache';

export const INVITE_USAGE = `Usage: npm run cli -- invite --org <client id or id> --first-name <name> --last-name <name>
                           --dob <YYYY-MM-DD or MM/DD/YYYY> --gender <${GENDER_KEYS.join('|')}> --email <address> [--lang en|el]

Creates an invitation (valid for 30 days), e-mails the access code and prints it.
`;

export interface InviteCommandDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Where the services log (default: nowhere; the command prints what matters). */
  log?: FastifyBaseLogger;
}

const OPTIONS = {
  org: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  dob: { type: 'string' },
  gender: { type: 'string' },
  email: { type: 'string' },
  lang: { type: 'string' },
} as const;
const REQUIRED = ['org', 'first-name', 'last-name', 'dob', 'gender', 'email'] as const;

/**
 * `invite`: the same invitation as POST /api/v1/admin/invitations/, made by the operator
 * through the same service (no HTTP, no signed-in administrator). Answers the exit code:
 * 0 done, 2 bad input (each problem printed on its own line).
 */
export async function runInviteCommand(argv: string[], deps: InviteCommandDeps): Promise<number> {
  const usageError = (lines: string[]) => {
    for (const line of lines) deps.err(line);
    deps.err('');
    deps.err(INVITE_USAGE);
    return 2;
  };

  let values: Partial<Record<keyof typeof OPTIONS, string>>;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    return usageError([err instanceof Error ? err.message : String(err)]);
  }
  const missing = REQUIRED.filter((name) => !values[name]?.trim());
  if (missing.length) return usageError(missing.map((name) => `--${name} is required`));
  const lang = values.lang ?? 'en';
  if (!isSupportedLanguage(lang)) return usageError(['--lang must be en or el']);

  const parsed = CreateInvitationBodySchema.safeParse({
    first_name: values['first-name'],
    last_name: values['last-name'],
    dob: values.dob,
    gender: values.gender,
    email: values.email,
  });
  if (!parsed.success) {
    return usageError(parsed.error.issues.map((issue) => `--${optionName(String(issue.path[0] ?? ''))}: ${translate('en', issue.message)}`));
  }

  const audit = new AuditLog(deps.db);
  const background = new BackgroundMail(deps.mailer, { error: (_obj, msg) => deps.err(msg) });
  const service = new InvitationsService({
    db: deps.db,
    mailer: deps.mailer,
    audit,
    limiter: new AttemptLimiter(deps.db),
    publicUrl: deps.publicUrl,
    background,
    organizations: new OrganizationsService(deps.db, new LocalBus(), audit),
  });
  const ctx = systemContext(deps.log ?? pino({ level: 'silent' }), lang);
  const orgRef = OrgRefSchema.safeParse(values.org);
  const org = orgRef.success ? await service.resolveOrg(orgRef.data) : undefined;
  if (!org) return usageError([`--org: ${translate('en', 'errors:organizationUnknown')}: ${values.org}`]);

  try {
    const { invitation, code } = await service.create(ctx, org, parsed.data, { createdBy: null, lang, via: 'cli' });
    deps.out(`Invitation ${invitation.id} for ${invitation.email} in ${org.name} (${org.org_name}), valid until ${new Date(invitation.expires_at).toISOString()}.`);
    deps.out(`The access code was e-mailed (${deps.mailer.mode === 'smtp' ? 'through SMTP_URL' : 'kept in the outbox: /dev/mailbox'}).`);
    deps.out(`Access code: ${code}`);
    return 0;
  } catch (err) {
    if (err instanceof FieldError) {
      return usageError(Object.entries(err.fields).flatMap(([field, messages]) => messages.map((m) => `--${optionName(field)}: ${translate('en', typeof m === 'string' ? m : m.key)}`)));
    }
    throw err;
  }
}

const optionName = (field: string) => field.replace(/_/g, '-');
