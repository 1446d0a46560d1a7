import { sql, type Kysely } from 'kysely';

/**
 * Surveys (issue 12). The published instruments (PHQ-2, PHQ-9, GAD-7) are code
 * (packages/shared/src/survey-instruments.ts); the general and profile-questionnaire surveys are
 * each organisation's choice, kept here as a definition (the shared SurveyDefinition shape,
 * checked when written); without a row, the shared default applies.
 *
 * A response keeps the answers, the score and band the server computed, whether the safety
 * rule fired, and the definition as it was asked (both languages), so that a result reads the
 * same later even if the organisation changes its questions. One attempt is submitted once:
 * (patient_id, attempt_id) is unique.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table organization_surveys (
      org_id integer not null references organizations(id) on delete cascade,
      survey text not null check (survey in ('general', 'profile-questionnaire')),
      definition jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (org_id, survey)
    )`.execute(db);

  await sql`
    create table survey_responses (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      submitted_by integer references users(id) on delete set null,
      submitted_by_name text not null,
      survey text not null,
      attempt_id uuid not null,
      answers jsonb not null,
      score integer not null check (score >= 0),
      max_score integer not null check (max_score >= score),
      band text not null,
      level smallint not null check (level between 0 and 4),
      safety boolean not null,
      next_survey text,
      definition jsonb not null,
      created_at timestamptz not null default now(),
      unique (patient_id, attempt_id)
    )`.execute(db);
  await sql`create index survey_responses_patient on survey_responses (patient_id, survey, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('survey_responses').execute();
  await db.schema.dropTable('organization_surveys').execute();
}
