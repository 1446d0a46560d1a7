import type { FeatureModule } from '../../lib/feature-module';

/** The connection hub (issue 13, item 3): linked accounts in other organisations; switch, copy records, unlink. */
export const connectionHubModule: FeatureModule = {
  feature: 'connection-hub',
  routes: [{ path: 'connection-hub', page: () => import('./components/connection-hub-page') }],
};
