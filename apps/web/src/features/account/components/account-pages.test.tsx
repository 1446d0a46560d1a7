import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { fakeToken, fakeUser, json } from '../../../components/testing/fake-session';
import { clearLocalData, getSessionState, signIn } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { mockFetch, renderPage } from '../../../test/render-page';
import { DashboardWidgetsContext } from '../../../lib/dashboard-widgets';
import { accountModule } from '../module';
import Dashboard from './dashboard-page';

/** The dashboard with the account's widgets, as the shell provides them. */
const DashboardPage = () => (
  <DashboardWidgetsContext.Provider value={accountModule.widgets ?? []}>
    <Dashboard />
  </DashboardWidgetsContext.Provider>
);
import ProfilePage from './profile-page';

const pendingWizard = {
  status: 'pending',
  steps: [
    { model_name: 'profile', title: 'Complete your profile', completed: true },
    { model_name: 'mfa', title: 'Turn on two-step verification', completed: false },
    { model_name: 'health_record', title: 'Add to your health record', completed: false },
  ],
};

function signedInAs(user: UserDto = fakeUser()) {
  signIn({ access: fakeToken({ access: 'full', org: 7 }), user });
}

describe('signed-in pages', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => clearLocalData());
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  describe('dashboard', () => {
    it('greets the user and shows the welcome messages and the pending wizard with its steps', async () => {
      signedInAs();
      mockFetch(({ url }) => {
        if (url === '/api/v1/wizard/') return json(200, pendingWizard);
        if (url === '/api/v1/users/get_welcome_messages/' + fakeUser().user_id) return json(200, [{ id: 1, title: 'Welcome!', message: 'We are glad you are here.' }]);
        return json(404, {});
      });
      await renderPage({ path: 'dashboard', element: <DashboardPage />, at: '/healthbook/dashboard' });
      expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Μαρία' })).toBeTruthy();
      expect(await screen.findByText('We are glad you are here.')).toBeTruthy();
      const wizard = await screen.findByRole('region', { name: 'Get started' });
      expect(within(wizard).getByText('1 of 3 steps done')).toBeTruthy();
      expect(within(wizard).getByRole('link', { name: 'Turn on two-step verification' }).getAttribute('href')).toBe('/healthbook/2fa/register');
      expect(within(wizard).getByText('Complete your profile')).toBeTruthy();
      expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    });

    it('Minimize keeps the choice in the settings (PUT /api/v1/me/) and hides the wizard', async () => {
      signedInAs(fakeUser({ settings: { dark: true } }));
      const calls = mockFetch(({ url, method, body }) => {
        if (url === '/api/v1/wizard/') return json(200, getSessionState().user?.settings.isWizardMinimized ? { ...pendingWizard, status: 'minimized' } : pendingWizard);
        if (url === '/api/v1/me/' && method === 'PUT') return json(200, fakeUser({ settings: (body as { settings: UserDto['settings'] }).settings }));
        return json(200, []);
      });
      await renderPage({ path: 'dashboard', element: <DashboardPage />, at: '/healthbook/dashboard' });
      fireEvent.click(await screen.findByRole('button', { name: 'Minimize' }));
      await waitFor(() => expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull());
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ settings: { dark: true, isWizardMinimized: true } });
    });

    it('shows no wizard once it is completed or minimized', async () => {
      signedInAs(fakeUser({ wizard_complete: true }));
      mockFetch(({ url }) => (url === '/api/v1/wizard/' ? json(200, { status: 'completed', steps: [] }) : json(200, [])));
      await renderPage({ path: 'dashboard', element: <DashboardPage />, at: '/healthbook/dashboard' });
      await screen.findByRole('heading', { level: 1 });
      expect(screen.queryByRole('region', { name: 'Get started' })).toBeNull();
    });
  });

  describe('profile', () => {
    it('opens the tab named by tabId; the security tab lists the second factors and removes one after the password', async () => {
      signedInAs(fakeUser({ has_mfa_enabled: true, mfa_devices: [{ uuid: 'dev-1', device_type: 'email' }] }));
      const calls = mockFetch(({ url, method }) => {
        if (method === 'DELETE') return new Response(null, { status: 204 });
        if (url === '/api/v1/me/') return json(200, fakeUser());
        return json(404, {});
      });
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=3' });
      expect(await screen.findByRole('tab', { name: 'Security', selected: true })).toBeTruthy();
      expect(screen.getByText('Codes are sent to maria@example.com')).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Remove Email' }));
      const dialog = await screen.findByRole('dialog', { name: 'Remove this second factor?' });
      expect(within(dialog).getByText(/This is your only second factor/)).toBeTruthy();
      // Only an authenticator app gives a code at any time: with e-mail codes alone, the password it is.
      expect(within(dialog).queryByRole('button', { name: 'Use a verification code instead' })).toBeNull();
      fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Secret#2026' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
      expect(await screen.findByRole('link', { name: 'Add a second factor' })).toHaveProperty('pathname', '/healthbook/2fa/register');
      expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['DELETE /api/v1/mfa/dev-1', 'GET /api/v1/me/']);
      expect(calls[0]!.body).toEqual({ password: 'Secret#2026' });
      expect(getSessionState().user?.has_mfa_enabled).toBe(false);
    });

    it('security: a wrong password keeps the factor and says so in the dialog', async () => {
      signedInAs(fakeUser({ has_mfa_enabled: true, mfa_devices: [{ uuid: 'dev-1', device_type: 'email' }] }));
      mockFetch(() => json(400, { password: ['The password is not correct.'] }));
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=3' });
      fireEvent.click(await screen.findByRole('button', { name: 'Remove Email' }));
      const dialog = await screen.findByRole('dialog', { name: 'Remove this second factor?' });
      fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Wrong#Pass1' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
      expect(await within(dialog).findByText('The password is not correct.')).toBeTruthy();
      expect(screen.getByText('Codes are sent to maria@example.com')).toBeTruthy();
      expect(getSessionState().user?.has_mfa_enabled).toBe(true);
    });

    it('security: with an authenticator app, a code from it can stand in for the password', async () => {
      const devices = [
        { uuid: 'dev-1', device_type: 'email' as const },
        { uuid: 'dev-2', device_type: 'google' as const },
      ];
      signedInAs(fakeUser({ has_mfa_enabled: true, mfa_devices: devices }));
      const calls = mockFetch(({ url, method }) => {
        if (method === 'DELETE') return new Response(null, { status: 204 });
        if (url === '/api/v1/me/') return json(200, fakeUser({ has_mfa_enabled: true, mfa_devices: [devices[1]!] }));
        return json(404, {});
      });
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=3' });
      fireEvent.click(await screen.findByRole('button', { name: 'Remove Email' }));
      const dialog = await screen.findByRole('dialog', { name: 'Remove this second factor?' });
      expect(within(dialog).getByText(/You will no longer be able to sign in with codes from it/)).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Use a verification code instead' }));
      expect(within(dialog).queryByLabelText(/^Password/)).toBeNull();
      fireEvent.paste(within(dialog).getByRole('textbox', { name: 'Digit 1 of 6' }), { clipboardData: { getData: () => '246810' } });
      await waitFor(() => expect(calls[0]).toMatchObject({ url: '/api/v1/mfa/dev-1', method: 'DELETE', body: { code: '246810' } }));
      expect(await screen.findByText('The second factor “Email” was removed.')).toBeTruthy();
    });

    it('personal info: saves the edited fields (zip as zip) with PUT /api/v1/me/', async () => {
      signedInAs();
      const calls = mockFetch(({ url, method, body }) =>
        url === '/api/v1/me/' && method === 'PUT' ? json(200, fakeUser({ city: (body as { city: string }).city, zip_code: '10558' })) : json(200, pendingWizard),
      );
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile' });
      fireEvent.change(await screen.findByLabelText('City'), { target: { value: 'Athens' } });
      fireEvent.change(screen.getByLabelText('ZIP / postal code'), { target: { value: '10558' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
      expect(await screen.findByText('Your changes were saved.')).toBeTruthy();
      expect(calls[0]!.body).toMatchObject({ first_name: 'Μαρία', last_name: 'Papadopoulou', city: 'Athens', zip: '10558', phone_number: null, imperial_units: false });
      expect(getSessionState().user?.city).toBe('Athens');
    });

    it('personal info: the e-mail address changes through a link sent to the new one, after the password', async () => {
      signedInAs();
      const detail = 'We sent a link to maria.new@example.com. Your sign-in address changes when you open it.';
      const calls = mockFetch(({ url }) => (url === '/api/v1/me/email/' ? json(202, { detail }) : json(500, {})));
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile' });
      expect(await screen.findByText('maria@example.com', { selector: 'span' })).toBeTruthy();
      expect(screen.queryByLabelText(/^Email/, { selector: 'input' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Change e-mail' }));

      const dialog = await screen.findByRole('dialog', { name: 'Change your e-mail address' });
      const address = within(dialog).getByLabelText(/^New e-mail address/);
      const send = within(dialog).getByRole('button', { name: 'Send link' });
      fireEvent.change(address, { target: { value: 'Maria@Example.com' } });
      fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Secret#2026' } });
      fireEvent.click(send);
      expect(await within(dialog).findByText('This is already your e-mail address.')).toBeTruthy();
      fireEvent.change(address, { target: { value: 'maria.new@' } });
      expect(await within(dialog).findByText('E-mail must be valid')).toBeTruthy();
      expect(calls).toHaveLength(0);

      fireEvent.change(address, { target: { value: ' maria.new@example.com ' } });
      fireEvent.click(send);
      expect(await screen.findByText(detail)).toBeTruthy();
      expect(calls).toEqual([expect.objectContaining({ url: '/api/v1/me/email/', method: 'POST', body: { email: 'maria.new@example.com', password: 'Secret#2026' } })]);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      // Nothing changes here until the link is opened.
      expect(getSessionState().user?.email).toBe('maria@example.com');
    });

    it('personal info: a wrong password, or an address the server refuses, shows in the e-mail dialog', async () => {
      signedInAs();
      let answer = json(400, { password: ['The password is not correct.'] });
      mockFetch(() => answer);
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile' });
      fireEvent.click(await screen.findByRole('button', { name: 'Change e-mail' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change your e-mail address' });
      fireEvent.change(within(dialog).getByLabelText(/^New e-mail address/), { target: { value: 'maria.new@example.com' } });
      fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Wrong#Pass1' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send link' }));
      expect(await within(dialog).findByText('The password is not correct.')).toBeTruthy();

      answer = json(400, { email: ['Enter a valid email address.'] });
      fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Secret#2026' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send link' }));
      expect(await within(dialog).findByText('Enter a valid email address.')).toBeTruthy();
      expect(within(dialog).getByLabelText(/^New e-mail address/).getAttribute('aria-invalid')).toBe('true');
    });

    it('personal info: a first name is required', async () => {
      signedInAs();
      const calls = mockFetch(() => json(500, {}));
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile' });
      fireEvent.change(await screen.findByLabelText(/^First name/), { target: { value: ' ' } });
      fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
      expect(await screen.findByText('First name is required')).toBeTruthy();
      expect(calls).toHaveLength(0);
    });

    it('password: the spec rules before anything is sent, then PUT /api/v1/me/password/', async () => {
      signedInAs();
      const calls = mockFetch(() => json(200, { detail: 'Your password was changed.' }));
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=1' });
      fireEvent.change(await screen.findByLabelText(/^Current password/), { target: { value: 'Old#Pass1' } });
      fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'weak' } });
      fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: 'other' } });
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
      expect(await screen.findByText('Passwords does not meet requirements')).toBeTruthy();
      expect(screen.getByText('Passwords do not match')).toBeTruthy();
      expect(calls).toHaveLength(0);

      fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'New#Pass2026' } });
      fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: 'New#Pass2026' } });
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
      await screen.findByText('Your password was changed.');
      expect(calls[0]).toMatchObject({ url: '/api/v1/me/password/', method: 'PUT', body: { current_password: 'Old#Pass1', password: 'New#Pass2026' } });
    });

    it('preferences: dark mode and language apply at once and are kept in the settings', async () => {
      signedInAs(fakeUser({ settings: { language: 'en' } }));
      const calls = mockFetch(({ body }) => json(200, fakeUser({ settings: (body as { settings: UserDto['settings'] }).settings })));
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=2' });
      fireEvent.click(await screen.findByRole('switch', { name: 'Dark mode' }));
      expect(getSessionState().user?.settings.dark).toBe(true);
      await waitFor(() => expect(calls[0]?.body).toEqual({ settings: { language: 'en', dark: true } }));

      fireEvent.click(screen.getByRole('radio', { name: 'Ελληνικά' }));
      await waitFor(() => expect(i18n.resolvedLanguage).toBe('el'));
      await waitFor(() => expect(calls[1]?.body).toEqual({ settings: { language: 'el', dark: true } }));
      expect(await screen.findByRole('tab', { name: 'Προτιμήσεις' })).toBeTruthy();
    });
  });
});
