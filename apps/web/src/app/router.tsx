import { createBrowserRouter, redirect } from 'react-router';
import { DelayedLoader } from '../components/delayed-loader';
import { RouteError } from '../components/route-error';
import { lazyPage } from '../lib/lazy';
import { paths } from '../lib/paths';
import { OrganizationLayout } from './layouts/organization-layout';
import { RootLayout } from './layouts/root-layout';
import { organizationLoader, unknownPathLoader } from './organization-loader';

export const routes = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: DelayedLoader,
    children: [
      { path: '/', loader: () => redirect(paths.login()) },
      { path: '/login', loader: () => redirect(paths.login()) },
      {
        path: '/:clientId',
        id: 'organization',
        loader: organizationLoader,
        Component: OrganizationLayout,
        ErrorBoundary: RouteError,
        children: [
          { index: true, loader: ({ params }: { params: { clientId?: string } }) => redirect(paths.login(params.clientId)) },
          { path: 'login', lazy: lazyPage(() => import('../features/auth/components/login-page')) },
          { path: '404', lazy: lazyPage(() => import('../features/errors/components/not-found-page')) },
          { path: 'about', lazy: lazyPage(() => import('../features/legal/components/about-page')) },
          { path: 'privacy', lazy: lazyPage(() => import('../features/legal/components/privacy-page')) },
          { path: 'terms', lazy: lazyPage(() => import('../features/legal/components/terms-page')) },
          { path: '*', loader: unknownPathLoader },
        ],
      },
      { path: '*', loader: unknownPathLoader },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
