import type { FeatureModule } from '../../lib/feature-module';

/** The help area (healthhelp, health-help), its articles and its dashboard card. */
export const helpModule: FeatureModule = {
  namespaces: ['help'],
  feature: 'help',
  routes: [
    { path: 'healthhelp', page: () => import('./components/help-page') },
    { path: 'health-help', page: () => import('./components/help-page') },
    { path: 'healthhelp/articles/:slug', page: () => import('./components/help-article-page') },
  ],
  widgets: [{ id: 'help', order: 80, load: () => import('./components/help-widget') }],
};
