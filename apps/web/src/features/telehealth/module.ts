import type { FeatureModule } from '../../lib/feature-module';

/** Teleconsultation: the landing page of telehealth (health-help/telehealth), a search by speciality and day. */
export const telehealthModule: FeatureModule = {
  feature: 'teleconsultation',
  routes: [{ path: 'health-help/telehealth', page: () => import('./components/telehealth-page') }],
};

/** Scheduling an appointment: the providers with free slots, then confirming a slot and the confirmation. */
export const scheduleAppointmentModule: FeatureModule = {
  feature: 'schedule-appointment',
  routes: [
    { path: 'telehealth/provider-list', page: () => import('./components/provider-list-page') },
    { path: 'confirm-appointment', page: () => import('./components/confirm-appointment-page') },
    { path: 'appointment-scheduled', page: () => import('./components/appointment-scheduled-page') },
  ],
};

/** A provider's details and free slots (provider-details); without a provider, the search for one. */
export const providerSearchModule: FeatureModule = {
  feature: 'provider-search',
  routes: [{ path: 'provider-details', page: () => import('./components/provider-details-page') }],
};
