import { createElement } from 'react';
import type { ChatSocketFactory } from '../../lib/chat-socket';
import type { FeatureModule } from '../../lib/feature-module';

/**
 * Video visits (issue 29): a telehealth appointment's call, for its patient (or a full-access
 * carer acting for them) and its provider: the device check, the waiting room, the call with the
 * visit's chat beside it. Joined from the appointment's page, the dashboard card, the reminders
 * and the provider's console. The chat's socket client comes from features/live-help, which this
 * one may not import: app/feature-modules.ts passes a loader of it, fetched with the page.
 */
export function videoVisitModule(loadSocket: () => Promise<ChatSocketFactory>): FeatureModule {
  return {
    namespaces: ['videoVisit'],
    feature: 'teleconsultation',
    routes: [
      {
        path: 'video-visit',
        page: async () => {
          const [{ default: VideoVisitPage }, connect] = await Promise.all([import('./components/video-visit-page'), loadSocket()]);
          return { default: () => createElement(VideoVisitPage, { connect }) };
        },
      },
    ],
  };
}
