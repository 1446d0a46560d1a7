import { sql, type Kysely } from 'kysely';

/**
 * Records that flow in from providers (issue 28): an organisation's catalogue of SMART on FHIR
 * sources, a patient's connections to them, the launches under way, and the provenance of the
 * records a sync brings.
 *
 * - `fhir_sources`: what the organisation registered with a provider's patient-access API; the
 *   client secret of a confidential client is sealed (never readable back), the discovered SMART
 *   configuration kept as it was read.
 * - `source_launches`: a standalone launch between the redirect and the callback: the state is
 *   stored hashed, the PKCE verifier sealed; single-use (`used_at`) and short-lived.
 * - `source_connections`: a patient's link to a source, one per source; the tokens are sealed;
 *   the sync is claimed by one process at a time (`claimed_until`, SKIP LOCKED) and its outcome
 *   kept for the patient to read.
 * - `health_records`: a record brought by a sync names its source, the resource and its version,
 *   when it was fetched and, once it is gone at the source, when that was seen (the record stays).
 * - `documents`: a file a sync brought (an attachment of a DocumentReference) has its source key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table fhir_sources (
      id serial primary key,
      org_id integer not null references organizations(id) on delete cascade,
      name text not null,
      fhir_base_url text not null,
      client_id text not null,
      client_secret_sealed text,
      scopes text not null,
      smart_configuration jsonb not null,
      enabled boolean not null default true,
      checked_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by integer references users(id) on delete set null
    )`.execute(db);
  await sql`create unique index fhir_sources_org_name on fhir_sources (org_id, lower(name))`.execute(db);

  await sql`
    create table source_connections (
      id serial primary key,
      org_id integer not null references organizations(id) on delete cascade,
      patient_id integer not null references patients(id) on delete cascade,
      source_id integer not null references fhir_sources(id) on delete cascade,
      source_patient_id text not null,
      access_token_sealed text,
      refresh_token_sealed text,
      token_expires_at timestamptz,
      scope text not null default '',
      status text not null default 'pending' check (status in ('pending', 'syncing', 'up_to_date', 'needs_reconnect', 'failed', 'disconnected')),
      problem text,
      last_run jsonb,
      last_synced_at timestamptz,
      last_full_sync_at timestamptz,
      since_cursor text,
      next_sync_at timestamptz,
      claimed_until timestamptz,
      created_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index source_connections_patient_source on source_connections (patient_id, source_id)`.execute(db);
  await sql`create index source_connections_due on source_connections (next_sync_at) where next_sync_at is not null`.execute(db);

  await sql`
    create table source_launches (
      state_hash text primary key,
      org_id integer not null references organizations(id) on delete cascade,
      patient_id integer not null references patients(id) on delete cascade,
      source_id integer not null references fhir_sources(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      verifier_sealed text not null,
      redirect_uri text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index source_launches_expiry on source_launches (expires_at)`.execute(db);

  await sql`alter table health_records add column source_id integer references fhir_sources(id) on delete set null`.execute(db);
  await sql`alter table health_records add column source_resource text`.execute(db);
  await sql`alter table health_records add column source_version text`.execute(db);
  await sql`alter table health_records add column source_fetched_at timestamptz`.execute(db);
  await sql`alter table health_records add column source_deleted_at timestamptz`.execute(db);
  await sql`create index health_records_source on health_records (patient_id, source_id) where source_id is not null`.execute(db);

  // A file a sync brought (a DocumentReference's attachment) is known by its source key: kept once.
  await sql`alter table documents add column source_key text`.execute(db);
  await sql`create unique index documents_patient_source_key on documents (patient_id, source_key) where source_key is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index documents_patient_source_key`.execute(db);
  await sql`alter table documents drop column source_key`.execute(db);
  await sql`drop index health_records_source`.execute(db);
  for (const column of ['source_deleted_at', 'source_fetched_at', 'source_version', 'source_resource', 'source_id']) {
    await sql`alter table health_records drop column ${sql.ref(column)}`.execute(db);
  }
  await sql`drop table source_launches`.execute(db);
  await sql`drop table source_connections`.execute(db);
  await sql`drop table fhir_sources`.execute(db);
}
