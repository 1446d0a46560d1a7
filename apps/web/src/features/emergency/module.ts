import type { FeatureModule } from '../../lib/feature-module';

/** The menu's Emergency: the organisation's emergency number and crisis lines, one tap away. */
export const emergencyModule: FeatureModule = {
  feature: 'emergency',
  routes: [{ path: 'emergency', page: () => import('./components/emergency-page') }],
};
