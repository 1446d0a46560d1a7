import type { FeatureModule } from '../../lib/feature-module';

/** The Document Center (health-vault): folders and documents, attachable to health records. */
export const documentsModule: FeatureModule = {
  namespaces: ['documents', 'records', 'healthRecords', 'sharing'],
  feature: 'document-center',
  routes: [{ path: 'health-vault', page: () => import('./components/document-center-page') }],
};
