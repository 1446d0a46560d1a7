import { migrateToLatest } from '../db/migrations';
import { seedDemo } from '../db/seed/demo';
import { INVITE_USAGE, runInviteCommand } from '../modules/invitations/invite.command';
import { CREATE_ORGANISATION_USAGE, runCreateOrganisationCommand } from '../modules/organizations/create-organisation.command';
import { OrganizationsRepository } from '../modules/organizations/organizations.repository';
import { CREATE_ADMIN_USAGE, runCreateAdminCommand } from '../modules/users/create-admin.command';
import { BACKUP_USAGE, RESTORE_USAGE, runBackupCommand } from './backup';
import { EXIT_OK, EXIT_USAGE, type CommandDeps } from './command-io';

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-organisation  make an organisation, optionally with its first organisation admin
                       (npm run cli -- create-organisation --client-id <id> --name <name>
                        [--admin-email .. --admin-first-name .. --admin-last-name ..])
  create-admin         make a super admin; a single-use set-password link is e-mailed
                       (and printed once when SMTP_URL is unset)
                       (npm run cli -- create-admin --email .. --first-name .. --last-name .. [--org <client id>])
  invite               invite a patient into an organisation and e-mail the access code
                       (npm run cli -- invite --org <org> --first-name .. --last-name .. --dob YYYY-MM-DD --gender .. --email ..)
  orgs                 list the organisations
  migrate              bring the database schema up to date
  seed-demo            add the demo organisations and users (only into an empty database)
  backup               write one archive of the embedded database, the files and the JWT secret
                       (npm run cli -- backup --to FILE; with PostgreSQL or S3 it says what to run)
  restore              restore such an archive into an empty DATA_DIR, with no server running
                       (npm run cli -- restore --from FILE [--force])

"npm run cli -- <command> --help" explains a command. Commands work while the server runs: on
PostgreSQL they use the database directly; on the embedded database (DATA_DIR) the running
server carries them out, over a socket in DATA_DIR that only this machine's operator can open.
No account ever gets a default password.
`;

type Command = (args: string[], deps: CommandDeps) => Promise<number>;

/** Every operator command, one implementation each: run by the CLI itself, or by the server for it. */
const COMMANDS: Record<string, Command> = {
  async migrate(_args, deps) {
    const applied = await migrateToLatest(deps.db);
    deps.out(applied.length ? `applied: ${applied.join(', ')}` : 'the schema is up to date');
    return EXIT_OK;
  },
  async 'seed-demo'(_args, deps) {
    const seeded = await seedDemo(deps.db, deps.storage);
    if (seeded) await deps.organizations?.forgetAll();
    deps.out(seeded ? 'demo data added' : 'the database already has organisations; nothing added');
    return EXIT_OK;
  },
  async orgs(_args, deps) {
    const all = await new OrganizationsRepository(deps.db).list();
    if (all.length === 0) deps.out('no organisation yet (npm run cli -- create-organisation --help)');
    for (const org of all) deps.out(`${org.name}\t${org.org_name}\t${org.primary_color ?? '-'}`);
    return EXIT_OK;
  },
  invite: (args, deps) => runInviteCommand(args, deps),
  'create-organisation': (args, deps) => runCreateOrganisationCommand(args, deps),
  'create-admin': (args, deps) => runCreateAdminCommand(args, deps),
  backup: (args, deps) => runBackupCommand(args, deps),
};
// The spelling an American operator may type.
COMMANDS['create-organization'] = COMMANDS['create-organisation']!;

/** Whether `name` is a command (the CLI checks before opening anything). */
export const isCommand = (name: string | undefined): name is string => name !== undefined && Object.hasOwn(COMMANDS, name);

/**
 * Commands the CLI runs itself and never hands to a server: `restore` replaces the DATA_DIR a
 * server would hold (and is refused while one does).
 */
export const CLI_ONLY_COMMANDS = ['restore'] as const;
export const isCliCommand = (name: string | undefined): boolean => isCommand(name) || (CLI_ONLY_COMMANDS as readonly string[]).includes(name ?? '');

/**
 * Runs one command line (`argv[0]` the command) and answers its exit code. `--help` after a
 * command prints its usage. Whatever the command prints goes through deps.out / deps.err.
 */
export async function runCommand(argv: string[], deps: CommandDeps): Promise<number> {
  const [name, ...args] = argv;
  if (!isCommand(name)) {
    deps.err(`Unknown command: ${name ?? '(none)'}`);
    deps.err('');
    deps.err(USAGE);
    return EXIT_USAGE;
  }
  if (args.includes('--help') || args.includes('-h')) {
    deps.out(usageOf(name));
    return EXIT_OK;
  }
  return COMMANDS[name]!(args, deps);
}

function usageOf(name: string): string {
  switch (name) {
    case 'create-admin':
      return CREATE_ADMIN_USAGE;
    case 'create-organisation':
    case 'create-organization':
      return CREATE_ORGANISATION_USAGE;
    case 'invite':
      return INVITE_USAGE;
    case 'backup':
      return BACKUP_USAGE;
    case 'restore':
      return RESTORE_USAGE;
    default:
      return USAGE;
  }
}
