import type { FeatureModule } from '../../lib/feature-module';

/** Insurance cards: insurer, plan, member and group numbers, the holder, validity, photos of both sides. */
export const insuranceModule: FeatureModule = {
  feature: 'insurance',
  routes: [{ path: 'insurance', page: () => import('./components/insurance-page') }],
};
