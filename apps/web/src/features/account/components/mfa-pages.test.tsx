import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeUser, json } from '../../../components/testing/fake-session';
import { getSessionState } from '../../../lib/auth';
import { mockFetch, renderPage, signedInPageTests } from '../../../test/render-page';
import MfaRegisterPage from './mfa-register-page';
import MfaSuccessPage from './mfa-success-page';
import QrGooglePage, { secretOf } from './qr-google-page';

const LINK = 'otpauth://totp/HealthBook:maria%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=HealthBook&algorithm=SHA1&digits=6&period=30';
const enabled = fakeUser({ has_mfa_enabled: true, mfa_devices: [{ uuid: 'dev-1', device_type: 'email' }] });
const enterCode = (code: string) => fireEvent.paste(screen.getByRole('textbox', { name: 'Digit 1 of 6' }), { clipboardData: { getData: () => code } });

/** Register, then "Confirm it's you" with the password. */
async function registerWith(password = 'Secret#2026') {
  fireEvent.click(await screen.findByRole('button', { name: 'Register' }));
  const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
  expect(within(dialog).getByText('Enter your password to add a second factor to your account.')).toBeTruthy();
  fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Register' }));
  return dialog;
}

/** The dialog has gone (the page behind it is hidden from assistive technology until then). */
const dialogGone = () => waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

