import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { DATA_DIR_IN_USE_EXIT_CODE, DataDirInUseError, loadConfigOwningDataDir } from './db/data-dir-lock';
import { migrateToLatest } from './db/migrations';
import { createStorage } from './plugins/storage';
import { createMailer, SmtpMailer } from './plugins/mail';
import { LocalBus, RedisBus, type MessageBus } from './lib/shared-cache';
import { AuditLog } from './modules/audit/audit.service';
import { OrganizationsService } from './modules/organizations/organizations.service';
import { runThroughServer } from './operator/channel';
import { restoreBackup } from './operator/backup';
import { isCliCommand, runCommand, USAGE } from './operator/commands';

/**
 * Operator commands (operator/commands.ts) against the configured database. On PostgreSQL
 * (DATABASE_URL) the CLI opens it itself, beside any running server. On the embedded database
 * the CLI owns DATA_DIR while it runs, as the server does; when a server holds it, the command
 * is handed to that server over the operator channel (operator/channel.ts) and runs there.
 */
async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const command = positionals[0];
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (!isCliCommand(command)) {
    process.stderr.write(`Unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  const args = withAbsolutePaths(argv.slice(argv.indexOf(command)));
  const out = (line: string) => console.log(line);
  const err = (line: string) => console.error(line);

  // restore replaces DATA_DIR: the CLI does it itself, never a server (one holding DATA_DIR is refused).
  if (command === 'restore') return restoreBackup(args.slice(1), loadConfig(undefined, { jwtSecret: 'not read by restore' }), { out, err });

  let owned;
  try {
    owned = loadConfigOwningDataDir();
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const code = await runThroughServer(error.dataDir, args, { out, err });
    if (code === undefined) throw error;
    return code;
  }
  const { config } = owned;
  const db = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  // Mail goes the way the server sends it: SMTP_URL, else the outbox (/dev/mailbox).
  const mailer = createMailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom }, { info: () => undefined });
  // A new organisation is told to running servers' caches through Redis, when they share one.
  let bus: MessageBus = new LocalBus();
  let redis: { quit(): Promise<unknown> } | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    const client = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
    redis = client;
    bus = new RedisBus(client);
  }
  const storage = createStorage(config);
  try {
    // A backup takes the database as it is (before an upgrade's migrations, say).
    if (command !== 'migrate' && command !== 'backup') await migrateToLatest(db);
    return await runCommand(args, {
      db,
      mailer,
      storage,
      publicUrl: config.publicUrl,
      out,
      err,
      organizations: new OrganizationsService(db, bus, new AuditLog(db)),
      installation: config,
    });
  } finally {
    if (mailer instanceof SmtpMailer) mailer.close();
    await bus.close();
    await redis?.quit().catch(() => undefined);
    await storage.close?.();
    await db.destroy();
  }
}

/**
 * A file named on the command line (`--to`, `--from`) made absolute here: a command handed to the
 * server runs in the server's working directory, not the operator's.
 */
function withAbsolutePaths(args: string[]): string[] {
  return args.map((arg, i) => {
    const option = /^--(to|from)=(.+)$/.exec(arg);
    if (option) return `--${option[1]}=${path.resolve(option[2]!)}`;
    const previous = args[i - 1];
    return (previous === '--to' || previous === '--from') && !arg.startsWith('-') ? path.resolve(arg) : arg;
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(err instanceof DataDirInUseError ? DATA_DIR_IN_USE_EXIT_CODE : 1);
  },
);
