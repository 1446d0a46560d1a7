import type { FeatureModule } from '../../lib/feature-module';

/** Administration inside the hub: the organisation's features and settings (organisation admins and super admins). */
export const adminModule: FeatureModule = {
  routes: [
    { path: 'admin/features', page: () => import('./components/feature-settings-page'), guard: 'adminGuard' },
    { path: 'admin/account-closings', page: () => import('./components/account-closings-page'), guard: 'adminGuard' },
  ],
};

/** The super admins' operations dashboard (its menu item shows to super admins only). */
export const operationsModule: FeatureModule = {
  feature: 'operations',
  routes: [{ path: 'operations', page: () => import('./components/operations-page'), guard: 'superadminGuard' }],
};
