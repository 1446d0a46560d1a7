import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminOrganization, OrganizationAsset, OrganizationSettingsBody, OrgRef, UpdateOrganizationFields } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { randomToken } from '../../lib/crypto';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { SharedCache, type MessageBus } from '../../lib/shared-cache';
import { servicePlugin } from '../../lib/service-plugin';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { ASSET_EXTENSIONS, prepareAsset } from './organization-assets';
import { canAdministerOrganizations, type OrganizationAdminAction } from './organizations.policy';
import { presentAdminOrganization, presentNotFound, presentOrganization } from './organizations.presenter';
import { OrganizationAdminRepository, OrganizationsRepository, type OrganizationRow } from './organizations.repository';

/** A unique-index violation (the client id taken by a request that won the race). */
const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';

/**
 * The organisations (tenants) and their branding: the first call of every page, so answered
 * from memory. A change through this service invalidates the copy in every process (Redis
 * pub/sub with REDIS_URL); the copy also expires after 30 seconds.
 */
export class OrganizationsService {
  private readonly repo: OrganizationsRepository;
  private readonly cache: SharedCache<OrganizationRow | null>;
  private readonly listCache: SharedCache<OrganizationRow[]>;
  /** The public branding answers, serialised (every page's first call). */
  private readonly answers: SharedCache<string>;

  private readonly admin: OrganizationAdminRepository;

  constructor(
    db: Db,
    bus: MessageBus,
    private readonly audit: AuditLog,
    /** The file store for logos and favicons (a command that changes no asset may leave it out). */
    private readonly storageOrNone?: Storage,
  ) {
    this.repo = new OrganizationsRepository(db);
    this.admin = new OrganizationAdminRepository(db);
    this.cache = new SharedCache('organizations', bus);
    this.listCache = new SharedCache('organizations', bus);
    this.answers = new SharedCache('organizations', bus);
  }

  /** GET /organization_detail_by_name/{name} as JSON: the branding, or the original's "Organization not found". */
  lookupJson(name: string): Promise<string> {
    const key = name.toLowerCase();
    return this.answers.get(`answer:${key}`, async () => {
      const org = await this.findByName(key);
      return JSON.stringify(org ? presentOrganization(org) : presentNotFound(key));
    });
  }

  async findByName(name: string): Promise<OrganizationRow | undefined> {
    const key = name.toLowerCase();
    return (await this.cache.get(`name:${key}`, async () => (await this.repo.findByName(key)) ?? null)) ?? undefined;
  }

  async findById(id: number): Promise<OrganizationRow | undefined> {
    return (await this.cache.get(`id:${id}`, async () => (await this.repo.findById(id)) ?? null)) ?? undefined;
  }

  /** An organisation as clients name it: by id, or by client id (case-insensitive). */
  resolve(ref: OrgRef): Promise<OrganizationRow | undefined> {
    return typeof ref === 'number' ? this.findById(ref) : this.findByName(ref);
  }

  /**
   * The one rule for a deactivated organisation: nothing is done in its name (sign-in, sign-up,
   * password and access-code recovery, set-password and care-network links) until it is
   * reactivated: 403 `organization_deactivated` with a message naming it (`message`: sign-in
   * says so in its own words). An unknown organisation passes: its caller answers as it does for
   * any unknown one. An organisation's status is public (its branding tells it), so the refusal
   * tells nothing about any account. Answers the organisation, when it is known.
   */
  async requireActive(ref: OrgRef | OrganizationRow | undefined, message = 'errors:organizationUnavailable'): Promise<OrganizationRow | undefined> {
    const org = ref === undefined || typeof ref === 'object' ? ref : await this.resolve(ref);
    if (org?.deactivated_at) throw new HttpError(403, message, { orgName: org.org_name }, {}, { code: 'organization_deactivated' });
    return org;
  }

  list(): Promise<OrganizationRow[]> {
    return this.listCache.get('list', () => this.repo.list());
  }

  /** Forgets every cached organisation, here and in every process (after organisations are added outside this service). */
  async forgetAll(): Promise<void> {
    await this.cache.invalidate('*');
    await this.answers.invalidate('*');
    await this.listCache.invalidate('*');
  }

