import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Organization, User } from '../src/db/schema';
import { hashPassword } from '../src/lib/passwords';
import { normalizeAccessCode, randomAccessCode, sha256 } from '../src/lib/crypto';

/**
 * Builds records by name, straight through the database and storage the app uses
 * (model: outline server/test/factories.ts). Every value has a unique default.
 */

type Ctx = Pick<FastifyInstance, 'db' | 'storage'> & Partial<Pick<FastifyInstance, 'organizations'>>;

let sequence = 0;
const unique = () => `${++sequence}${randomBytes(3).toString('hex')}`;

/** A small but real SVG logo, with the organisation's colour and name in it. */
export function svgLogo(label: string, color: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><rect width="40" height="40" rx="8" fill="${color}"/><text x="48" y="26" font-family="sans-serif" font-size="16">${label}</text></svg>\n`,
  );
}

/** A valid 1x1 PNG, so an organisation's favicon can have a content type other than SVG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEhQH/1RdNbgAAAABJRU5ErkJggg==',
  'base64',
);

export interface BuildOrganizationOptions {
  name?: string;
  org_name?: string;
  org_short_name?: string;
  primary_color?: string | null;
  /** Write a logo (SVG) and a favicon (PNG) through app.storage and point the row at them. */
  withAssets?: boolean;
}

export interface BuiltOrganization extends Organization {
  /** The bytes written for the logo and favicon, when withAssets. */
  assets: { logo: Buffer; favicon: Buffer } | null;
}

export async function buildOrganization(ctx: Ctx, opts: BuildOrganizationOptions = {}): Promise<BuiltOrganization> {
  const name = opts.name ?? `org-${unique()}`;
  const primaryColor = opts.primary_color === undefined ? '#336699' : opts.primary_color;
  let assets: BuiltOrganization['assets'] = null;
  let assetColumns = {};
  if (opts.withAssets) {
    assets = { logo: svgLogo(opts.org_name ?? name, primaryColor ?? '#000000'), favicon: PNG_1X1 };
    const logoKey = `organizations/${name}-logo.svg`;
    const faviconKey = `organizations/${name}-favicon.png`;
    await ctx.storage.put(logoKey, assets.logo);
    await ctx.storage.put(faviconKey, assets.favicon);
    assetColumns = {
      logo_key: logoKey,
      logo_content_type: 'image/svg+xml',
      favicon_key: faviconKey,
      favicon_content_type: 'image/png',
    };
  }
  const row = await ctx.db
    .insertInto('organizations')
    .values({
      name,
      org_name: opts.org_name ?? `Organisation ${name}`,
      org_short_name: opts.org_short_name ?? name.slice(0, 12),
      primary_color: primaryColor,
      ...assetColumns,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // Organisations are cached (branding is every page's first call): a new one must be seen at once.
  await ctx.organizations?.forgetAll();
  return { ...row, assets };
}

export const DEFAULT_TEST_PASSWORD = 'Correct-Horse-42';

export interface BuildUserOptions {
  org: Pick<Organization, 'id'>;
  email?: string;
  password?: string;
  first_name?: string;
  last_name?: string;
  roles?: string[];
  is_superadmin?: boolean;
  is_active?: boolean;
  /** Whether the e-mail address is confirmed (default true: the account can sign in). */
  email_confirmed?: boolean;
  dob?: string;
  gender?: string;
}

export interface BuiltUser extends User {
  /** The clear-text password the hash was made from. */
  password: string;
}

export async function buildUser(ctx: Pick<Ctx, 'db'>, opts: BuildUserOptions): Promise<BuiltUser> {
  const password = opts.password ?? DEFAULT_TEST_PASSWORD;
  const row = await ctx.db
    .insertInto('users')
    .values({
      org_id: opts.org.id,
      email: opts.email ?? `user-${unique()}@example.test`,
      password_hash: await hashPassword(password),
      first_name: opts.first_name ?? 'Test',
      last_name: opts.last_name ?? 'User',
      roles: opts.roles ?? ['patient'],
      ...(opts.is_superadmin === undefined ? {} : { is_superadmin: opts.is_superadmin }),
      ...(opts.is_active === undefined ? {} : { is_active: opts.is_active }),
      email_confirmed_at: opts.email_confirmed === false ? null : new Date(),
      ...(opts.dob ? { dob: opts.dob } : {}),
      ...(opts.gender ? { gender: opts.gender, sex: opts.gender } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, password };
}

/** Signs in through the real route; answers the token pair and the user. */
export async function signIn(
  app: { inject: FastifyInstance['inject'] },
  user: { email: string; password: string; org_id: number },
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/login/',
    headers,
    payload: { email: user.email, password: user.password, org: user.org_id },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.json() as { access: string; refresh: string; user: { user_id: number } & Record<string, unknown> };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface BuildInvitationOptions {
  org: Pick<Organization, 'id'>;
  first_name?: string;
  last_name?: string;
  /** YYYY-MM-DD */
  dob?: string;
  gender?: string;
  email?: string;
  /** The clear access code (default: a fresh one). */
  code?: string;
  expires_at?: Date;
  used_at?: Date | null;
}

/** An invitation straight in the database; answers the row and its clear access code. */
export async function buildInvitation(ctx: Pick<Ctx, 'db'>, opts: BuildInvitationOptions) {
  const code = opts.code ?? randomAccessCode();
  const row = await ctx.db
    .insertInto('invitations')
    .values({
      org_id: opts.org.id,
      first_name: opts.first_name ?? 'Ada',
      last_name: opts.last_name ?? 'Lovelace',
      dob: opts.dob ?? '1990-12-10',
      gender: opts.gender ?? 'female',
      email: opts.email ?? `invitee-${unique()}@example.test`,
      code_hash: sha256(normalizeAccessCode(code)),
      expires_at: opts.expires_at ?? new Date(Date.now() + 30 * 24 * 60 * 60 * 1000),
      used_at: opts.used_at ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, code };
}

/** A second-factor device of a user, straight in the database (confirmed by default). Answers its uuid. */
export async function buildMfaDevice(
  ctx: Pick<Ctx, 'db'>,
  opts: { user: Pick<User, 'id' | 'org_id'>; type?: 'email' | 'google'; confirmed?: boolean; uuid?: string },
): Promise<string> {
  const uuid = opts.uuid ?? randomUUID();
  await ctx.db
    .insertInto('mfa_devices')
    .values({ uuid, org_id: opts.user.org_id, user_id: opts.user.id, device_type: opts.type ?? 'email', secret_enc: null, confirmed: opts.confirmed ?? true })
    .execute();
  return uuid;
}

export interface BuildGrantOptions {
  /** The patient let into (patients.id). */
  patient: { id: number; org_id: number };
  /** The person let in (null for an invitation not yet accepted by an account). */
  grantee: Pick<User, 'id'> | null;
  access?: 'full' | 'read-only';
  /** null: every category. */
  categories?: string[] | null;
  status?: 'pending' | 'active' | 'revoked' | 'declined';
  kind?: 'invitation' | 'dependant';
  /** The organisation the row is written in (default the patient's: another one forges a row across organisations). */
  org_id?: number;
  name?: string;
  email?: string;
}

/** A care-network grant straight in the database (patient_grants), as the invitation flow would leave it. */
export async function buildGrant(ctx: Pick<Ctx, 'db'>, opts: BuildGrantOptions) {
  const status = opts.status ?? 'active';
  const kind = opts.kind ?? 'invitation';
  return ctx.db
    .insertInto('patient_grants')
    .values({
      org_id: opts.org_id ?? opts.patient.org_id,
      patient_id: opts.patient.id,
      kind,
      grantee_user_id: opts.grantee?.id ?? null,
      name: opts.name ?? `Carer ${unique()}`,
      email: kind === 'invitation' ? (opts.email ?? `carer-${unique()}@example.test`) : (opts.email ?? null),
      access: opts.access ?? 'full',
      categories: opts.categories === undefined || opts.categories === null ? null : JSON.stringify(opts.categories),
      status,
      expires_at: status === 'pending' ? new Date(Date.now() + 14 * 86_400_000) : null,
      accepted_at: status === 'active' || status === 'revoked' ? new Date() : null,
      ended_at: status === 'revoked' || status === 'declined' ? new Date() : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
