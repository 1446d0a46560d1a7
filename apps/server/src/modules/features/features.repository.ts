import { sql, type Selectable } from 'kysely';
import type { FeatureDefinition, FeatureStatus } from '@healthbook/shared';
import type { Db } from '../../db/client';
import type { FeaturesTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';

export type FeatureRow = Selectable<FeaturesTable>;

/** The features catalogue: the same for every organisation (not tenant data). */
export class FeatureCatalogueRepository {
  constructor(private readonly db: Db) {}

  /** Makes the table match the declared catalogue (insert new keys, update the rest); answers every row. */
  async sync(definitions: readonly FeatureDefinition[]): Promise<FeatureRow[]> {
    await this.db
      .insertInto('features')
      .values(
        definitions.map((d, position) => ({ key: d.key, feature_route: d.route, display_name: d.displayName, icon_name: d.icon, position })),
      )
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          feature_route: eb.ref('excluded.feature_route'),
          display_name: eb.ref('excluded.display_name'),
          icon_name: eb.ref('excluded.icon_name'),
          position: eb.ref('excluded.position'),
        })),
      )
      .execute();
    return this.db.selectFrom('features').selectAll().orderBy('position').orderBy('id').execute();
  }
}

export interface ConfiguredStatus {
  feature_id: number;
  status: FeatureStatus;
  updated_at: Date;
}

/** One organisation's choices about features, and the operations its members perform. */
export class OrganizationFeaturesRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  async statuses(): Promise<ConfiguredStatus[]> {
    const rows = await this.db
      .selectFrom('organization_features')
      .select(['feature_id', 'status', 'updated_at'])
      .where('org_id', '=', this.scope.orgId)
      .execute();
    return rows.map((r) => ({ ...r, updated_at: new Date(r.updated_at) }));
  }

  async setStatus(featureId: number, status: FeatureStatus, userId: number | null): Promise<void> {
    await this.db
      .insertInto('organization_features')
      .values({ org_id: this.scope.orgId, feature_id: featureId, status, updated_by: userId })
      .onConflict((oc) => oc.columns(['org_id', 'feature_id']).doUpdateSet({ status, updated_by: userId, updated_at: sql`now()` }))
      .execute();
  }

  async recordOperation(userId: number, featureId: number): Promise<Date> {
    const row = await this.db
      .insertInto('operations')
      .values({ org_id: this.scope.orgId, user_id: userId, feature_id: featureId })
      .returning('at')
      .executeTakeFirstOrThrow();
    return new Date(row.at);
  }
}
