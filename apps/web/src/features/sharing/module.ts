import type { FeatureModule } from '../../lib/feature-module';

/**
 * Sharing, the patient's side ("Share my record"): the list of their shares, a new share (what,
 * to whom, how, until when) with its link or QR code and passcode, and one share's page with who
 * opened it, revoke and a new link or passcode. The recipients' public pages are elsewhere.
 */
export const sharingModule: FeatureModule = {
  feature: 'share-record',
  routes: [
    { path: 'sharing', page: () => import('./components/shares-page') },
    { path: 'sharing/new', page: () => import('./components/new-share-page') },
    { path: 'sharing/:id', page: () => import('./components/share-page') },
  ],
};
