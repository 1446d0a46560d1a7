import type { FeatureModule } from '../../lib/feature-module';

/** Family members (CareClub+): records of people without an account that the user manages. */
export const familyMembersModule: FeatureModule = {
  feature: 'careclub',
  routes: [{ path: 'family-members', page: () => import('./components/family-members-page') }],
};
