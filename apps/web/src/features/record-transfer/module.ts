import type { FeatureModule } from '../../lib/feature-module';

/** Taking the record to and from other health systems as FHIR R4 (a way into and out of the health records). */
export const recordTransferModule: FeatureModule = {
  feature: 'health-records',
  routes: [{ path: 'health-record/fhir', page: () => import('./components/fhir-transfer-page') }],
};
