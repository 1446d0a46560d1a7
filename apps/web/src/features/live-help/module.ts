import type { FeatureModule } from '../../lib/feature-module';

/**
 * Live Help: a secure chat with a peer coach or a provider. The peer-coaching page (and its
 * chat-in-progress state), the end screen, the past chats and their transcripts; the dashboard
 * card. The chat dialog itself lives in the shell (components/live-chat-dock), so it survives
 * navigation.
 */
export const liveHelpModule: FeatureModule = {
  namespaces: ['liveHelp'],
  feature: 'live-help',
  routes: [
    { path: 'peer-coaching', page: () => import('./components/peer-coaching-page') },
    { path: 'health-help/peer-coaching/chat-in-progress', page: () => import('./components/peer-coaching-page') },
    { path: 'chat/end-secure-chat-screen', page: () => import('./components/chat-ended-page') },
    { path: 'peer-coaching/history', page: () => import('./components/chat-history-page') },
    { path: 'peer-coaching/history/:id', page: () => import('./components/chat-transcript-page') },
  ],
  widgets: [{ id: 'live-help', order: 40, load: () => import('./components/widgets/live-help-widget') }],
};
