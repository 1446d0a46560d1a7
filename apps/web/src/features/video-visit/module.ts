import type { FeatureModule } from '../../lib/feature-module';

/**
 * Video visits (issue 29): a telehealth appointment's call, for its patient (or a full-access
 * carer acting for them) and its provider: the device check, the waiting room, the call. Joined
 * from the appointment's page, the dashboard card, the reminders and the provider's console.
 */
export const videoVisitModule: FeatureModule = {
  namespaces: ['videoVisit'],
  feature: 'teleconsultation',
  routes: [{ path: 'video-visit', page: () => import('./components/video-visit-page') }],
};
