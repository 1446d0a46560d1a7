import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import SetPasswordPage from './set-password-page';

const open = (at = '/healthbook/password/set/MTI/tok-1') => renderPage({ path: 'password/set/:uid?/:token?', element: <SetPasswordPage />, at });
const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const type = (label: RegExp, value: string) => {
  fireEvent.change(field(label), { target: { value } });
  fireEvent.blur(field(label));
};
const LIVE = { email: 'ann@acme.example', first_name: 'Ann', org_name: 'Acme Health', client_id: 'healthbook' };

describe('set password page', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks the link on arrival, applies the sign-up password rules, sets the password and goes to sign-in', async () => {
    const calls = mockFetch((call) => (call.url.endsWith('/check/') ? json(200, LIVE) : json(200, { detail: 'Your password is set.', email: LIVE.email, client_id: 'healthbook' })));
    const { router } = await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your password' })).toBeTruthy();
    expect(screen.getByText('Welcome, Ann. Choose the password of your account at Acme Health:')).toBeTruthy();
    expect(screen.getByText('ann@acme.example')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/v1/account_setup/check/', body: { uid: 'MTI', token: 'tok-1' } });
    // The same hint and rules as sign-up.
    expect(screen.getByText(/At least 8 characters, with uppercase and lowercase letters/)).toBeTruthy();
    type(/^Password/, 'weakpass');
    expect(await screen.findByText('Passwords does not meet requirements')).toBeTruthy();
    type(/^Password/, 'N3w!passw0rd');
    type(/^Confirm password/, 'N3w!passw0rd');
    expect(await screen.findByText('Passwords match')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/login'));
    expect(router.state.location.state).toEqual({ passwordSet: 'ann@acme.example' });
    expect(calls[1]).toMatchObject({ url: '/api/v1/account_setup/', body: { uid: 'MTI', token: 'tok-1', password: 'N3w!passw0rd' } });
  });

  it('refuses an expired link with its message and a way to a new one', async () => {
    mockFetch(() => json(410, { detail: 'This set-password link has expired.', reason: 'expired' }));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'This link has expired' })).toBeTruthy();
    expect(screen.getByText('This set-password link has expired.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get a new link (Forgot password?)' }).getAttribute('href')).toBe('/healthbook/forgotpassword');
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });

  it('refuses a used link with its message and sign-in', async () => {
    mockFetch(() => json(410, { detail: 'This set-password link has already been used.', reason: 'used' }));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'This link has already been used' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/healthbook/login');
  });

  it('says an unknown link does not work', async () => {
    mockFetch(() => json(400, { detail: 'This set-password link is not valid.' }));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.getByText('This set-password link is not valid.')).toBeTruthy();
  });

  it('a link used meanwhile (another tab) is refused on submit like on arrival; a weak password is shown under the field', async () => {
    let answer = json(400, { password: ['Passwords does not meet requirements'] });
    mockFetch((call) => (call.url.endsWith('/check/') ? json(200, LIVE) : answer));
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Choose your password' });
    type(/^Password/, 'N3w!passw0rd');
    type(/^Confirm password/, 'N3w!passw0rd');
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(field(/^Password/).getAttribute('aria-invalid')).toBe('true'));
    answer = json(410, { detail: 'This set-password link has already been used.', reason: 'used' });
    // The first submission has ended (its button is enabled again) before the second is made: on a busy machine the error shows a moment before.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Set password' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This link has already been used' })).toBeTruthy();
  });
});
