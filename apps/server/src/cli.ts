import { parseArgs } from 'node:util';
import { openDatabase } from './db/client';
import { DATA_DIR_IN_USE_EXIT_CODE, DataDirInUseError, loadConfigOwningDataDir } from './db/data-dir-lock';
import { migrateToLatest } from './db/migrations';
import { seedDemo } from './db/seed/demo';
import { createStorage } from './plugins/storage';
import { OutboxMailer, SmtpMailer } from './plugins/mail';
import { runInviteCommand } from './modules/invitations/invite.command';
import { OrganizationsRepository } from './modules/organizations/organizations.repository';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate        bring the database schema up to date
  seed-demo      add the demo organisations and users (only into an empty database)
  orgs           list the organisations
  invite         invite a person into an organisation and e-mail the access code
                 (npm run cli -- invite --org <org> --first-name .. --last-name .. --dob YYYY-MM-DD --gender .. --email ..)
`;

/**
 * Operator commands against the configured database (DATABASE_URL or PGlite in DATA_DIR). On PGlite
 * the command owns DATA_DIR while it runs, as the server does: it is refused while a server runs there.
 */
async function main(argv: string[]) {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const command = positionals[0];
  if (!command || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const { config } = loadConfigOwningDataDir();
  const db = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  try {
    const applied = await migrateToLatest(db);
    switch (command) {
      case 'migrate':
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the schema is up to date');
        return 0;
      case 'seed-demo': {
        const seeded = await seedDemo(db, createStorage(config));
        console.log(seeded ? 'demo data added' : 'the database already has organisations; nothing added');
        return 0;
      }
      case 'orgs': {
        for (const org of await new OrganizationsRepository(db).list()) {
          console.log(`${org.name}\t${org.org_name}\t${org.primary_color ?? '-'}`);
        }
        return 0;
      }
      case 'invite': {
        // Mail goes the way the server sends it: SMTP_URL, else the outbox (/dev/mailbox).
        const mailer = config.smtpUrl
          ? new SmtpMailer(config.smtpUrl, config.mailFrom)
          : new OutboxMailer(db, config.mailFrom, { info: () => undefined });
        try {
          return await runInviteCommand(argv.slice(argv.indexOf(command) + 1), {
            db,
            mailer,
            publicUrl: config.publicUrl,
            out: (line) => console.log(line),
            err: (line) => console.error(line),
          });
        } finally {
          if (mailer instanceof SmtpMailer) mailer.close();
        }
      }
      default:
        process.stderr.write(`Unknown command: ${command}\n\n${USAGE}`);
        return 2;
    }
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(err instanceof DataDirInUseError ? DATA_DIR_IN_USE_EXIT_CODE : 1);
  },
);
