import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import AccessCodePage from './access-code-page';

const invitation = {
  user_id: null,
  first_name: 'Maria',
  last_name: 'Papadopoulou',
  dob: '1985-04-23',
  gender: { key: 'female', value: 'Female' },
  email: 'maria@example.com',
  signup_code: 'ABC123',
  org_id: 7,
};

const open = () => renderPage({ path: 'access-code', element: <AccessCodePage />, at: '/healthbook/access-code' });
const codeField = () => screen.getByLabelText(/Access code/);

describe('access code page', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the title, the note, the resend link and a way back to sign-in', async () => {
    mockFetch(() => json(500, {}));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter your access code' })).toBeTruthy();
    expect(screen.getByText(/access code from the invitation we sent you by e-mail/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Resend access code' }).getAttribute('href')).toBe('/healthbook/code-retrieval');
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/healthbook/login');
    await waitFor(() => expect(document.title).toBe('Enter your access code | HealthBook'));
  });

  it('requires the code', async () => {
    const calls = mockFetch(() => json(500, {}));
    await open();
    fireEvent.click(await screen.findByRole('button', { name: 'Enter Code' }));
    expect(await screen.findByText('Access code is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('marks a code the server rejects as invalid until the field is edited', async () => {
    const calls = mockFetch(() => json(404, { detail: 'Not found.' }));
    await open();
    fireEvent.change(await screen.findByLabelText(/Access code/), { target: { value: 'WRONG1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enter Code' }));
    expect(await screen.findByText('Access code is invalid')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/v1/users/validate/', method: 'POST', body: { org_id: 7, signup_code: 'WRONG1' } });
    expect(codeField().getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(codeField(), { target: { value: 'WRONG12' } });
    await waitFor(() => expect(screen.queryByText('Access code is invalid')).toBeNull());
  });

  it('goes to the sign-up page with the invitation, kept in sessionStorage for a reload', async () => {
    mockFetch(() => json(200, invitation));
    const { router } = await open();
    fireEvent.change(await screen.findByLabelText(/Access code/), { target: { value: ' ABC123 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enter Code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/signup'));
    expect(router.state.location.state).toEqual({ userDetails: invitation });
    expect(JSON.parse(sessionStorage.getItem('signupDetails')!)).toEqual(invitation);
  });
});