  /** Changes an organisation's settings (administrators; the caller checks who), audited, seen everywhere at once. */
  async updateSettings(ctx: SignedInContext, org: OrganizationRow, settings: OrganizationSettingsBody): Promise<OrganizationRow> {
    await this.repo.updateSettings(org.id, settings);
    await this.forgetAll();
    await this.audit.record(ctx, { action: 'organization_update', outcome: 'success', orgId: org.id, detail: { fields: Object.keys(settings).join(',') } });
    return (await this.findById(org.id))!;
  }

  // ---- Super admins: the organisations themselves ----

  private get storage(): Storage {
    if (!this.storageOrNone) throw new Error('OrganizationsService was built without a file store');
    return this.storageOrNone;
  }

  private allow(ctx: SignedInContext, action: OrganizationAdminAction): void {
    if (!canAdministerOrganizations(ctx.actor, action)) throw new HttpError(403, 'errors:permissionDenied');
  }

  private async adminRow(id: number) {
    const row = await this.admin.find(id);
    if (!row) throw notFound();
    return row;
  }

  /** GET /admin/organizations/: every organisation with its people counted and its status. */
  async adminList(ctx: SignedInContext): Promise<AdminOrganization[]> {
    this.allow(ctx, 'list');
    return (await this.admin.list()).map(presentAdminOrganization);
  }

  async adminGet(ctx: SignedInContext, id: number): Promise<AdminOrganization> {
    this.allow(ctx, 'read');
    return presentAdminOrganization(await this.adminRow(id));
  }

  /** POST /admin/organizations/: a new organisation, active at once (its logo and favicon follow). */
  async create(ctx: SignedInContext, body: UpdateOrganizationFields & { name: string; org_name: string; org_short_name: string; primary_color: string }): Promise<AdminOrganization> {
    this.allow(ctx, 'create');
    if (await this.admin.nameTaken(body.name)) throw new FieldError({ name: ['validation:clientIdTaken'] });
    let id: number;
    try {
      id = await this.admin.create(body);
    } catch (err) {
      if (isUniqueViolation(err)) throw new FieldError({ name: ['validation:clientIdTaken'] });
      throw err;
    }
    await this.forgetAll();
    await this.audit.record(ctx, { action: 'organization_create', outcome: 'success', orgId: id, detail: { client_id: body.name } });
    return presentAdminOrganization(await this.adminRow(id));
  }

  /** PATCH /admin/organizations/{id}/: names, client id, colour and settings; each field sent is changed. */
  async adminUpdate(ctx: SignedInContext, id: number, body: UpdateOrganizationFields): Promise<AdminOrganization> {
    this.allow(ctx, 'update');
    const before = await this.adminRow(id);
    if (body.name !== undefined && body.name !== before.name && (await this.admin.nameTaken(body.name, id))) {
      throw new FieldError({ name: ['validation:clientIdTaken'] });
    }
    try {
      await this.admin.update(id, body);
    } catch (err) {
      if (isUniqueViolation(err)) throw new FieldError({ name: ['validation:clientIdTaken'] });
      throw err;
    }
    await this.forgetAll();
    const fields = Object.keys(body);
    await this.audit.record(ctx, {
      action: 'organization_update',
      outcome: 'success',
      orgId: id,
      detail: { fields: fields.join(','), ...(body.name && body.name !== before.name ? { client_id_from: before.name, client_id_to: body.name } : {}) },
    });
    return presentAdminOrganization(await this.adminRow(id));
  }

