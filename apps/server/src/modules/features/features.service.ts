import {
  FEATURES,
  effectiveStatus,
  featureDefinition,
  translate,
  type FeatureDefinition,
  type FeatureEntry,
  type FeatureSetting,
  type FeatureStatus,
  type Language,
} from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import { SharedCache, type MessageBus } from '../../lib/shared-cache';
import type { AuditLog } from '../audit/audit.service';
import { FeatureCatalogueRepository, OrganizationFeaturesRepository, type ConfiguredStatus, type FeatureRow } from './features.repository';
import { canManageOrganization } from './features.policy';

interface CatalogueEntry {
  row: FeatureRow;
  definition: FeatureDefinition;
}

/** An organisation's configured statuses, by feature id. */
type OrgStatuses = Map<number, ConfiguredStatus>;

/**
 * Features per organisation: the catalogue (declared in packages/shared, synced into the
 * `features` table at start), each organisation's status, what members get (a feature whose
 * page does not exist yet is "Coming Soon!"), and the operations members perform. Statuses are
 * read from memory; a change invalidates them in every process.
 */
export class FeaturesService {
  private catalogue: CatalogueEntry[] = [];
  private readonly byKey = new Map<string, CatalogueEntry>();
  private readonly byId = new Map<number, CatalogueEntry>();
  private readonly statuses: SharedCache<OrgStatuses>;
  /** The get-features answer, serialised, per organisation, language and kind of member (forgotten with the statuses). */
  private readonly answers: SharedCache<string>;

  constructor(
    private readonly db: Db,
    bus: MessageBus,
    private readonly audit: AuditLog,
  ) {
    this.statuses = new SharedCache('features', bus);
    this.answers = new SharedCache('features', bus);
  }

  /** Brings the catalogue table up to date with the declared features (every process at start; idempotent). */
  async syncCatalogue(): Promise<void> {
    const rows = await new FeatureCatalogueRepository(this.db).sync(FEATURES);
    this.catalogue = rows
      .map((row) => ({ row, definition: featureDefinition(row.key) }))
      .filter((e): e is CatalogueEntry => e.definition !== undefined);
    this.byKey.clear();
    this.byId.clear();
    for (const entry of this.catalogue) {
      this.byKey.set(entry.row.key, entry);
      this.byId.set(entry.row.id, entry);
    }
  }

  private configured(orgId: number): Promise<OrgStatuses> {
    return this.statuses.get(String(orgId), async () => {
      const rows = await new OrganizationFeaturesRepository(this.db, orgScope(orgId)).statuses();
      return new Map(rows.map((r) => [r.feature_id, r]));
    });
  }

  private present(entry: CatalogueEntry, configured: FeatureStatus, lang: Language): FeatureEntry {
    return {
      id: entry.row.id,
      key: entry.row.key,
      feature_route: entry.row.feature_route,
      display_name: translate(lang, `features:${entry.row.key}`),
      feature_status: effectiveStatus(entry.definition, configured),
      icon_name: entry.row.icon_name,
    };
  }

  /**
   * POST /features/get-features/: the features of the member's own organisation, with what the
   * member gets. Another organisation's id answers 404 (whoever asks). Super-admin-only features
   * are listed for super admins only.
   */
  async list(ctx: SignedInContext, orgId: number): Promise<FeatureEntry[]> {
    if (orgId !== ctx.actor.orgId) throw notFound();
    const configured = await this.configured(orgId);
    return this.catalogue
      .filter((e) => !e.definition.superadminOnly || ctx.actor.isSuperadmin)
      .map((e) => this.present(e, configured.get(e.row.id)?.status ?? 'active', ctx.lang));
  }

  /** The same list as JSON, kept serialised (every page load asks for it). */
  async listJson(ctx: SignedInContext, orgId: number): Promise<string> {
    if (orgId !== ctx.actor.orgId) throw notFound();
    const key = `${orgId}:${ctx.lang}:${ctx.actor.isSuperadmin ? 'super' : 'member'}`;
    return this.answers.get(key, async () => JSON.stringify(await this.list(ctx, orgId)));
  }

  /** What a member of the organisation gets of one feature (for the API's 403 and the pages' redirects). */
  async statusOf(orgId: number, key: string): Promise<FeatureStatus> {
    const entry = this.byKey.get(key);
    if (!entry) return 'disabled';
    const configured = await this.configured(orgId);
    return effectiveStatus(entry.definition, configured.get(entry.row.id)?.status ?? 'active');
  }

