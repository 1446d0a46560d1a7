import type { OrganizationSettingsBody, OrgRef } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { SharedCache, type MessageBus } from '../../lib/shared-cache';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import { presentNotFound, presentOrganization } from './organizations.presenter';
import { OrganizationsRepository, type OrganizationRow } from './organizations.repository';

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

  constructor(
    db: Db,
    bus: MessageBus,
    private readonly audit: AuditLog,
  ) {
    this.repo = new OrganizationsRepository(db);
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
}

declare module 'fastify' {
  interface FastifyInstance {
    organizations: OrganizationsService;
  }
}

export default servicePlugin('organizations', ['db', 'cache', 'audit-service'], (app) => new OrganizationsService(app.db, app.bus, app.audit));
