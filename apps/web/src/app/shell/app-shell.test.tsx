import { Suspense } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import type { FeatureEntry } from '@healthbook/shared/contracts/features';
import { FEATURES, type FeatureStatus } from '@healthbook/shared/features';
import { fakeToken, fakeUser, json } from '../../components/testing/fake-session';
import { clearLocalData, signIn } from '../../lib/auth';
import { featuresQueryOptions } from '../../lib/hub-features';
import { i18n, i18nReady } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { session } from '../../lib/session';
import { viewingPatient } from '../../lib/viewing-patient';
import { testOrg } from '../../test/render-page';
import { FULL_LAYOUT, watchSessionEnd } from '../session-watch';
import AppShell from './app-shell';

function Where() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

/** The catalogue as the server answers it: every feature active, but for the statuses given. */
function entries(statuses: Partial<Record<string, FeatureStatus>> = {}): FeatureEntry[] {
  return FEATURES.filter((f) => !('superadminOnly' in f)).map((f, i) => ({
    id: i + 1,
    key: f.key,
    feature_route: f.route,
    display_name: f.displayName,
    feature_status: statuses[f.key] ?? (f.available ? 'active' : 'inactive'),
    icon_name: f.icon,
  }));
}

const PATIENTS = [
  { patient_id: 1, first_name: 'Alex', last_name: 'Admin', dob: '1980-01-01', gender: 'other', is_self: true, access: 'owner', categories: null, relation: 'self', has_account: true },
  { patient_id: 2, first_name: 'Maria', last_name: 'Limited', dob: '1950-01-01', gender: 'female', is_self: false, access: 'read-only', categories: ['allergy'], relation: 'care-network', has_account: true },
];

const org = { ...testOrg, org_short_name: 'HB+', video_channel_url: 'https://videos.example/channel' };
let posted: Array<{ url: string; body: unknown }>;

