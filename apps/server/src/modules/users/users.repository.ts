import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client';
import { prepare } from '../../db/prepared';
import type { UsersTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';
import { patientColumns, type PatientRow } from '../patients/patients.repository';

/** A user as the app handles it: never with the password hash (only sign-in and password change read that). */
export type UserRecord = Omit<Selectable<UsersTable>, 'password_hash' | 'invited_at'> & {
  org_name: string;
  org_client_id: string;
  mfa_devices: Array<{ uuid: string; device_type: 'email' | 'google' }>;
};
/** Columns no request handler reads from the signed-in user (dates are costly to parse on every request). */
type BookkeepingColumn = 'created_at' | 'updated_at' | 'email_confirmed_at' | 'password_changed_at' | 'avatar_content_type';
/** The user as every handler sees it: what the presenter, policies and services read. */
export type UserView = Omit<UserRecord, BookkeepingColumn>;
export type SessionUserRecord = UserView & {
  session_access: 'full' | 'limited';
  /** The patient the account is (every account is one), with its data version: read with the session. */
  own_patient: PatientRow | null;
};

const USER_COLUMNS = [
  'u.id',
  'u.org_id',
  'u.email',
  'u.first_name',
  'u.last_name',
  'u.roles',
  'u.is_superadmin',
  'u.is_active',
  'u.created_at',
  'u.updated_at',
  'u.dob',
  'u.gender',
  'u.sex',
  'u.credential',
  'u.address',
  'u.city',
  'u.state',
  'u.zip_code',
  'u.phone_number',
  'u.imperial_units',
  'u.avatar_key',
  'u.avatar_content_type',
  'u.settings',
  'u.wizard_steps',
  'u.wizard_complete',
  'u.email_confirmed_at',
  'u.password_changed_at',
] as const;

const BOOKKEEPING = new Set(['u.created_at', 'u.updated_at', 'u.email_confirmed_at', 'u.password_changed_at', 'u.avatar_content_type']);
const VIEW_COLUMNS = USER_COLUMNS.filter((c) => !BOOKKEEPING.has(c)) as unknown as Array<Exclude<(typeof USER_COLUMNS)[number], `u.${BookkeepingColumn}`>>;

function withOrgAndDevices(db: Db) {
  return withOrg(db).select(USER_COLUMNS);
}

function withOrg(db: Db) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.org_id')
    .select(['o.org_name', 'o.name as org_client_id'])
    // Confirmed devices as 'type:uuid' texts: a text array costs PostgreSQL and the driver less than json_agg.
    .select(
      sql<string[]>`array(select d.device_type || ':' || d.uuid from mfa_devices d where d.user_id = u.id and d.confirmed order by d.created_at)`.as(
        'mfa_devices',
      ),
    );
}

/** Rows carry devices as 'type:uuid' texts; handlers get objects. */
function hydrate<T extends { mfa_devices: unknown }>(row: T | undefined): (Omit<T, 'mfa_devices'> & { mfa_devices: UserRecord['mfa_devices'] }) | undefined {
  if (!row) return undefined;
  const keys = row.mfa_devices as string[];
  return {
    ...row,
    mfa_devices: keys.map((key) => {
      const at = key.indexOf(':');
      return { device_type: key.slice(0, at) as 'email' | 'google', uuid: key.slice(at + 1) };
    }),
  };
}

/** The request's session and its user in one round trip (every authenticated request that misses the session cache). */
type Raw<T> = Omit<T, 'mfa_devices'> & { mfa_devices: string[] };
const OWN = 'own_patient_';
type SessionRow = Raw<Omit<SessionUserRecord, 'own_patient'>> & { session_ends_ms: number } & { [K in keyof PatientRow as `own_patient_${K}`]: PatientRow[K] | null };
let sessionUserQuery: ((db: Db, sid: string) => Promise<SessionRow[]>) | undefined;

/**
 * The signed-in user behind a live session, and when the session ends. The session id is the
 * proof (a random UUID the server issued), so this is the one user lookup without an
 * organisation scope.
 */
