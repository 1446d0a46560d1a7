import type { FeatureModule } from '../../lib/feature-module';

/**
 * The account area, always on: the dashboard (core), the welcome page, profile and security
 * settings, the profile questionnaire and its thank-you page, enrolling a second factor; and the dashboard's account widgets.
 */
export const accountModule: FeatureModule = {
  namespaces: ['account'],
  routes: [
    { path: 'dashboard', page: () => import('./components/dashboard-page') },
    { path: 'generic-dashboard', page: () => import('./components/dashboard-page') },
    { path: 'welcome', page: () => import('./components/welcome-page') },
    { path: 'profile-success', page: () => import('./components/profile-success-page') },
    { path: 'profile-questionnaire', page: () => import('./components/profile-questionnaire-page') },
    { path: 'profile-questionnaire/thank-you', page: () => import('./components/profile-questionnaire-thank-you-page') },
    { path: 'settings/profile', page: () => import('./components/profile-page') },
    { path: '2fa/register', page: () => import('./components/mfa-register-page'), guard: 'mfaRegisterGuard' },
    { path: '2fa/qrgoogle', page: () => import('./components/qr-google-page'), guard: 'qrGoogleGuard' },
    { path: 'register/success', page: () => import('./components/mfa-success-page') },
  ],
  widgets: [
    { id: 'wizard', order: 10, load: () => import('./components/widgets/wizard-widget') },
    { id: 'welcome-messages', order: 20, load: () => import('./components/widgets/welcome-messages-widget') },
    { id: 'account', order: 90, load: () => import('./components/widgets/account-widget') },
  ],
};