  /**
   * PUT /admin/organizations/{id}/{asset}/: a new logo or favicon (PNG, JPEG, WebP with their
   * metadata stripped, or a sanitised SVG; bounded in bytes and pixels), stored under a new
   * name; the previous file is deleted. Nothing is written when it is refused.
   */
  async setAsset(ctx: SignedInContext, id: number, asset: OrganizationAsset, data: Buffer): Promise<AdminOrganization> {
    this.allow(ctx, 'update');
    const org = await this.adminRow(id);
    const prepared = prepareAsset(asset, data);
    if (!prepared.ok) {
      await this.audit.record(ctx, { action: 'organization_asset', outcome: 'failure', orgId: id, detail: { asset, reason: prepared.problem.split(':')[1] ?? prepared.problem } });
      throw new FieldError({ file: [{ key: prepared.problem, vars: prepared.vars }] });
    }
    const key = `organizations/${org.id}-${asset}-${randomToken(12)}.${ASSET_EXTENSIONS[prepared.type]}`;
    await this.storage.put(key, prepared.data);
    let previous: string | null;
    try {
      previous = await this.admin.setAsset(id, asset, { key, contentType: prepared.type });
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw err;
    }
    await this.forgetAll();
    if (previous && previous !== key) await this.deleteQuietly(ctx, previous);
    await this.audit.record(ctx, { action: 'organization_asset', outcome: 'success', orgId: id, detail: { asset, type: prepared.type, bytes: prepared.data.length } });
    return presentAdminOrganization(await this.adminRow(id));
  }

  /** DELETE /admin/organizations/{id}/{asset}/: back to the product's own. */
  async removeAsset(ctx: SignedInContext, id: number, asset: OrganizationAsset): Promise<AdminOrganization> {
    this.allow(ctx, 'update');
    await this.adminRow(id);
    const previous = await this.admin.setAsset(id, asset, null);
    await this.forgetAll();
    if (previous) await this.deleteQuietly(ctx, previous);
    await this.audit.record(ctx, { action: 'organization_asset_remove', outcome: 'success', orgId: id, detail: { asset } });
    return presentAdminOrganization(await this.adminRow(id));
  }

  /**
   * POST /admin/organizations/{id}/deactivate/ and /reactivate/. Deactivating ends every session
   * of its members in the same transaction (the database tells every process); its data is kept.
   * A super admin cannot deactivate their own organisation (they would lock themselves out).
   */
  async setActive(ctx: SignedInContext, id: number, active: boolean): Promise<AdminOrganization> {
    this.allow(ctx, 'deactivate');
    await this.adminRow(id);
    if (!active && id === ctx.actor.orgId) throw new HttpError(409, 'errors:organizationOwnDeactivate');
    const action = active ? 'organization_reactivate' : 'organization_deactivate';
    await this.admin.setActive(id, active, (trx) => this.audit.record(ctx, { action, outcome: 'success', orgId: id }, trx));
    await this.forgetAll();
    return presentAdminOrganization(await this.adminRow(id));
  }

  private async deleteQuietly(ctx: SignedInContext, key: string) {
    try {
      await this.storage.delete(key);
    } catch (err) {
      ctx.log.warn({ err, key }, 'an organisation asset could not be deleted');
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    organizations: OrganizationsService;
  }
  interface FastifyContextConfig {
    /**
     * A public route acting in an organisation's name that its body names (the field: `org` or
     * `org_id`): refused while that organisation is deactivated (OrganizationsService.requireActive),
     * after validation, before the handler. See refuseDeactivatedOrganizations.
     */
    organizationFrom?: 'org' | 'org_id';
  }
}

/**
 * The public context's guard: every route whose config names where its body names the
 * organisation (`organizationFrom`) gets, after validation, the one rule of
 * OrganizationsService.requireActive. Routes whose organisation comes from a link (uid and token)
 * apply the same rule in their service, once the link is proven, so an unproven link tells nothing.
 */
export function refuseDeactivatedOrganizations(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const field = route.config?.organizationFrom;
    if (!field) return;
    const guard = async (request: FastifyRequest) => {
      const ref = (request.body as Record<string, OrgRef | undefined> | undefined)?.[field];
      if (ref !== undefined) await app.organizations.requireActive(ref);
    };
    route.preHandler = [...[route.preHandler ?? []].flat(), guard] as typeof route.preHandler;
  });
}

export default servicePlugin('organizations', ['db', 'cache', 'audit-service', 'storage'], (app) => new OrganizationsService(app.db, app.bus, app.audit, app.storage));