  /** The organisation an administrator manages: 404 for another one (or an unknown one), 403 for non-administrators. */
  private async managed(ctx: SignedInContext, orgId: number): Promise<void> {
    if (orgId !== ctx.actor.orgId && !ctx.actor.isSuperadmin) throw notFound();
    if (!canManageOrganization(ctx.actor, orgId)) {
      await this.audit.record(ctx, { action: 'feature_update', outcome: 'denied', orgId, detail: { reason: 'not_admin' } });
      throw new HttpError(403, 'errors:permissionDenied');
    }
  }

  private setting(entry: CatalogueEntry, configured: ConfiguredStatus | undefined, lang: Language): FeatureSetting {
    const status = configured?.status ?? 'active';
    return {
      ...this.present(entry, status, lang),
      configured_status: entry.definition.core ? 'active' : status,
      available: entry.definition.available,
      core: entry.definition.core === true,
      updated_at: configured ? configured.updated_at.toISOString() : null,
    };
  }

  /** GET /features/?organization_id=: every feature with the organisation's choice (administrators). */
  async settings(ctx: SignedInContext, orgId: number): Promise<FeatureSetting[]> {
    await this.managed(ctx, orgId);
    const configured = await this.configured(orgId);
    return this.catalogue.map((e) => this.setting(e, configured.get(e.row.id), ctx.lang));
  }

  /** PUT /features/{id}/: sets a feature's status for an organisation; audited; seen by every process at once. */
  async setStatus(ctx: SignedInContext, featureId: number, orgId: number, status: FeatureStatus): Promise<FeatureSetting> {
    await this.managed(ctx, orgId);
    const entry = this.byId.get(featureId);
    if (!entry) throw notFound();
    if (entry.definition.core) throw new HttpError(400, 'errors:featureCore');
    const before = (await this.configured(orgId)).get(featureId)?.status ?? 'active';
    await new OrganizationFeaturesRepository(this.db, orgScope(orgId)).setStatus(featureId, status, ctx.actor.userId);
    await this.statuses.invalidate(String(orgId));
    await this.answers.invalidate(String(orgId));
    await this.audit.record(ctx, {
      action: 'feature_update',
      outcome: 'success',
      orgId,
      subject: `feature:${entry.row.key}`,
      detail: { from: before, to: status },
    });
    return this.setting(entry, (await this.configured(orgId)).get(featureId), ctx.lang);
  }

  /**
   * POST /operationsdashboard/save_operations/: a member opened a feature from the menu. Own
   * organisation only (404 otherwise); a feature members cannot use answers 403.
   */
  async recordOperation(ctx: SignedInContext, orgId: number, featureId: number): Promise<Date> {
    if (orgId !== ctx.actor.orgId) throw notFound();
    const entry = this.byId.get(featureId);
    if (!entry) throw new FieldError({ feature_id: ['validation:featureUnknown'] });
    const status = await this.statusOf(orgId, entry.row.key);
    if (status !== 'active' || (entry.definition.superadminOnly && !ctx.actor.isSuperadmin)) throw featureRefused(status);
    return new OrganizationFeaturesRepository(this.db, orgScope(orgId)).recordOperation(ctx.actor.userId, featureId);
  }

  /** The key of a feature, by id (the operations dashboard names features). */
  keyOf(featureId: number): string | undefined {
    return this.byId.get(featureId)?.row.key;
  }

  /** A feature's name in a language, by id. */
  displayName(featureId: number, lang: Language): string {
    const entry = this.byId.get(featureId);
    return entry ? translate(lang, `features:${entry.row.key}`) : String(featureId);
  }

  /** Checks, for a route of a feature, that the actor's organisation has it on. */
  /** Refuses (403) unless the actor's organisation has the feature active (or one of several: any one suffices). */
  async require(ctx: ServiceContext, keys: string | readonly string[]): Promise<void> {
    if (!ctx.actor) return;
    const statuses = await Promise.all([keys].flat().map((key) => this.statusOf(ctx.actor!.orgId, key)));
    if (!statuses.includes('active')) throw featureRefused(statuses[0]!);
  }
}

const featureRefused = (status: FeatureStatus) => new HttpError(403, status === 'disabled' ? 'errors:featureDisabled' : 'errors:featureInactive');

declare module 'fastify' {
  interface FastifyInstance {
    features: FeaturesService;
  }
  interface FastifyContextConfig {
    /** The feature this route belongs to (or features: one active suffices): unless the actor's organisation has it active, 403. */
    feature?: string | readonly string[];
  }
}

export default servicePlugin('features', ['db', 'cache', 'audit-service'], (app) => {
  const service = new FeaturesService(app.db, app.bus, app.audit);
  app.addHook('onReady', () => service.syncCatalogue());
  return service;
});
