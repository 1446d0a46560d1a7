import type { FeatureModule } from '../../lib/feature-module';

/** The journal (issue 13, item 4): dated entries with a mood and tags, a mood chart, in "My Record". */
export const journalModule: FeatureModule = {
  feature: 'journal',
  routes: [{ path: 'journal', page: () => import('./components/journal-page') }],
};
