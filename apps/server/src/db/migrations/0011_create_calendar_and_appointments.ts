import { sql, type Kysely } from 'kysely';

/**
 * The calendar and telehealth scheduling:
 * - `calendar_events`: a patient's events, one-off or recurring (an RFC 5545 rule, expanded in
 *   the event's time zone); `series_end` is the end of the last occurrence (null: no end), so a
 *   window's events are found by an index range.
 * - `providers`: the provider profile and published schedule of a user with the provider role.
 * - `availability_slots`: the schedule cut into slots (the specification's availability_det_id),
 *   materialised up to a rolling horizon; a slot no longer offered is withdrawn, never deleted.
 * - `appointments`: a patient's booking of a slot. At most one booked appointment per slot is a
 *   unique index: of two simultaneous bookings, the database lets exactly one through.
 * - `reminders`: e-mails due at a time, claimed with FOR UPDATE SKIP LOCKED so that each is sent
 *   once by one of several processes.
 * - `calendar_feeds`: the hash of a user's private calendar feed token.
 * - `mail_outbox.attachments`: files of mail kept without SMTP (the .ics of an appointment).
 * Events and appointments move the patient's data_version on (the deferred trigger of 0009), so
 * answers cached under it stay true.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_events (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      title text not null,
      description text,
      type text not null,
      color text not null,
      start_time timestamptz not null,
      end_time timestamptz not null,
      all_day boolean not null default false,
      recurrence text,
      series_end timestamptz,
      timezone text not null default 'UTC',
      reminder_minutes integer,
      created_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (end_time > start_time),
      check (recurrence is not null or series_end = end_time)
    )`.execute(db);
  await sql`create index calendar_events_window on calendar_events (patient_id, start_time) include (series_end)`.execute(db);

  await sql`
    create table providers (
      user_id integer primary key references users(id) on delete cascade,
      org_id integer not null references organizations(id),
      speciality text,
      credentials text,
      languages text[] not null default '{}',
      biography text,
      slot_minutes integer not null default 30,
      timezone text not null default 'UTC',
      weekly jsonb not null default '[]',
      exceptions jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index providers_org on providers (org_id, lower(speciality))`.execute(db);

  await sql`
    create table availability_slots (
      id serial primary key,
      org_id integer not null references organizations(id),
      provider_id integer not null references users(id) on delete cascade,
      start_time timestamptz not null,
      end_time timestamptz not null,
      withdrawn boolean not null default false,
      unique (provider_id, start_time),
      check (end_time > start_time)
    )`.execute(db);
  await sql`create index availability_slots_open on availability_slots (org_id, start_time) where not withdrawn`.execute(db);

  await sql`
    create table appointments (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      provider_id integer not null references users(id),
      slot_id integer not null references availability_slots(id),
      start_time timestamptz not null,
      end_time timestamptz not null,
      reason_for_visit text not null,
      status text not null default 'booked' check (status in ('booked', 'cancelled')),
      booked_by integer references users(id) on delete set null,
      cancelled_at timestamptz,
      cancelled_by integer references users(id) on delete set null,
      cancelled_by_provider boolean not null default false,
      cancellation_notes text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index appointments_one_per_slot on appointments (slot_id) where status = 'booked'`.execute(db);
  await sql`create index appointments_patient on appointments (patient_id, start_time)`.execute(db);
  await sql`create index appointments_provider on appointments (provider_id, start_time)`.execute(db);

  await sql`
    create table reminders (
      id bigserial primary key,
      org_id integer not null references organizations(id),
      user_id integer not null references users(id) on delete cascade,
      event_id integer references calendar_events(id) on delete cascade,
      appointment_id integer references appointments(id) on delete cascade,
      occurrence_start timestamptz not null,
      remind_at timestamptz not null,
      status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'cancelled', 'missed', 'failed')),
      attempts integer not null default 0,
      claimed_until timestamptz,
      sent_at timestamptz,
      check ((event_id is null) <> (appointment_id is null))
    )`.execute(db);
  await sql`create unique index reminders_event_once on reminders (event_id, user_id, occurrence_start, remind_at) where event_id is not null`.execute(db);
  await sql`create unique index reminders_appointment_once on reminders (appointment_id, user_id, remind_at) where appointment_id is not null`.execute(db);
  await sql`create index reminders_due on reminders (remind_at) where status in ('pending', 'sending')`.execute(db);

  await sql`
    create table calendar_feeds (
      user_id integer primary key references users(id) on delete cascade,
      org_id integer not null references organizations(id),
      token_hash text not null unique,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`alter table mail_outbox add column attachments jsonb`.execute(db);

  for (const table of ['calendar_events', 'appointments']) {
    await sql`create constraint trigger ${sql.raw(`${table}_bump_data_version`)} after insert or update or delete on ${sql.table(table)}
      deferrable initially deferred for each row execute function patients_bump_data_version()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['calendar_events', 'appointments']) await sql`drop trigger ${sql.raw(`${table}_bump_data_version`)} on ${sql.table(table)}`.execute(db);
  await sql`alter table mail_outbox drop column attachments`.execute(db);
  for (const table of ['calendar_feeds', 'reminders', 'appointments', 'availability_slots', 'providers', 'calendar_events']) await sql`drop table ${sql.table(table)}`.execute(db);
}
