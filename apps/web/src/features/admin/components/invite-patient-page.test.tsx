import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, mockFetch, renderPage, type FetchCall } from '../../../test/render-page';
import InvitePatientPage from './invite-patient-page';

const open = () => renderPage({ path: 'addUser/invite', element: <InvitePatientPage />, at: '/healthbook/addUser/invite' });
const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const type = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
const options = { gender: [{ key: 'female', value: 'Female' }, { key: 'male', value: 'Male' }], sex: [] };

function server(invite: (call: FetchCall) => Response) {
  return mockFetch((call) => (call.url === '/api/v1/users/options/' ? json(200, options) : invite(call)));
}

async function fill() {
  await screen.findByRole('radio', { name: 'Female' });
  type(/^First name/, 'Maria');
  type(/^Last name/, 'Papadopoulou');
  type(/^Date of birth/, '04/23/1985');
  fireEvent.click(screen.getByRole('radio', { name: 'Female' }));
  type(/^E-mail/, 'maria@example.com');
}

describe('invite a patient', () => {
  beforeEach(() => localStorage.setItem('session', JSON.stringify({ access: 'admin-token' })));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('sends someone signed out to sign-in, coming back here afterwards', async () => {
    localStorage.clear();
    mockFetch(() => json(500, {}));
    const { router } = await open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/login'));
    expect(router.state.location.search).toBe(`?redirectFrom=${encodeURIComponent('/healthbook/addUser/invite')}`);
  });

  it('sends the invitation (date of birth as YYYY-MM-DD) and shows the access code', async () => {
    const calls = server(() => json(201, { id: 1, email: 'maria@example.com', signup_code: 'K7Q2MX' }));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Invite a patient' })).toBeTruthy();
    await fill();
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('The invitation was sent to maria@example.com. Access code: K7Q2MX')).toBeTruthy();
    const sent = calls.find((c) => c.url === '/api/v1/admin/invitations/');
    expect(sent).toMatchObject({
      method: 'POST',
      body: { first_name: 'Maria', last_name: 'Papadopoulou', dob: '1985-04-23', gender: 'female', email: 'maria@example.com' },
    });
    expect(sent?.headers.Authorization).toBe('Bearer admin-token');

    fireEvent.click(screen.getByRole('button', { name: 'Invite another patient' }));
    expect(((await screen.findByLabelText(/^First name/, { selector: 'input' })) as HTMLInputElement).value).toBe('');
  });

  it('checks the fields before sending', async () => {
    const calls = server(() => json(201, {}));
    await open();
    await screen.findByRole('radio', { name: 'Female' });
    type(/^Date of birth/, '01/01/2099');
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('The date of birth cannot be in the future')).toBeTruthy();
    expect(screen.getByText('Choose one of the options.')).toBeTruthy();
    expect(screen.getByText('E-mail is required')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/v1/admin/invitations/')).toHaveLength(0);
  });

  it('shows the permission message of the server to a non-admin', async () => {
    server(() => json(403, { detail: 'You do not have permission to perform this action.' }));
    await open();
    await fill();
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('You do not have permission to perform this action.')).toBeTruthy();
  });
});
