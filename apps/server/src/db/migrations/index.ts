import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from '../client';
import * as m0001 from './0001_create_organizations';
import * as m0002 from './0002_create_users';
import * as m0003 from './0003_create_mail_outbox';
import * as m0004 from './0004_create_accounts';
import * as m0005 from './0005_seed_profile_content';
import * as m0006 from './0006_scope_and_limits';
import * as m0007 from './0007_create_features_and_operations';
import * as m0008 from './0008_create_patients_and_records';
import * as m0009 from './0009_add_patient_data_version';
import * as m0010 from './0010_notify_session_changes';
import * as m0011 from './0011_create_calendar_and_appointments';
import * as m0012 from './0012_create_shares';
import * as m0013 from './0013_add_record_source_key';
import * as m0014 from './0014_create_exports';
import * as m0016 from './0016_add_organization_help_contacts';
import * as m0017 from './0017_create_surveys';
import * as m0018 from './0018_create_help_articles';
import * as m0019 from './0019_create_journal_entries';
import * as m0015 from './0015_create_chat';
import * as m0020 from './0020_create_insurance_cards';
import * as m0021 from './0021_create_patient_grants';
import * as m0022 from './0022_add_family_members';
import * as m0023 from './0023_create_account_links';
import * as m0024 from './0024_index_audit_log_patient';
import * as m0025 from './0025_add_share_insurance';
import * as m0026 from './0026_add_account_setup';
import * as m0027 from './0027_add_organization_status';
import * as m0028 from './0028_create_people_admin';
import * as m0030 from './0030_create_account_closings';
import * as m0031 from './0031_add_export_progress';
import * as m0036 from './0036_add_provider_speciality_el';
import * as m0037 from './0037_create_fhir_sources';
import * as m0038 from './0038_create_apple_health_imports';
import * as m0039 from './0039_create_visits';
import * as m0040 from './0040_add_chat_appointment';
import * as m0041 from './0041_add_visit_note';

/**
 * Versioned migrations, imported statically so the bundled server carries them.
 * Never edit a landed migration: add the next number.
 */
const migrations: Record<string, Migration> = {
  '0001_create_organizations': m0001,
  '0002_create_users': m0002,
  '0003_create_mail_outbox': m0003,
  '0004_create_accounts': m0004,
  '0005_seed_profile_content': m0005,
  '0006_scope_and_limits': m0006,
  '0007_create_features_and_operations': m0007,
  '0008_create_patients_and_records': m0008,
  '0009_add_patient_data_version': m0009,
  '0010_notify_session_changes': m0010,
  '0011_create_calendar_and_appointments': m0011,
  '0012_create_shares': m0012,
  '0013_add_record_source_key': m0013,
  '0014_create_exports': m0014,
  '0015_create_chat': m0015,
  '0016_add_organization_help_contacts': m0016,
  '0017_create_surveys': m0017,
  '0018_create_help_articles': m0018,
  '0019_create_journal_entries': m0019,
  '0020_create_insurance_cards': m0020,
  '0021_create_patient_grants': m0021,
  '0022_add_family_members': m0022,
  '0023_create_account_links': m0023,
  '0024_index_audit_log_patient': m0024,
  '0025_add_share_insurance': m0025,
  '0026_add_account_setup': m0026,
  '0027_add_organization_status': m0027,
  '0028_create_people_admin': m0028,
  '0030_create_account_closings': m0030,
  '0031_add_export_progress': m0031,
  '0036_add_provider_speciality_el': m0036,
  '0037_create_fhir_sources': m0037,
  '0038_create_apple_health_imports': m0038,
  '0039_create_visits': m0039,
  '0040_add_chat_appointment': m0040,
  '0041_add_visit_note': m0041,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Every migration's name, in the order they apply (the last is this release's schema level). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations).sort();

/** The migrations already applied to a database, in order (none when it has no schema yet). */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  return (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
}

/**
 * Brings the schema up to `name` and no further (the upgrade tests build an earlier release's
 * database this way); refuses to go down.
 */
export async function migrateUpTo(db: Db, name: string): Promise<string[]> {
  if (!Object.hasOwn(migrations, name)) throw new Error(`no migration named ${name}`);
  const later = (await appliedMigrations(db)).filter((applied) => applied > name);
  if (later.length) throw new Error(`the database is already past ${name} (${later.join(', ')}); migrations do not go down`);
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
