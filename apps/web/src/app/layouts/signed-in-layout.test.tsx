import { Suspense } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { fakeToken, fakeUser } from '../../components/testing/fake-session';
import { clearLocalData, signIn } from '../../lib/auth';
import { i18n, i18nReady } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { session } from '../../lib/session';
import { testOrg } from '../../test/render-page';
import { FULL_LAYOUT, watchSessionEnd } from '../session-watch';
import SignedInLayout from './signed-in-layout';

function Where() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderLayout(at = '/healthbook/dashboard') {
  const router = createMemoryRouter(
    [
      {
        path: '/:clientId',
        element: <Outlet context={{ org: testOrg, clientId: 'healthbook' }} />,
        children: [
          { element: <SignedInLayout />, handle: FULL_LAYOUT, children: [{ path: 'dashboard', element: <h1>Dashboard body</h1> }] },
          { path: '*', element: <Where /> },
        ],
      },
    ],
    { initialEntries: [at] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>,
  );
  return router;
}

describe('signed-in layout', () => {
  beforeAll(async () => {
    await i18nReady;
    await i18n.changeLanguage('en');
  });
  beforeEach(() => clearLocalData());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('frames the page with the app bar, the avatar menu (Account Settings, Sign Out) and the footer', async () => {
    signIn({ access: fakeToken({ org: 7 }), refresh: 'R', user: fakeUser() });
    renderLayout();
    expect(await screen.findByRole('heading', { name: 'Dashboard body' })).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByText('ΜP')).toBeTruthy(); // initials (Greek Μ): no picture yet

    fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    expect((await screen.findByRole('menuitem', { name: 'Account Settings' })).getAttribute('href')).toBe('/healthbook/settings/profile');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/safeHavenLogout');
  });

  it('shows nothing of the page without a full session', async () => {
    signIn({ access: fakeToken({ org: 7, access: 'limited' }), refresh: 'R', user: fakeUser() });
    renderLayout();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('heading', { name: 'Dashboard body' })).toBeNull();
  });

  it('applies the language kept in the user settings', async () => {
    signIn({ access: fakeToken({ org: 7 }), refresh: 'R', user: fakeUser({ settings: { language: 'el' } }) });
    renderLayout();
    expect(await screen.findByRole('button', { name: 'Μενού λογαριασμού' })).toBeTruthy();
    await i18n.changeLanguage('en');
  });

  it('when the session ends under a signed-in page (refresh answered 401), goes to the login with redirectFrom', async () => {
    signIn({ access: fakeToken({ org: 7 }), refresh: 'R', user: fakeUser() });
    const router = renderLayout('/healthbook/dashboard?x=1');
    const stop = watchSessionEnd(router);
    await screen.findByRole('heading', { name: 'Dashboard body' });
    session.destroy();
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/login?redirectFrom=%2Fhealthbook%2Fdashboard%3Fx%3D1');
    stop();
  });
});
