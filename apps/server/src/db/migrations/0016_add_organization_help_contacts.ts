import { sql, type Kysely } from 'kysely';

/**
 * Where an organisation's members turn for help: the emergency number its patients call, its
 * crisis lines (shown at once by the PHQ-9 item 9 safety path and by the symptom checker), and
 * the support address and phone the help area shows (its contact form writes to the address).
 * crisis_lines is [{number, name_en, name_el}].
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('emergency_number', 'text', (c) => c.notNull().defaultTo('112'))
    .addColumn('crisis_lines', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('support_email', 'text')
    .addColumn('support_phone', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .dropColumn('emergency_number')
    .dropColumn('crisis_lines')
    .dropColumn('support_email')
    .dropColumn('support_phone')
    .execute();
}
