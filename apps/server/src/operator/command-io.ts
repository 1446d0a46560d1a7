import type { FastifyBaseLogger } from 'fastify';
import { translate } from '@healthbook/shared';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Mailer } from '../plugins/mail';
import type { Storage } from '../plugins/storage';
import type { OrganizationsService } from '../modules/organizations/organizations.service';
import type { ServiceContext } from '../context';
import { AuditLog } from '../modules/audit/audit.service';
import { sendAccountSetupLink, type AccountSetupLinkSent, type AccountSetupTarget } from '../modules/recovery/account-setup';

/**
 * What an operator command runs against, the same whether the CLI opened the database itself
 * (PostgreSQL, or an embedded DATA_DIR no server holds) or the server that holds DATA_DIR runs
 * it for the CLI (operator/channel.ts): its database, its mailer, its file store.
 */
export interface CommandDeps {
  db: Db;
  mailer: Mailer;
  storage: Storage;
  publicUrl: string;
  /** A line for the operator (stdout), and a problem (stderr). */
  out: (line: string) => void;
  err: (line: string) => void;
  /** Where the services log (default: nowhere; the command prints what matters). */
  log?: FastifyBaseLogger;
  /** The organisations as the running process caches them: told when one is added. */
  organizations?: OrganizationsService;
  /** Where the installation keeps its data (backup reads it). */
  installation?: Pick<Config, 'dataDir' | 'databaseUrl' | 'storageUrl' | 'jwtSecret'>;
}

/** Exit codes: done, failed (nothing half-made is left unexplained), bad input. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Prints each problem on its own line, then the command's usage; answers the bad-input exit code. */
export function usageError(deps: Pick<CommandDeps, 'err'>, usage: string, lines: string[]): number {
  for (const line of lines) deps.err(line);
  deps.err('');
  deps.err(usage);
  return EXIT_USAGE;
}

/** `client_id` → `--client-id`. */
export const optionName = (field: string) => field.replace(/_/g, '-');

/** zod issues or field errors as `--option: message` lines, in English (the operator's terminal). */
export function fieldLines(fields: Record<string, Array<string | { key: string }>>, names: Record<string, string> = {}): string[] {
  return Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((m) => `--${names[field] ?? optionName(field)}: ${translate('en', typeof m === 'string' ? m : m.key)}`),
  );
}

/**
 * Sends the set-password link of an account a command made and tells the operator how it left.
 * Without SMTP_URL the link is printed, once, on this terminal (the mail only reaches the
 * outbox): a first operator without mail can still get in. With SMTP_URL it is never printed.
 * A mail that could not be sent is a failure the operator is told how to repair.
 */
export async function sendLinkAndTell(
  deps: CommandDeps,
  ctx: ServiceContext,
  target: AccountSetupTarget,
  via: string,
): Promise<number> {
  let sent: AccountSetupLinkSent;
  try {
    sent = await sendAccountSetupLink({ db: deps.db, audit: new AuditLog(deps.db), publicUrl: deps.publicUrl, mailer: deps.mailer }, ctx, target, { via });
  } catch (err) {
    deps.err(`The set-password e-mail to ${target.user.email} could not be sent: ${err instanceof Error ? err.message : String(err)}`);
    deps.err('The account exists. Once mail works, run the same command again to send a new link (the earlier one stops working).');
    return EXIT_FAILED;
  }
  const hours = Math.round((sent.expiresAt.getTime() - Date.now()) / 3_600_000);
  if (sent.mail === 'smtp') {
    deps.out(`A set-password link (valid ${hours} hours, single use) was e-mailed to ${target.user.email}.`);
  } else {
    deps.out(`SMTP_URL is not set: the e-mail to ${target.user.email} is only kept in the outbox. The set-password link`);
    deps.out(`(valid ${hours} hours, single use; shown this once) is:`);
    deps.out('');
    deps.out(`  ${sent.link}`);
    deps.out('');
  }
  deps.out(`Then sign in at ${deps.publicUrl}/${target.org.name}/login`);
  return EXIT_OK;
}
