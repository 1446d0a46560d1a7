import { createElement } from 'react';
import type { FeatureModule } from '../../lib/feature-module';
import type { ChatSocketFactory } from '../../lib/chat-socket';

/**
 * The chat console of providers and peer coaches (`provider/chat`, guard chatStaffGuard),
 * while Live Help is active for the organisation. The socket client comes from the patient's
 * feature (live-help), which this one may not import: app/feature-modules.ts passes a loader of
 * it, fetched with the page.
 */
export function chatConsoleModule(loadSocket: () => Promise<ChatSocketFactory>): FeatureModule {
  return {
    feature: 'live-help',
    routes: [
      {
        path: 'provider/chat',
        guard: 'chatStaffGuard',
        page: async () => {
          const [{ ChatConsolePage }, connect] = await Promise.all([import('./components/chat-console-page'), loadSocket()]);
          return { default: () => createElement(ChatConsolePage, { connect }) };
        },
      },
    ],
  };
}
