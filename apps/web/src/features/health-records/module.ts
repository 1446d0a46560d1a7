import type { FeatureModule } from '../../lib/feature-module';

/** Health records: the overview, a list per category, a record, its form, the providers connected; and the dashboard's recent records. */
export const healthRecordsModule: FeatureModule = {
  namespaces: ['healthRecords', 'records', 'validation', 'sharing', 'sources'],
  feature: 'health-records',
  routes: [
    { path: 'health-record', page: () => import('./components/records-overview-page') },
    { path: 'health-record/:category', page: () => import('./components/record-list-page') },
    { path: 'health-record/lab/trend', page: () => import('./components/lab-trend-page') },
    // The providers connected (SMART on FHIR), and the page a provider sends the browser back to.
    { path: 'health-record/connections', page: () => import('./components/connections-page') },
    { path: 'health-record/connections/callback', page: () => import('./components/connection-callback-page') },
    { path: 'health-record/:category/new', page: () => import('./components/record-form-page') },
    { path: 'health-record/:category/:id', page: () => import('./components/record-detail-page') },
    { path: 'health-record/:category/:id/edit', page: () => import('./components/record-form-page') },
  ],
  widgets: [{ id: 'recent-records', order: 30, load: () => import('./components/widgets/recent-records-widget'), patientsOnly: true }],
};