export async function findSessionUser(db: Db, sessionId: string): Promise<{ user: SessionUserRecord; endsAtMs: number } | undefined> {
  sessionUserQuery ??= prepare<SessionRow, [string]>(() =>
    withOrg(db)
      .select(VIEW_COLUMNS)
      .innerJoin('sessions as s', 's.user_id', 'u.id')
      .select('s.access as session_access')
      .select(sql<number>`(extract(epoch from s.expires_at) * 1000)::float8`.as('session_ends_ms'))
      .leftJoin('patients as sp', (join) => join.onRef('sp.user_id', '=', 'u.id').onRef('sp.org_id', '=', 'u.org_id'))
      .select(patientColumns('sp', 'u', OWN))
      .where('s.id', '=', '00000000-0000-0000-0000-000000000000')
      .where(sql<boolean>`s.revoked_at is null and s.expires_at > now() and u.is_active and o.deactivated_at is null`)
      .$castTo<SessionRow>(),
  );
  const row = (await sessionUserQuery(db, sessionId))[0];
  if (!row) return undefined;
  const user: Record<string, unknown> = {};
  const patient: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(OWN)) patient[key.slice(OWN.length)] = value;
    else if (key !== 'session_ends_ms') user[key] = value;
  }
  const own_patient = patient.id === null ? null : (patient as unknown as PatientRow);
  return { user: { ...hydrate(user as Raw<Omit<SessionUserRecord, 'own_patient'>>)!, own_patient }, endsAtMs: row.session_ends_ms };
}

/**
 * The organisation of a user, by id alone: for a super admin, whose scope is every
 * organisation, before a repository of that organisation is built.
 */
export async function findUserOrg(db: Db, userId: number): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('org_id').where('id', '=', userId).executeTakeFirst();
  return row?.org_id;
}

/**
 * The avatar stored under a key, while it is still its owner's current one. The key is the
 * capability (144 random bits, given only to those shown the address) and names its owner:
 * one primary-key lookup, without an organisation.
 */
export function findAvatarByKey(db: Db, userId: number, key: string): Promise<{ avatar_key: string; avatar_content_type: string | null } | undefined> {
  return db
    .selectFrom('users')
    .select(['avatar_key', 'avatar_content_type'])
    .where('id', '=', userId)
    .where('avatar_key', '=', key)
    .$narrowType<{ avatar_key: string }>()
    .executeTakeFirst();
}

