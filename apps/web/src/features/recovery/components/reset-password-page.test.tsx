import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import ResetPasswordPage from './reset-password-page';

const open = (at = '/healthbook/password/reset/MTI/tok-1') =>
  renderPage({ path: 'password/reset/:uid?/:token?', element: <ResetPasswordPage />, at });
const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const type = (label: RegExp, value: string) => {
  fireEvent.change(field(label), { target: { value } });
  fireEvent.blur(field(label));
};

describe('reset password page', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('without uid and token, says the link is invalid and links to forgot password', async () => {
    mockFetch(() => json(500, {}));
    await open('/healthbook/password/reset');
    expect(await screen.findByText('This password reset link is invalid or has expired.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/healthbook/forgotpassword');
  });

  it('applies the password rules and sets the new password', async () => {
    const calls = mockFetch(() => json(200, { detail: 'Your password has been reset. You can sign in with the new password.' }));
    await open();
    await screen.findByRole('heading', { level: 1 });
    type(/^New password/, 'short');
    expect(await screen.findByText('Passwords does not meet requirements')).toBeTruthy();
    type(/^New password/, 'N3w!passw0rd');
    type(/^Confirm new password/, 'N3w!passw0rd');
    expect(await screen.findByText('Passwords match')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Your password has been reset. You can sign in with the new password.')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/v1/reset_password/confirm/', body: { uid: 'MTI', token: 'tok-1', password: 'N3w!passw0rd' } });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/healthbook/login');
  });

  it('shows a refused link at the top and password errors under the field', async () => {
    let answer = json(400, { detail: 'This password reset link is invalid or has expired.' });
    mockFetch(() => answer);
    await open();
    await screen.findByRole('heading', { level: 1 });
    type(/^New password/, 'N3w!passw0rd');
    type(/^Confirm new password/, 'N3w!passw0rd');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('This password reset link is invalid or has expired.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toBeTruthy();

    answer = json(400, { password: ['This password is too common.'] });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('This password is too common.')).toBeTruthy();
    expect(field(/^New password/).getAttribute('aria-invalid')).toBe('true');
  });

  it('sends a signed-in user to the dashboard', async () => {
    localStorage.setItem('session', JSON.stringify({ access: 'a' }));
    mockFetch(() => json(500, {}));
    const { router } = await open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/dashboard'));
  });
});
