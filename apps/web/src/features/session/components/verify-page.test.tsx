import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeToken, fakeUser, json } from '../../../components/testing/fake-session';
import { clearLocalData, getSessionState, signIn } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { mockFetch, renderPage } from '../../../test/render-page';
import VerifyPage from './verify-page';

const SPEC_TEXT = 'A verification code was send to your email. Please enter it below to continue to your account';

function limitedSession(devices: Array<'email' | 'google'> = ['email']) {
  signIn({
    access: fakeToken({ access: 'limited', org: 7 }),
    user: fakeUser({ has_mfa_enabled: true, mfa_devices: devices.map((d, i) => ({ uuid: `u${i}`, device_type: d })) }),
  });
}

const enterCode = (code: string) => fireEvent.paste(screen.getByRole('textbox', { name: 'Digit 1 of 6' }), { clipboardData: { getData: () => code } });

describe('sign-in verification page', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => clearLocalData());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for the e-mailed code; a right one stores the full session and opens the dashboard', async () => {
    limitedSession();
    const full = fakeToken({ access: 'full', org: 7 });
    const calls = mockFetch(() => json(200, { ...fakeUser({ first_name: 'Verified', has_mfa_enabled: true }), access: full, refresh: 'R-full' }));
    await renderPage({ path: 'verify', element: <VerifyPage />, at: '/healthbook/verify' });

    expect(await screen.findByRole('heading', { level: 1, name: '2-step verification' })).toBeTruthy();
    expect(screen.getByText(SPEC_TEXT)).toBeTruthy();
    expect(screen.getAllByRole('textbox')).toHaveLength(6);

    enterCode('123456');
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/dashboard');
    expect(calls[0]).toMatchObject({ url: '/api/v1/verify/', method: 'POST', body: { code: '123456' } });
    expect(calls[0]!.headers.Authorization).toMatch(/^Bearer /);
    expect(getSessionState().tokens).toEqual({ access: full });
    expect(getSessionState().claims?.access).toBe('full');
    expect(getSessionState().user?.first_name).toBe('Verified');
  });

  it('goes on to the page asked for before sign-in', async () => {
    limitedSession();
    mockFetch(() => json(200, { ...fakeUser(), access: fakeToken({ access: 'full', org: 7 }), refresh: 'R' }));
    await renderPage({ path: 'verify', element: <VerifyPage />, at: '/healthbook/verify?redirectFrom=%2Fhealthbook%2Fsettings%2Fprofile%3FtabId%3D3' });
    enterCode('123456');
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/settings/profile?tabId=3');
  });

  it('a wrong code: the spec message followed by the server text, the boxes marked invalid and usable again', async () => {
    limitedSession();
    mockFetch(() => json(400, { code: ['The code is invalid or has expired.'] }));
    await renderPage({ path: 'verify', element: <VerifyPage />, at: '/healthbook/verify' });
    await screen.findByRole('heading', { level: 1 });
    enterCode('000000');

    const alert = await screen.findByText('There was an error logging in to your account. The code is invalid or has expired.');
    expect(alert.getAttribute('role')).toBe('alert');
    await waitFor(() => expect(screen.getAllByRole('textbox').every((b) => !(b as HTMLInputElement).disabled)).toBe(true));
    expect(screen.getAllByRole('textbox').every((b) => b.getAttribute('aria-invalid') === 'true')).toBe(true);
    expect(getSessionState().claims?.access).toBe('limited');

    fireEvent.change(screen.getByRole('textbox', { name: 'Digit 6 of 6' }), { target: { value: '1' } });
    expect(screen.getAllByRole('textbox').some((b) => b.getAttribute('aria-invalid') === 'true')).toBe(false);
  });

  it('knows only the types of the second factors before the second step: no e-mail, no device ids', async () => {
    limitedSession(['email', 'google']);
    mockFetch(() => json(500, {}));
    await renderPage({ path: 'verify', element: <VerifyPage />, at: '/healthbook/verify' });
    expect(await screen.findByText(/You can also enter the code your authenticator app shows/)).toBeTruthy();
    expect(getSessionState().limitedUser?.mfa_devices).toEqual([{ device_type: 'email' }, { device_type: 'google' }]);
    expect(localStorage.getItem('user')).not.toContain('maria@example.com');
    expect(localStorage.getItem('user')).not.toContain('uuid');
    expect(document.body.textContent).not.toContain('maria@example.com');
  });

  it('says to open the authenticator app when that is the second factor', async () => {
    limitedSession(['google']);
    mockFetch(() => json(500, {}));
    await renderPage({ path: 'verify', element: <VerifyPage />, at: '/healthbook/verify' });
    expect(await screen.findByText(/Open your authenticator app/)).toBeTruthy();
    expect(screen.queryByText(SPEC_TEXT)).toBeNull();
  });

  it('Back signs out (through the logout route) to the login', async () => {
    limitedSession();
    mockFetch(() => json(500, {}));
    await renderPage({ path: 'verify', element: <VerifyPage />, at: '/healthbook/verify' });
    expect((await screen.findByRole('link', { name: 'Back' })).getAttribute('href')).toBe('/healthbook/safeHavenLogout');
  });
});
