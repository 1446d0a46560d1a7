import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import EmailChangeConfirmPage from './email-change-confirm-page';

const open = () => renderPage({ path: 'email/change/:uid/:token', element: <EmailChangeConfirmPage />, at: '/healthbook/email/change/MTI/tok-9' });

describe('e-mail change link page', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('changes the address on arrival, once, without a sign-in, and offers sign-in', async () => {
    const calls = mockFetch(() => json(200, { detail: 'Your e-mail address is now maria.new@example.com.' }));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'E-mail address changed' })).toBeTruthy();
    expect(screen.getByText('Your e-mail address is now maria.new@example.com.')).toBeTruthy();
    expect(calls).toEqual([expect.objectContaining({ url: '/api/v1/users/confirm_email_change/', method: 'POST', body: { uid: 'MTI', token: 'tok-9' } })]);
    expect(calls[0]!.headers.Authorization).toBeUndefined();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/healthbook/login');
  });

  it('says so for an invalid, used or expired link', async () => {
    mockFetch(() => json(400, {}));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'E-mail address change' })).toBeTruthy();
    expect(screen.getByText('This link is invalid or has expired. You can ask for the change again in your account settings.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to sign in' }).getAttribute('href')).toBe('/healthbook/login');
  });

  it('shows the server words for a refused link', async () => {
    mockFetch(() => json(400, { detail: 'This link has already been used.' }));
    await open();
    expect(await screen.findByText('This link has already been used.')).toBeTruthy();
  });
});
