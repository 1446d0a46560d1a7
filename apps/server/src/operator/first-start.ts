import type { Db } from '../db/client';
import { InstallationRepository } from './installation.repository';

/**
 * What an operator must do next on a database with no organisation or no super admin (a real
 * installation's first start: production seeds no demo data), as one log line; null when
 * nothing is missing.
 */
export async function firstStartHint(db: Db): Promise<string | null> {
  const row = await new InstallationRepository(db).state();
  const admin = 'npm run cli -- create-admin --email <address> --first-name <name> --last-name <name>';
  if (!row.has_org) {
    return (
      'This installation has no organisation and no administrator yet. Next, while it runs: ' +
      'npm run cli -- create-organisation --client-id <id> --name "<name>", then ' +
      `${admin} (it e-mails a set-password link, and prints it while SMTP_URL is unset).`
    );
  }
  if (!row.has_superadmin) {
    return `This installation has no super admin yet. Next, while it runs: ${admin} [--org <client id>] (it e-mails a set-password link, and prints it while SMTP_URL is unset).`;
  }
  return null;
}
