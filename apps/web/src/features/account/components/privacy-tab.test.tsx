import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { fakeToken, fakeUser, json } from '../../../components/testing/fake-session';
import { clearLocalData, getSessionState, signIn } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { mockFetch, renderPage } from '../../../test/render-page';
import ProfilePage from './profile-page';

const preview = { can_close: true, grace_days: 14, dependants: [{ id: 9, first_name: 'Eleni', last_name: 'Papadaki', relationship: 'child' }], upcoming_appointments: 2, care_network: 1 };

describe('Account Settings → Privacy → Close my account', () => {
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

  it('offers the exports, lists what is erased (with the family members and appointments) and what is kept', async () => {
    mockFetch(({ url }) => (url === '/api/v1/me/closing/' ? json(200, preview) : json(404, {})));
    await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=4' });
    expect(await screen.findByRole('tab', { name: 'Privacy', selected: true })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Export FHIR (JSON)' })).toHaveProperty('pathname', '/healthbook/health-record/fhir');
    expect(screen.getByRole('link', { name: 'Export PDF' })).toHaveProperty('pathname', '/healthbook/health-record');
    const erased = screen.getByRole('list', { name: 'What will be deleted' });
    expect(within(erased).getByText('Your 2 upcoming appointments will be cancelled; the providers are told by e-mail')).toBeTruthy();
    const family = screen.getByRole('list', { name: 'This family member, managed only by you, will be erased with your account:' });
    expect(within(family).getByText('Eleni Papadaki')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'What is kept, and why' })).toBeTruthy();
  });

  it('a staff account is told to ask an administrator, and has no button', async () => {
    mockFetch(() => json(200, { ...preview, can_close: false }));
    await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=4' });
    expect(await screen.findByText('A staff account cannot be closed here. Ask an administrator of your organisation.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close my account' })).toBeNull();
  });

  it('a wrong password stays in the dialog; the right one signs out to the sign-in page with the date', async () => {
    let attempts = 0;
    const calls = mockFetch(({ url, method }) => {
      if (url === '/api/v1/me/closing/' && method === 'GET') return json(200, preview);
      if (url === '/api/v1/me/closing/' && method === 'POST') {
        attempts++;
        return attempts === 1 ? json(400, { password: ['The password is not correct.'] }) : json(202, { detail: 'ok', erase_after: '2026-12-11T10:00:00.000Z' });
      }
      return json(404, {});
    });
    await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=4' });
    fireEvent.click(await screen.findByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Wrong#Pass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close my account' }));
    expect(await within(dialog).findByText('The password is not correct.')).toBeTruthy();
    expect(getSessionState().user).not.toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Secret#2026' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close my account' }));
    expect((await screen.findByTestId('location')).textContent).toContain('/healthbook/login');
    expect(getSessionState().user).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ password: 'Wrong#Pass1' }, { password: 'Secret#2026' }]);
  });
});
