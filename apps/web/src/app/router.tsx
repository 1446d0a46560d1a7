import { createBrowserRouter, redirect, type LoaderFunctionArgs } from 'react-router';
import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';
import { DelayedLoader } from '../components/delayed-loader';
import { RouteError } from '../components/route-error';
import { lazyPage } from '../lib/lazy';
import { paths } from '../lib/paths';
import { OrganizationLayout } from './layouts/organization-layout';
import { RootLayout } from './layouts/root-layout';
import { organizationLoader, unknownPathLoader } from './organization-loader';
import { session } from '../lib/session';
import type { GuardName } from './guards';
import { FULL_LAYOUT, watchSessionEnd } from './session-watch';

/** A guard from app/guards.ts, loaded on first use: the sign-in page does not carry them. */
const lazyGuard = (name: GuardName) => async (args: LoaderFunctionArgs) => (await import('./guards'))[name](args);
/** The login page needs its guard only when a session is stored. */
const loginGuard = (args: LoaderFunctionArgs) => (session.get() ? lazyGuard('loginGuard')(args) : null);

export const routes = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: DelayedLoader,
    children: [
      { path: '/', loader: lazyGuard('rootLoader') },
      { path: '/logout', loader: lazyGuard('logoutLoader') },
      { path: '/login', loader: () => redirect(paths.login()) },
      // Links without an organisation (old invitations and e-mails) belong to the default one.
      { path: '/register', loader: () => redirect(paths.accessCode()) },
      { path: '/code-retrieval', loader: () => redirect(paths.codeRetrieval()) },
      {
        path: '/email/confirm/:uid/:token',
        loader: ({ params }: { params: { uid?: string; token?: string } }) =>
          redirect(paths.emailConfirm(DEFAULT_CLIENT_ID, params.uid ?? '', params.token ?? '')),
      },
      {
        path: '/password/reset/:uid?/:token?',
        loader: ({ params }: { params: { uid?: string; token?: string } }) => redirect(paths.resetPassword(DEFAULT_CLIENT_ID, params.uid, params.token)),
      },
      {
        path: '/:clientId',
        id: 'organization',
        loader: organizationLoader,
        Component: OrganizationLayout,
        ErrorBoundary: RouteError,
        children: [
          { index: true, loader: ({ params }: { params: { clientId?: string } }) => redirect(paths.dashboard(params.clientId)) },
          { path: 'login', loader: loginGuard, lazy: lazyPage(() => import('../features/auth/components/login-page')) },
          { path: '404', lazy: lazyPage(() => import('../features/errors/components/not-found-page')) },
          { path: 'about', lazy: lazyPage(() => import('../features/legal/components/about-page')) },
          { path: 'privacy', lazy: lazyPage(() => import('../features/legal/components/privacy-page')) },
          { path: 'terms', lazy: lazyPage(() => import('../features/legal/components/terms-page')) },
          // Sign-up, recovery and invitations (features/signup, features/recovery, features/admin)
          { path: 'register', loader: ({ params }: { params: { clientId?: string } }) => redirect(paths.accessCode(params.clientId)) },
          { path: 'access-code', lazy: lazyPage(() => import('../features/signup/components/access-code-page')) },
          { path: 'signup', lazy: lazyPage(() => import('../features/signup/components/signup-page')) },
          { path: 'email/confirm/:uid/:token', lazy: lazyPage(() => import('../features/signup/components/email-confirm-page')) },
          { path: 'forgotpassword', lazy: lazyPage(() => import('../features/recovery/components/forgot-password-page')) },
          { path: 'password/reset/:uid?/:token?', lazy: lazyPage(() => import('../features/recovery/components/reset-password-page')) },
          { path: 'code-retrieval', lazy: lazyPage(() => import('../features/recovery/components/code-retrieval-page')) },
          { path: 'resend-promo-code', loader: ({ params }: { params: { clientId?: string } }) => redirect(paths.codeRetrieval(params.clientId)) },
          { path: 'addUser/home', lazy: lazyPage(() => import('../features/admin/components/invite-patient-page')) },
          // Session and account (features/session, features/account)
          { path: 'verify', loader: lazyGuard('verifyGuard'), lazy: lazyPage(() => import('../features/session/components/verify-page')) },
          { path: 'safeHavenLogout', loader: lazyGuard('logoutLoader') },
          {
            id: 'signed-in',
            loader: lazyGuard('signedInGuard'),
            handle: FULL_LAYOUT,
            lazy: lazyPage(() => import('./layouts/signed-in-layout')),
            children: [
              { path: 'dashboard', lazy: lazyPage(() => import('../features/account/components/dashboard-page')) },
              { path: 'settings/profile', lazy: lazyPage(() => import('../features/account/components/profile-page')) },
              { path: '2fa/register', loader: lazyGuard('mfaRegisterGuard'), lazy: lazyPage(() => import('../features/account/components/mfa-register-page')) },
              { path: '2fa/qrgoogle', loader: lazyGuard('qrGoogleGuard'), lazy: lazyPage(() => import('../features/account/components/qr-google-page')) },
              { path: 'register/success', lazy: lazyPage(() => import('../features/account/components/mfa-success-page')) },
            ],
          },
          { path: '*', loader: unknownPathLoader },
        ],
      },
      { path: '*', loader: unknownPathLoader },
    ],
  },
];

export const createRouter = () => {
  const router = createBrowserRouter(routes);
  watchSessionEnd(router);
  return router;
};
