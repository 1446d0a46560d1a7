import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import ForgotPasswordPage from './forgot-password-page';

const open = () => renderPage({ path: 'forgotpassword', element: <ForgotPasswordPage />, at: '/healthbook/forgotpassword' });
const email = () => screen.getByLabelText(/^Email address/, { selector: 'input' });
const submit = () => screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement;

describe('forgot password page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks the address: required, then a valid one', async () => {
    const calls = mockFetch(() => json(200, {}));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Password Assistance' })).toBeTruthy();
    fireEvent.click(submit());
    expect(await screen.findByText('Email address is required')).toBeTruthy();
    fireEvent.change(email(), { target: { value: 'maria@' } });
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('sends the address lower-cased, then says so and sends no more', async () => {
    const calls = mockFetch(() => json(200, { detail: 'sent' }));
    await open();
    fireEvent.change(await screen.findByLabelText(/^Email address/, { selector: 'input' }), { target: { value: ' Maria@Example.COM ' } });
    fireEvent.click(submit());
    expect(await screen.findByText('You will receive an email with instructions')).toBeTruthy();
    expect(calls[0]).toMatchObject({ url: '/api/v1/reset_password/', method: 'POST', body: { org_id: 7, email: 'maria@example.com' } });
    expect(submit().disabled).toBe(true);
    fireEvent.submit(submit().closest('form')!);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(1);
  });

  it('shows the server answer under the field', async () => {
    mockFetch(() => json(400, { email: ['Enter a valid email address.'] }));
    await open();
    fireEvent.change(await screen.findByLabelText(/^Email address/, { selector: 'input' }), { target: { value: 'maria@example.com' } });
    fireEvent.click(submit());
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(email(), { target: { value: 'maria@example.org' } });
    await waitFor(() => expect(screen.queryByText('Enter a valid email address.')).toBeNull());
  });

  it('goes back one step, or to sign-in when the page was opened directly', async () => {
    mockFetch(() => json(200, {}));
    const { router } = await open();
    const back = await screen.findByRole('link', { name: 'Back' });
    expect(back.getAttribute('href')).toBe('/healthbook/login');
    fireEvent.click(back);
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/login'));
  });
});
