import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import SignupPage from './signup-page';

const invitation = {
  user_id: 41,
  first_name: 'Maria',
  last_name: 'Papadopoulou',
  dob: '1985-04-23',
  gender: { key: 'female', value: 'Female' },
  email: 'maria@example.com',
  signup_code: 'ABC123',
  org_id: 7,
};

const open = (state: unknown = { userDetails: invitation }) =>
  renderPage({ path: 'signup', element: <SignupPage />, at: { pathname: '/healthbook/signup', state } });

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const type = (label: RegExp, value: string) => {
  fireEvent.change(field(label), { target: { value } });
  fireEvent.blur(field(label));
};
const signUp = () => screen.getByRole('button', { name: 'Sign Up' }) as HTMLButtonElement;
const terms = () => screen.getByRole('checkbox', { name: /I agree to the Terms of Service and the Privacy Policy/ });

async function fillValid() {
  await screen.findByRole('heading', { level: 1, name: 'Create an account' });
  type(/^Password/, 'Str0ng!pass');
  type(/^Confirm password/, 'Str0ng!pass');
  fireEvent.click(terms());
}

describe('sign-up page', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the invitation read-only (date of birth as MM/DD/YYYY) and the e-mail pre-filled', async () => {
    mockFetch(() => json(500, {}));
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    expect((field(/^First name/) as HTMLInputElement).value).toBe('Maria');
    expect((field(/^First name/) as HTMLInputElement).readOnly).toBe(true);
    expect((field(/^Last name/) as HTMLInputElement).value).toBe('Papadopoulou');
    expect((field(/^Date of birth/) as HTMLInputElement).value).toBe('04/23/1985');
    expect((field(/^Gender/) as HTMLInputElement).value).toBe('Female');
    expect((field(/^E-mail/) as HTMLInputElement).value).toBe('maria@example.com');
    expect(screen.getByText(/At least 8 characters/)).toBeTruthy();
  });

  it('keeps Sign Up disabled until the form is valid and the terms are accepted', async () => {
    mockFetch(() => json(500, {}));
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    expect(signUp().disabled).toBe(true);

    type(/^Password/, 'weak');
    expect(await screen.findByText('Passwords does not meet requirements')).toBeTruthy();
    type(/^Password/, 'Str0ng!pass');
    type(/^Confirm password/, 'Str0ng!pas');
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(signUp().disabled).toBe(true);

    type(/^Confirm password/, 'Str0ng!pass');
    expect(await screen.findByText('Passwords match')).toBeTruthy();
    expect(signUp().disabled).toBe(true);

    fireEvent.click(terms());
    await waitFor(() => expect(signUp().disabled).toBe(false));

    type(/^E-mail/, 'not-an-email');
    expect(await screen.findByText('E-mail must be valid')).toBeTruthy();
    await waitFor(() => expect(signUp().disabled).toBe(true));
  });

  it('opens the Terms of Service and the Privacy Policy in a dialog without ticking the box', async () => {
    mockFetch(() => json(500, {}));
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    fireEvent.click(screen.getByRole('button', { name: 'Terms of Service' }));
    const dialog = await screen.findByRole('dialog', { name: 'Terms of Service' });
    expect(await within(dialog).findByRole('heading', { level: 2, name: 'Terms of Service' })).toBeTruthy();
    expect(within(dialog).queryByRole('link', { name: 'Back to sign in' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((terms() as HTMLInputElement).checked).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Privacy Policy' }));
    expect(await screen.findByRole('dialog', { name: 'Privacy Policy' })).toBeTruthy();
  });

  it('sends the sign-up, then says to check the e-mail; OK goes to sign-in', async () => {
    const calls = mockFetch(() => json(201, { detail: 'Your account was created.' }));
    const { router } = await open();
    await fillValid();
    await waitFor(() => expect(signUp().disabled).toBe(false));
    fireEvent.click(signUp());

    const dialog = await screen.findByRole('dialog', { name: 'Check your email' });
    expect(calls[0]).toMatchObject({
      url: '/api/v1/users/register/',
      method: 'POST',
      body: {
        user_id: 41,
        first_name: 'Maria',
        last_name: 'Papadopoulou',
        sex: 'female',
        email: 'maria@example.com',
        password: 'Str0ng!pass',
        dob: '1985-04-23',
        signup_code: 'ABC123',
        is_terms_privacy_policy_accepted: true,
        org_id: 7,
      },
    });
    expect(sessionStorage.getItem('signupDetails')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/login'));
  });

  it('shows server errors under their fields (the code at the top) and clears each when its field is edited', async () => {
    mockFetch(() =>
      json(400, {
        email: ['An account with this e-mail already exists in this organisation.'],
        password: ['This password is too common.'],
        signup_code: ['This access code has already been used.'],
      }),
    );
    await open();
    await fillValid();
    await waitFor(() => expect(signUp().disabled).toBe(false));
    fireEvent.click(signUp());

    expect(await screen.findByText('An account with this e-mail already exists in this organisation.')).toBeTruthy();
    expect(screen.getByText('This password is too common.')).toBeTruthy();
    const top = screen.getByText('This access code has already been used.').closest('[role=alert]');
    expect(top).not.toBeNull();
    expect(top!.compareDocumentPosition(field(/^E-mail/)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(field(/^E-mail/).getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(field(/^E-mail/), { target: { value: 'maria2@example.com' } });
    await waitFor(() => expect(screen.queryByText('An account with this e-mail already exists in this organisation.')).toBeNull());
    expect(screen.getByText('This password is too common.')).toBeTruthy();
    fireEvent.change(field(/^Password/), { target: { value: 'Str0ng!pass2' } });
    await waitFor(() => expect(screen.queryByText('This password is too common.')).toBeNull());
  });

  it('keeps the invitation across a reload (sessionStorage)', async () => {
    sessionStorage.setItem('signupDetails', JSON.stringify(invitation));
    mockFetch(() => json(500, {}));
    await open(null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Create an account' })).toBeTruthy();
    expect((field(/^First name/) as HTMLInputElement).value).toBe('Maria');
  });

  it('sends a direct visit without an invitation to the access-code page', async () => {
    mockFetch(() => json(500, {}));
    const { router } = await open(null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/access-code'));
  });

  it('sends a signed-in user to the dashboard', async () => {
    localStorage.setItem('session', JSON.stringify({ access: 'a' }));
    mockFetch(() => json(500, {}));
    const { router } = await open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/dashboard'));
  });
});
