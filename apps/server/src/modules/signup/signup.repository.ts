import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** Accounts created by sign-up, and their e-mail confirmation. */
export class SignupRepository {
  constructor(private readonly db: Db) {}

  /** A new patient account, not yet confirmed. Throws the unique violation users_org_email_key when the address is taken. */
  createPatient(values: {
    org_id: number;
    email: string;
    password_hash: string;
    first_name: string;
    last_name: string;
    dob: string;
    gender: string;
    sex: string;
  }) {
    return this.db
      .insertInto('users')
      .values({ ...values, roles: ['patient'], email_confirmed_at: null })
      .returning(['id', 'org_id', 'email', 'first_name'])
      .executeTakeFirstOrThrow();
  }

  async confirmEmail(userId: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email_confirmed_at: sql`coalesce(email_confirmed_at, now())`, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute();
  }
}
