import type { FeatureModule } from '../../lib/feature-module';

/**
 * The care network (issue 13, item 1; feature `careclub`, "CareClub+"): the people a patient lets
 * into their record, the records the user was let into, and who saw the record. The invitation's
 * landing page (caring-person-info) is public: app/router.tsx registers it beside sign-up.
 */
export const careNetworkModule: FeatureModule = {
  namespaces: ['careNetwork', 'records'],
  feature: 'careclub',
  routes: [{ path: 'careclub', page: () => import('./components/care-network-page') }],
};
