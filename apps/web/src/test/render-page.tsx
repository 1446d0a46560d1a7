import { Suspense, type ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { fakeToken, fakeUser } from '../components/testing/fake-session';
import { clearLocalData, signIn } from '../lib/auth';
import { i18n, i18nReady } from '../lib/i18n';
import type { OrganizationOutletContext } from '../lib/organization-context';

export const testOrg: OrganizationDetail = {
  org: 7,
  name: 'healthbook',
  org_name: 'HealthBook',
  org_short_name: 'HB',
  org_logo: null,
  logo_url: null,
  favicon_url: null,
  primary_color: null,
  video_channel_url: null,
  emergency_number: '112',
  crisis_lines: [],
  support_email: null,
  support_phone: null,
  user_org_details: [{ org: 7 }],
  active: true,
};

/** Any page the tested one leads to: shows where we are, so a test can see the navigation. */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

export interface RenderPageOptions {
  /** The route of the page under /:clientId, e.g. 'signup' or 'password/reset/:uid?/:token?'. */
  path: string;
  element: ReactElement;
  /** Where the test starts, e.g. '/healthbook/signup' or { pathname, state }. */
  at: string | { pathname: string; state?: unknown };
  org?: OrganizationDetail;
}

/**
 * Renders one page of the organisation layout the way the app does (outlet context {org, clientId},
 * TanStack Query, i18n catalogs loaded lazily under Suspense) in a memory router. Every other
 * path shows its location in [data-testid=location].
 */
export async function renderPage({ path, element, at, org = testOrg }: RenderPageOptions) {
  await i18nReady;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const context = (clientId: string): OrganizationOutletContext => ({ org, clientId });
  function Layout() {
    const { pathname } = useLocation();
    return <Outlet context={context(pathname.split('/')[1] ?? org.name)} />;
  }
  const router = createMemoryRouter(
    [
      {
        path: '/:clientId',
        element: <Layout />,
        children: [
          { path, element },
          { path: '*', element: <Elsewhere /> },
        ],
      },
    ],
    { initialEntries: [at] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>,
  );
  return { ...view, router };
}

export const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export interface FetchCall {
  url: string;
  method: string;
  body: unknown;
  headers: Record<string, string>;
}

/** Replaces the global fetch (the request layer calls it) with a handler; answers the calls made. */
export function mockFetch(handler: (call: FetchCall) => Response | Promise<Response>) {
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: FetchCall = {
      url: String(input),
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      headers: { ...(init.headers as Record<string, string>) },
    };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/**
 * The hooks of a describe block whose pages a signed-in patient uses: English, a fresh session
 * (full access, organisation 7) before each test, and after it the page unmounted and the
 * stubbed globals (fetch, XMLHttpRequest) put back.
 */
export function signedInPageTests(): void {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    clearLocalData();
    signIn({ access: fakeToken({ access: 'full', org: 7 }), user: fakeUser() });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
