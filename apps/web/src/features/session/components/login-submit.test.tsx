import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { fakeToken, fakeUser, json } from '../../../components/testing/fake-session';
import { clearLocalData, getSessionState } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { mockFetch, renderPage, testOrg } from '../../../test/render-page';
import LoginPage from './login-page';

async function submit(email = 'maria@example.com', password = 'Secret#2026') {
  fireEvent.change(await screen.findByLabelText(/^Email/), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('sign-in submit', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => clearLocalData());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('posts email, password and the organisation id; a full session goes to the dashboard', async () => {
    const calls = mockFetch(() => json(200, { access: fakeToken({ access: 'full', org: testOrg.org }), refresh: 'R', user: fakeUser() }));
    await renderPage({ path: 'login', element: <LoginPage />, at: '/healthbook/login' });
    await submit(' maria@example.com ');
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/dashboard');
    expect(calls[0]).toMatchObject({ url: '/api/v1/login/', method: 'POST', body: { email: 'maria@example.com', password: 'Secret#2026', org: testOrg.org } });
    expect(getSessionState().user?.email).toBe('maria@example.com');
  });

  it('a limited session (second factor) goes to verify, keeping redirectFrom', async () => {
    mockFetch(() => json(200, { access: fakeToken({ access: 'limited', org: testOrg.org }), refresh: 'R', user: fakeUser({ has_mfa_enabled: true }) }));
    await renderPage({ path: 'login', element: <LoginPage />, at: '/healthbook/login?redirectFrom=%2Fhealthbook%2Fsettings%2Fprofile' });
    await submit();
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/verify?redirectFrom=%2Fhealthbook%2Fsettings%2Fprofile');
  });

  it('wrong credentials: a clear message on the form, asked once', async () => {
    const calls = mockFetch(() => json(401, { detail: 'Incorrect authentication credentials.' }));
    await renderPage({ path: 'login', element: <LoginPage />, at: '/healthbook/login' });
    await submit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The email or password is incorrect. Please check them and try again.');
    expect(calls).toHaveLength(1);
    expect(getSessionState().tokens).toBeNull();
  });

  it('an unconfirmed e-mail (403) or too many attempts (429): the server says why', async () => {
    mockFetch(() => json(403, { detail: 'Please confirm your e-mail address before signing in.' }));
    await renderPage({ path: 'login', element: <LoginPage />, at: '/healthbook/login' });
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Please confirm your e-mail address before signing in.');
    cleanup();

    mockFetch(() => json(429, { detail: 'Too many failed sign-in attempts. Try again in 15 minutes.' }));
    await renderPage({ path: 'login', element: <LoginPage />, at: '/healthbook/login' });
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
  });

  it('the server down: a general message', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await renderPage({ path: 'login', element: <LoginPage />, at: '/healthbook/login' });
    await submit();
    expect((await screen.findByRole('alert')).textContent).toBe('We could not sign you in right now. Please try again.');
  });
});