function renderShell(at = '/healthbook/dashboard', statuses: Partial<Record<string, FeatureStatus>> = {}) {
  queryClient.setQueryData(featuresQueryOptions(org.org, 'en').queryKey, entries(statuses));
  const router = createMemoryRouter(
    [
      {
        path: '/:clientId',
        children: [
          {
            element: (
              <AppShell org={org} clientId="healthbook">
                <Outlet context={{ org, clientId: 'healthbook' }} />
              </AppShell>
            ),
            handle: FULL_LAYOUT,
            children: [{ path: 'dashboard', element: <h1>Dashboard body</h1> }],
          },
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

describe('the signed-in shell', () => {
  beforeAll(async () => {
    await i18nReady;
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    clearLocalData();
    // A desktop-wide window: the navigation is the permanent drawer.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('min-width'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
    }));
    posted = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        posted.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
        // The reminders drawer's window of the calendar: nothing in it.
        if (url.startsWith('/api/v1/calendar/events/')) return json(200, []);
        // The records the user may open: their own, and a patient's limited to allergies (read-only).
        if (url.startsWith('/api/v1/patients/')) return json(200, PATIENTS);
        return json(201, {});
      }),
    );
    signIn({ access: fakeToken({ org: org.org }), user: fakeUser({ user_org_details: [{ org: org.org, org_name: org.org_name, name: 'healthbook' }] }) });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('frames the page: app bar with the help button in the organisation’s words, avatar menu, footer', async () => {
    renderShell();
    expect(await screen.findByRole('heading', { name: 'Dashboard body' })).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get HB+ Help' }).getAttribute('href')).toBe('/healthbook/healthhelp');
    fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    expect((await screen.findByRole('menuitem', { name: 'Account Settings' })).getAttribute('href')).toBe('/healthbook/settings/profile');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/safeHavenLogout');
  });

  it('lists features by status: disabled hidden, inactive "Coming Soon!" going nowhere, active a link that saves the operation', async () => {
    renderShell('/healthbook/dashboard', { 'medical-transportation': 'disabled', help: 'active', calendar: 'inactive' });
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).queryByText('Medical Transportation')).toBeNull();
    // Named by its label, described as coming soon, and going nowhere.
    const calendar = within(nav).getByRole('button', { name: 'Interactive Calendar', description: 'Coming Soon!' });
    expect(calendar.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(calendar);
    expect(screen.getByRole('heading', { name: 'Dashboard body' })).toBeTruthy();

    fireEvent.click(within(nav).getByRole('link', { name: 'Privacy' }));
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/privacy');
    const privacy = entries().find((e) => e.key === 'privacy')!;
    await waitFor(() =>
      expect(posted).toContainEqual({ url: '/api/v1/operationsdashboard/save_operations/', body: { organization_id: org.org, feature_id: privacy.id } }),
    );
  });

  it('while a record limited to some categories is open, offers only what the grant reaches and says which categories', async () => {
    viewingPatient.set(2);
    renderShell();
    // The banner waits for the list of records (and the records' words for the categories).
    const banner = await screen.findByRole('region', { name: 'Viewed record' });
    expect(await within(banner).findByText('Only Allergies')).toBeTruthy();
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    await waitFor(() => expect(within(nav).queryByText('Interactive Calendar')).toBeNull());
    expect(within(nav).queryByText('Journal')).toBeNull();
    expect(within(nav).getByText('Allergies')).toBeTruthy();
    viewingPatient.set(null);
    expect(await within(nav).findByText('Interactive Calendar')).toBeTruthy();
  });

  it('gives staff their console: a provider the chat console and the telehealth pages, a peer coach the chat console only, a patient neither', async () => {
    const staff = (roles: string[]) =>
      signIn({ access: fakeToken({ org: org.org }), user: fakeUser({ roles, user_org_details: [{ org: org.org, org_name: org.org_name, name: 'healthbook' }] }) });
    const links = (nav: HTMLElement) => within(nav).queryAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);

    staff(['professional', 'provider']);
    renderShell();
    let nav = await screen.findByRole('navigation', { name: 'Main menu' });
    const providerGroup = within(nav).getByRole('list', { name: 'Provider console' });
    // Their console first in the menu: where they land after signing in.
    expect(within(nav).getAllByRole('link')[0]).toHaveProperty('textContent', 'My appointments');
    expect(links(providerGroup)).toEqual([
      ['My appointments', '/healthbook/provider/appointments'],
      ['Chat console', '/healthbook/provider/chat'],
      ['My availability', '/healthbook/provider/availability'],
      ['My provider profile', '/healthbook/provider/profile'],
    ]);
    cleanup();

    staff(['professional', 'coach']);
    renderShell();
    nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).queryByRole('list', { name: 'Provider console' })).toBeNull();
    expect(links(within(nav).getByRole('list', { name: 'Peer coaching' }))).toEqual([['Chat console', '/healthbook/provider/chat']]);
    expect(within(nav).queryByRole('link', { name: 'My availability' })).toBeNull();
    cleanup();

    // Without Live Help the chat console is not offered (its page sends staff to the dashboard).
    staff(['professional', 'coach']);
    renderShell('/healthbook/dashboard', { 'live-help': 'inactive' });
    nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).queryByRole('link', { name: 'Chat console' })).toBeNull();
    expect(within(nav).queryByRole('list', { name: 'Peer coaching' })).toBeNull();
    cleanup();

    staff(['patient']);
    renderShell();
    nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).queryByRole('link', { name: 'Chat console' })).toBeNull();
  });

  it('asks before leaving for the video channel, then opens it in a new tab', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderShell();
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Videos' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('You are now leaving this website, redirected to an external site, proceed?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(within(nav).getByRole('button', { name: 'Videos' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Proceed' }));
    expect(open).toHaveBeenCalledWith('https://videos.example/channel', '_blank', 'noopener,noreferrer');
  });

  it('opens the reminders drawer with the calendar of the coming days, and remembers it across reloads', async () => {
    renderShell();
    fireEvent.click(await screen.findByRole('button', { name: 'Open reminders' }));
    expect(await screen.findByText('No events found')).toBeTruthy();
    expect(posted.some((p) => p.url.startsWith('/api/v1/calendar/events/?start='))).toBe(true);
    expect(localStorage.getItem('calendarDrawer')).toBe('true');
  });

  it('applies the language kept in the user settings', async () => {
    signIn({ access: fakeToken({ org: org.org }), user: fakeUser({ settings: { language: 'el' } }) });
    renderShell();
    expect(await screen.findByRole('button', { name: 'Μενού λογαριασμού' })).toBeTruthy();
    await i18n.changeLanguage('en');
  });

  it('when the session ends under a signed-in page (refresh answered 401), goes to the login with redirectFrom', async () => {
    const router = renderShell('/healthbook/dashboard?x=1');
    const stop = watchSessionEnd(router);
    await screen.findByRole('heading', { name: 'Dashboard body' });
    session.destroy();
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/login?redirectFrom=%2Fhealthbook%2Fdashboard%3Fx%3D1');
    stop();
  });
});
