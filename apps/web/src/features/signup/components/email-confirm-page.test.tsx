import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import EmailConfirmPage from './email-confirm-page';

const open = () => renderPage({ path: 'email/confirm/:uid/:token', element: <EmailConfirmPage />, at: '/healthbook/email/confirm/MTI/abc-123' });

describe('e-mail confirmation page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('confirms the address on arrival, once, and offers sign-in', async () => {
    const calls = mockFetch(() => json(200, { detail: 'Your e-mail address is confirmed. You can sign in now.' }));
    await open();
    expect(await screen.findByText('Your e-mail address is confirmed. You can sign in now.')).toBeTruthy();
    expect(calls).toEqual([expect.objectContaining({ url: '/api/v1/users/confirm_email/', method: 'POST', body: { uid: 'MTI', token: 'abc-123' } })]);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/healthbook/login');
  });

  it('shows the server message for an invalid or expired link, with a link to sign-in', async () => {
    mockFetch(() => json(400, { detail: 'This confirmation link is invalid or has expired.' }));
    await open();
    expect(await screen.findByText('This confirmation link is invalid or has expired.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to sign in' }).getAttribute('href')).toBe('/healthbook/login');
  });
});
