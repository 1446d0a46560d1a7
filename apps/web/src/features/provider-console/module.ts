import type { FeatureModule } from '../../lib/feature-module';

/** The provider console: availability, bookings and the public profile (users with the provider role). */
export const providerConsoleModule: FeatureModule = {
  routes: [
    { path: 'provider/availability', page: () => import('./components/availability-page'), guard: 'providerGuard' },
    { path: 'provider/appointments', page: () => import('./components/appointments-page'), guard: 'providerGuard' },
    { path: 'provider/profile', page: () => import('./components/profile-page'), guard: 'providerGuard' },
  ],
};