describe('second-factor registration', () => {
  signedInPageTests();

  it('offers both e-mail and an authenticator app, with Back and Register', async () => {
    mockFetch(() => json(500, {}));
    await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    expect(await screen.findByRole('radio', { name: /^Email/ })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: /^Authenticator app/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Register' })).toBeTruthy();
  });

  it('e-mail: registering shows the code entry; a right code enables it and leads to the success page', async () => {
    const calls = mockFetch(({ url }) => {
      if (url === '/api/v1/mfa/register/hotp/') return json(201, { uuid: 'dev-1', device_type: 'email', confirmed: false });
      if (url === '/api/v1/verify/') return json(200, enabled);
      return json(200, { status: 'pending', steps: [] });
    });
    await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    await registerWith();
    expect(await screen.findByText(/We sent a 6-digit code to maria@example.com/)).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/v1/mfa/register/hotp/', method: 'POST', body: { device_type: 'email', password: 'Secret#2026' } });
    await dialogGone();

    enterCode('654321');
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/register/success');
    expect(calls.find((c) => c.url === '/api/v1/verify/')?.body).toEqual({ code: '654321' });
    expect(getSessionState().user?.has_mfa_enabled).toBe(true);
  });

  it('e-mail: a wrong code says so and marks the boxes invalid', async () => {
    mockFetch(({ url }) =>
      url === '/api/v1/verify/' ? json(400, { code: ['The code is invalid or has expired.'] }) : json(201, { uuid: 'dev-1', device_type: 'email', confirmed: false }),
    );
    await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    await registerWith();
    await screen.findByText(/We sent a 6-digit code/);
    await dialogGone();
    enterCode('111111');
    expect(await screen.findByText('There was an error registering 2fa. The code is invalid or has expired.')).toBeTruthy();
    expect(screen.getAllByRole('textbox').every((b) => b.getAttribute('aria-invalid') === 'true')).toBe(true);
  });

  it('a failed registration shows the spec message', async () => {
    mockFetch(() => json(400, { detail: 'A second factor of this type is already enabled.' }));
    await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    await registerWith();
    expect(await screen.findByText('There was an error registering 2fa. A second factor of this type is already enabled.')).toBeTruthy();
    await dialogGone();
  });

  it('a wrong or missing password stays in the dialog, under the field; nothing is registered', async () => {
    const calls = mockFetch(() => json(400, { password: ['The password is not correct.'] }));
    await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    fireEvent.click(await screen.findByRole('button', { name: 'Register' }));
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Register' }));
    expect(await within(dialog).findByText('Password is required')).toBeTruthy();
    expect(calls).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Wrong#Pass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Register' }));
    expect(await within(dialog).findByText('The password is not correct.')).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Password/).getAttribute('aria-invalid')).toBe('true');
    // No second factor yet: no code can stand in for the password.
    expect(within(dialog).queryByRole('button', { name: 'Use a verification code instead' })).toBeNull();
    expect(screen.queryByText(/We sent a 6-digit code/)).toBeNull();
  });

  it('too many wrong passwords: the server says when to try again', async () => {
    mockFetch(() => json(429, { detail: 'Too many attempts. Try again in 15 minutes.' }));
    await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    const dialog = await registerWith('Wrong#Pass1');
    expect(await within(dialog).findByText('Too many attempts. Try again in 15 minutes.')).toBeTruthy();
  });

  it('e-mail: "Send a new code" registers again with the password given, without asking again; Back abandons the device without one', async () => {
    const calls = mockFetch(({ method }) => (method === 'DELETE' ? new Response(null, { status: 204 }) : json(201, { uuid: 'dev-1', device_type: 'email', confirmed: false })));
    await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    await registerWith();
    await screen.findByText(/We sent a 6-digit code/);
    await dialogGone();
    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toMatchObject({ url: '/api/v1/mfa/register/hotp/', body: { device_type: 'email', password: 'Secret#2026' } });

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]).toMatchObject({ url: '/api/v1/mfa/dev-1', method: 'DELETE', body: undefined });
  });

  it('authenticator app: registering goes to the QR code page with uuid and the provisioning link', async () => {
    const calls = mockFetch(() => json(201, { uuid: 'dev-2', device_type: 'google', confirmed: false, provisioning_url: LINK }));
    const { router } = await renderPage({ path: '2fa/register', element: <MfaRegisterPage />, at: '/healthbook/2fa/register' });
    fireEvent.click(await screen.findByRole('radio', { name: /^Authenticator app/ }));
    await registerWith();
    await screen.findByTestId('location');
    expect(calls[0]).toMatchObject({ url: '/api/v1/mfa/register/totp/', body: { device_type: 'google', password: 'Secret#2026' } });
    expect(router.state.location.pathname).toBe('/healthbook/2fa/qrgoogle');
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('uuid')).toBe('dev-2');
    expect(query.get('value')).toBe(LINK);
  });

  it('QR page: the code, the note, the key for typing; Continue, then a right code leads to the security settings', async () => {
    const calls = mockFetch(() => json(200, fakeUser({ has_mfa_enabled: true, mfa_devices: [{ uuid: 'dev-2', device_type: 'google' }] })));
    const at = `/healthbook/2fa/qrgoogle?uuid=dev-2&value=${encodeURIComponent(LINK)}`;
    await renderPage({ path: '2fa/qrgoogle', element: <QrGooglePage />, at });
    const image = await screen.findByRole('img', { name: 'QR code to add your account to an authenticator app' });
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByText("Don't close or refresh this window")).toBeTruthy();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    enterCode('246810');
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/settings/profile?tabId=3');
    expect(calls[0]).toMatchObject({ url: '/api/v1/verify/', body: { code: '246810' } });
    expect(getSessionState().user?.has_mfa_enabled).toBe(true);
  });

  it('QR page: Cancel deletes the device and returns to the security settings', async () => {
    const calls = mockFetch(() => new Response(null, { status: 204 }));
    await renderPage({ path: '2fa/qrgoogle', element: <QrGooglePage />, at: `/healthbook/2fa/qrgoogle?uuid=dev-2&value=${encodeURIComponent(LINK)}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/healthbook/settings/profile?tabId=3');
    expect(calls[0]).toMatchObject({ url: '/api/v1/mfa/dev-2', method: 'DELETE' });
  });

  it('success page: the spec title and text, and a Log In button', async () => {
    mockFetch(() => json(500, {}));
    await renderPage({ path: 'register/success', element: <MfaSuccessPage />, at: '/healthbook/register/success' });
    expect(await screen.findByRole('heading', { level: 1, name: '2FA Registration' })).toBeTruthy();
    expect(screen.getByText('Please check your email to complete verification')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/healthbook/login');
  });

  it('reads the key out of a provisioning link', () => {
    expect(secretOf(LINK)).toBe('JBSW Y3DP EHPK 3PXP');
    expect(secretOf('not a link')).toBeNull();
  });
});