/** Users of one organisation: every query is filtered by the scope's organisation. */
export class UsersRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private get orgId() {
    return this.scope.orgId;
  }

  async findById(id: number): Promise<UserRecord | undefined> {
    return hydrate(await withOrgAndDevices(this.db).where('u.org_id', '=', this.orgId).where('u.id', '=', id).executeTakeFirst());
  }

  /** For sign-in and uniqueness checks: the one lookup that also reads the password hash. */
  async findByEmail(email: string): Promise<(UserRecord & { password_hash: string | null }) | undefined> {
    return hydrate(
      await withOrgAndDevices(this.db)
        .select('u.password_hash')
        .where('u.org_id', '=', this.orgId)
        .where(sql`lower(u.email)`, '=', email.trim().toLowerCase())
        .executeTakeFirst(),
    );
  }

  /** Whether the organisation has an account with this address (case-insensitive). */
  async emailTaken(email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', this.orgId)
      .where(sql`lower(email)`, '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A new patient account, not yet confirmed. Throws the unique violation users_org_email_key when the address is taken. */
  createPatient(values: { email: string; password_hash: string; first_name: string; last_name: string; dob: string; gender: string; sex: string }) {
    return this.db
      .insertInto('users')
      .values({ ...values, org_id: this.orgId, roles: ['patient'], email_confirmed_at: null })
      .returning(['id', 'org_id', 'email', 'first_name'])
      .executeTakeFirstOrThrow();
  }

  /**
   * A new account made for someone else (an operator's super admin, an organisation's staff):
   * no password until its set-password link is used (modules/recovery/account-setup.ts).
   * Throws the unique violation users_org_email_key when the address is taken.
   */
  createWithoutPassword(values: { email: string; first_name: string; last_name: string; roles: string[]; is_superadmin: boolean }) {
    return this.db
      .insertInto('users')
      .values({ ...values, org_id: this.orgId, password_hash: null, email_confirmed_at: null })
      .returning(['id', 'org_id', 'email', 'first_name', 'last_name', 'roles', 'is_superadmin', 'settings'])
      .executeTakeFirstOrThrow();
  }

  async confirmEmail(id: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email_confirmed_at: sql`coalesce(email_confirmed_at, now())`, updated_at: sql`now()` })
      .where('org_id', '=', this.orgId)
      .where('id', '=', id)
      .execute();
  }

  /** Sets the sign-in address (already proven by a link sent to it); the unique index decides races. */
  async setEmail(id: number, email: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email, email_confirmed_at: sql`now()`, updated_at: sql`now()` })
      .where('org_id', '=', this.orgId)
      .where('id', '=', id)
      .execute();
  }

  /** Changes profile columns; `settings` is merged into the stored object, not replacing it. */
  async update(id: number, changes: UserProfileChanges, settings?: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        ...changes,
        ...(settings && Object.keys(settings).length ? { settings: sql`settings || ${JSON.stringify(settings)}::jsonb` } : {}),
        updated_at: sql`now()`,
      })
      .where('org_id', '=', this.orgId)
      .where('id', '=', id)
      .execute();
  }

  /** The hash, or null while the account has no password yet (its set-password link unused). */
  async passwordHash(id: number): Promise<string | null | undefined> {
    const row = await this.db.selectFrom('users').select('password_hash').where('org_id', '=', this.orgId).where('id', '=', id).executeTakeFirst();
    return row?.password_hash;
  }

  /**
   * Sets a new password hash. `confirmEmail`: completing a reset proves the address as a
   * confirmation link would, so an unconfirmed address becomes confirmed.
   */
  async setPassword(id: number, passwordHash: string, opts: { confirmEmail?: boolean } = {}): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        password_changed_at: sql`now()`,
        updated_at: sql`now()`,
        ...(opts.confirmEmail ? { email_confirmed_at: sql`coalesce(email_confirmed_at, now())` } : {}),
      })
      .where('org_id', '=', this.orgId)
      .where('id', '=', id)
      .execute();
  }

  /**
   * Points the user at a new avatar (or none) and answers the storage key it replaced, in one
   * transaction so that two uploads at once each learn the key they replaced.
   */
  setAvatar(id: number, avatar: { key: string; contentType: string } | null): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('users')
        .select('avatar_key')
        .where('org_id', '=', this.orgId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      await trx
        .updateTable('users')
        .set({ avatar_key: avatar?.key ?? null, avatar_content_type: avatar?.contentType ?? null, updated_at: sql`now()` })
        .where('org_id', '=', this.orgId)
        .where('id', '=', id)
        .execute();
      return current?.avatar_key ?? null;
    });
  }

  /** Adds a wizard step to those the user has marked done (once) and answers the list. */
  async addWizardStep(id: number, step: string): Promise<string[]> {
    const row = await this.db
      .updateTable('users')
      .set({
        wizard_steps: sql<string[]>`case when ${step} = any(wizard_steps) then wizard_steps else array_append(wizard_steps, ${step}::text) end`,
        updated_at: sql`now()`,
      })
      .where('org_id', '=', this.orgId)
      .where('id', '=', id)
      .returning('wizard_steps')
      .executeTakeFirst();
    return row?.wizard_steps ?? [];
  }

  async markWizardComplete(id: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ wizard_complete: true, updated_at: sql`now()` })
      .where('org_id', '=', this.orgId)
      .where('id', '=', id)
      .where('wizard_complete', '=', false)
      .execute();
  }
}

/** The profile columns PUT /me/ and PUT /users/{id} may change. */
export type UserProfileChanges = Partial<
  Pick<
    UsersTable,
    'first_name' | 'last_name' | 'gender' | 'sex' | 'credential' | 'address' | 'city' | 'state' | 'zip_code' | 'phone_number'
  > & { dob: string | null; imperial_units: boolean }
>;
