import { lazy, Suspense } from 'react';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';
import { SHARE_ROUTES } from '@healthbook/shared/sharing';
import { DelayedLoader } from '../components/delayed-loader';
import { RouteError } from '../components/route-error';
import { lazyPage } from '../lib/lazy';
import { paths } from '../lib/paths';
import { loadAppShell, OrganizationLayout } from './layouts/organization-layout';
import { RootLayout } from './layouts/root-layout';
import { organizationLoader, unknownPathLoader } from './organization-loader';
import { session } from '../lib/session';
import type { GuardName } from './guards';
import { FULL_LAYOUT, watchSessionEnd } from './session-watch';
import { FEATURE_MODULES } from './feature-modules';
import { SHELL_NAMESPACES } from './shell/namespaces';
import { i18n } from '../lib/i18n';

/** A guard from app/guards.ts, loaded on first use: the sign-in page does not carry them. */
/** The signed-in pages' error view (app/access-refused.tsx), loaded when an error happens. */
const SignedInErrorView = lazy(() => import('./access-refused'));
const SignedInError = () => (
  <Suspense fallback={<DelayedLoader />}>
    <SignedInErrorView />
  </Suspense>
);

const lazyGuard = (name: GuardName) => async (args: LoaderFunctionArgs) => (await import('./guards'))[name](args);
/**
 * The pages of the registered features (app/feature-modules.ts), each behind its checks: the
 * feature active for the member's organisation, and the page's own guard if it names one.
 */
function featureRoutes(): RouteObject[] {
  return FEATURE_MODULES.flatMap(({ feature, namespaces, routes = [] }) =>
    routes.map(({ path, page, guard }) => ({
      path,
      ...(feature || guard
        ? {
            loader: async (args: LoaderFunctionArgs) => {
              const guards = await import('./guards');
              if (feature) await guards.featureGuard(feature, args);
              if (guard) await guards[guard](args);
              return null;
            },
          }
        : {}),
      lazy: lazyPage(page, { ...(namespaces ? { namespaces } : {}) }),
    })),
  );
}

/**
 * The public pages of a share's recipient (§2 "Public recipient routes"): no sign-in, in the
 * organisation's plain frame (named, so a signed-in member opening a link sees no hub either).
 * The addresses with a token only put it aside and move on (plain: nothing drawn).
 */
function shareRecipientRoutes(): RouteObject[] {
  const handle = { layout: 'limited' } as const;
  const entry = lazyPage(() => import('../features/share-recipient/components/share-entry-page'), { plain: true });
  const verification = lazyPage(() => import('../features/share-recipient/components/share-verification-page'));
  const content = lazyPage(() => import('../features/share-recipient/components/shared-content-page'));
  const ended = lazyPage(() => import('../features/share-recipient/components/share-ended-page'));
  return [
    ...[SHARE_ROUTES.linkRecords, SHARE_ROUTES.linkDocuments, SHARE_ROUTES.qrRecords].map((segment) => ({ path: `${segment}/:uid?/:token?`, handle, lazy: entry })),
    ...[SHARE_ROUTES.verifyRecords, SHARE_ROUTES.verifyDocuments, SHARE_ROUTES.verifyQr].map((path) => ({ path, handle, lazy: verification })),
    ...[SHARE_ROUTES.records, SHARE_ROUTES.documents].map((path) => ({ path, handle, lazy: content })),
    ...[SHARE_ROUTES.revoked, SHARE_ROUTES.revokedQr, SHARE_ROUTES.expired].map((path) => ({ path, handle, lazy: ended })),
  ];
}

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
          { path: 'login', loader: loginGuard, lazy: lazyPage(() => import('../features/session/components/login-page'), { plain: true }) },
          { path: '404', lazy: lazyPage(() => import('../features/errors/components/not-found-page')) },
          { path: 'deactivated', lazy: lazyPage(() => import('../features/errors/components/organization-deactivated-page')) },
          { path: 'about', lazy: lazyPage(() => import('../features/legal/components/about-page')) },
          { path: 'privacy', lazy: lazyPage(() => import('../features/legal/components/privacy-page')) },
          { path: 'terms', lazy: lazyPage(() => import('../features/legal/components/terms-page')) },
          // Sign-up, recovery and invitations (features/signup, features/recovery, features/admin)
          { path: 'register', loader: ({ params }: { params: { clientId?: string } }) => redirect(paths.accessCode(params.clientId)) },
          { path: 'access-code', lazy: lazyPage(() => import('../features/signup/components/access-code-page')) },
          { path: 'signup', lazy: lazyPage(() => import('../features/signup/components/signup-page')) },
          { path: 'email/confirm/:uid/:token', lazy: lazyPage(() => import('../features/signup/components/email-confirm-page')) },
          { path: 'email/change/:uid/:token', lazy: lazyPage(() => import('../features/account/components/email-change-confirm-page')) },
          { path: 'forgotpassword', lazy: lazyPage(() => import('../features/recovery/components/forgot-password-page')) },
          { path: 'password/reset/:uid?/:token?', lazy: lazyPage(() => import('../features/recovery/components/reset-password-page')) },
          { path: 'password/set/:uid?/:token?', lazy: lazyPage(() => import('../features/recovery/components/set-password-page')) },
          { path: 'code-retrieval', lazy: lazyPage(() => import('../features/recovery/components/code-retrieval-page')) },
          { path: 'resend-promo-code', loader: ({ params }: { params: { clientId?: string } }) => redirect(paths.codeRetrieval(params.clientId)) },
          // A care-network invitation's link (features/care-network): signed in or not, the token in the fragment.
          { path: 'caring-person-info', lazy: lazyPage(() => import('../features/care-network/components/caring-person-info-page')) },
          // The administrator's home (features/admin): the people of the organisation, one patient invited, many from a file.
          { path: 'addUser/home', loader: lazyGuard('adminGuard'), lazy: lazyPage(() => import('../features/admin/components/people-page')) },
          { path: 'addUser/invite', lazy: lazyPage(() => import('../features/admin/components/invite-patient-page')) },
          { path: 'addUser/import', loader: lazyGuard('adminGuard'), lazy: lazyPage(() => import('../features/admin/components/patient-import-page')) },
          // Session and account (features/session, features/account)
          { path: 'verify', loader: lazyGuard('verifyGuard'), lazy: lazyPage(() => import('../features/session/components/verify-page')) },
          { path: 'safeHavenLogout', loader: lazyGuard('logoutLoader') },
          // A share's recipient (features/share-recipient): no sign-in, the organisation's plain frame.
          ...shareRecipientRoutes(),
          {
            id: 'signed-in',
            loader: (args: LoaderFunctionArgs) => {
              // The shell (app bar, menu) and its texts load beside the checks and the page, not after
              // them (a failure shows where the shell is drawn).
              loadAppShell().catch(() => undefined);
              void i18n.loadNamespaces(SHELL_NAMESPACES);
              return lazyGuard('signedInGuard')(args);
            },
            handle: FULL_LAYOUT,
            // A page refused for the viewed record's access says why, inside the shell.
            ErrorBoundary: SignedInError,
            children: [
              // health-action/result comes with the surveys feature (features/surveys): without a known ?action=, the survey hub.
              ...featureRoutes(),
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
