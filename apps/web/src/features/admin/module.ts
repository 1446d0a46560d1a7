import type { FeatureModule } from '../../lib/feature-module';

/** Administration inside the hub: the organisation's features and settings (organisation admins and super admins). */
export const adminModule: FeatureModule = {
  routes: [
    { path: 'admin/features', page: () => import('./components/feature-settings-page'), guard: 'adminGuard' },
    { path: 'admin/account-closings', page: () => import('./components/account-closings-page'), guard: 'adminGuard' },
    { path: 'admin/record-sources', page: () => import('./components/record-sources-page'), guard: 'adminGuard' },
    { path: 'admin/help-articles', page: () => import('./components/help-articles-page'), guard: 'adminGuard' },
    { path: 'admin/surveys', page: () => import('./components/surveys-editor-page'), guard: 'adminGuard' },
    // The organisations themselves: super admins only.
    { path: 'admin/organizations', page: () => import('./components/organizations-page'), guard: 'superadminGuard' },
    { path: 'admin/organizations/new', page: () => import('./components/organization-edit-page'), guard: 'superadminGuard' },
    { path: 'admin/organizations/:organizationId', page: () => import('./components/organization-edit-page'), guard: 'superadminGuard' },
  ],
};

/** The super admins' operations dashboard (its menu item shows to super admins only). */
export const operationsModule: FeatureModule = {
  feature: 'operations',
  routes: [{ path: 'operations', page: () => import('./components/operations-page'), guard: 'superadminGuard' }],
};
