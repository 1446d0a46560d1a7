import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { fakeToken, fakeUser, json } from '../components/testing/fake-session';
import { organizationQueryOptions } from '../features/organizations/api/get-organization';
import { clearLocalData, getSessionState, signIn } from '../lib/auth';
import { queryClient } from '../lib/query-client';
import { adminGuard, chatStaffGuard, featureGuard, loginGuard, logoutLoader, mfaRegisterGuard, providerGuard, qrGoogleGuard, rootLoader, signedInGuard, superadminGuard, verifyGuard } from './guards';

const org = (id: number, name: string): OrganizationDetail => ({
  org: id,
  name,
  org_name: name,
  org_short_name: name,
  org_logo: null,
  logo_url: null,
  favicon_url: null,
  primary_color: null,
  video_channel_url: null,
  emergency_number: '112',
  crisis_lines: [],
  support_email: null,
  support_phone: null,
  user_org_details: [{ org: id }],
  active: true,
});

const args = (url: string): LoaderFunctionArgs =>
  ({ params: { clientId: new URL(url, 'http://app').pathname.split('/')[1] }, request: new Request(new URL(url, 'http://app')), context: {} }) as unknown as LoaderFunctionArgs;

/** Where a guard sends the user: the redirect's location, or null when the page may show. */
async function outcome(run: Promise<unknown> | unknown): Promise<string | null> {
  try {
    await run;
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

let calls: string[] = [];
let meAnswer: () => Response;

function signedIn(access: 'full' | 'limited', user = fakeUser(), orgId = 1, extra: { exp?: number } = {}) {
  signIn({ access: fakeToken({ access, org: orgId, ...extra }), user });
}

/** Signed out, with the two organisations' lookups cached as the organisation loader leaves them. */
function signOutHere() {
  clearLocalData();
  queryClient.setQueryData(organizationQueryOptions('healthbook').queryKey, org(1, 'healthbook'));
  queryClient.setQueryData(organizationQueryOptions('northwind').queryKey, org(2, 'northwind'));
}

/** The member's features as the server answers them. */
let featureAnswer: Array<{ id: number; key: string; feature_route: string | null; display_name: string; feature_status: string; icon_name: string }> = [];
const feature = (id: number, key: string, status: string) => ({ id, key, feature_route: key, display_name: key, feature_status: status, icon_name: 'Dashboard' });

describe('route guards', () => {
  beforeEach(() => {
    signOutHere();
    calls = [];
    meAnswer = () => json(200, getSessionState().user);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        calls.push(`${init.method ?? 'GET'} ${url}`);
        if (url === '/api/v1/me/') return meAnswer();
        if (url === '/api/v1/logout/') return new Response(null, { status: 204 });
        if (url === '/api/v1/features/get-features/') return json(200, featureAnswer);
        return json(404, { detail: 'Not found.' });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  describe('login page', () => {
    it('shows for a signed-out visitor', async () => {
      expect(await outcome(loginGuard(args('/healthbook/login')))).toBeNull();
    });

    it('sends a full session to the dashboard, or to its redirectFrom in the same organisation', async () => {
      signedIn('full');
      expect(await outcome(loginGuard(args('/healthbook/login')))).toBe('/healthbook/dashboard');
      expect(await outcome(loginGuard(args('/healthbook/login?redirectFrom=%2Fhealthbook%2Fsettings%2Fprofile')))).toBe('/healthbook/settings/profile');
    });

    it('sends a limited session (second factor pending) to verify', async () => {
      signedIn('limited', fakeUser({ has_mfa_enabled: true, mfa_devices: [{ uuid: 'u1', device_type: 'email' }] }));
      expect(await outcome(loginGuard(args('/healthbook/login')))).toBe('/healthbook/verify');
    });

    it('forgets a limited session whose token has run out', async () => {
      signedIn('limited', fakeUser(), 1, { exp: Math.floor(Date.now() / 1000) - 1 });
      expect(await outcome(loginGuard(args('/healthbook/login')))).toBeNull();
      expect(getSessionState().tokens).toBeNull();
    });

    it("signs out a session of another organisation and shows this one's login", async () => {
      signedIn('full', fakeUser(), 2);
      expect(await outcome(loginGuard(args('/healthbook/login')))).toBeNull();
      expect(getSessionState().tokens).toBeNull();
      expect(calls).toContain('POST /api/v1/logout/');
    });
  });

  describe('verify', () => {
    it('is only for a limited session; anything else gets the 404 page', async () => {
      expect(await outcome(verifyGuard(args('/healthbook/verify')))).toBe('/healthbook/404');
      signedIn('full');
      expect(await outcome(verifyGuard(args('/healthbook/verify')))).toBe('/healthbook/404');
      signedIn('limited');
      expect(await outcome(verifyGuard(args('/healthbook/verify')))).toBeNull();
    });

    it("a limited session of another organisation is signed out and sent to this organisation's login", async () => {
      signedIn('limited', fakeUser(), 2);
      expect(await outcome(verifyGuard(args('/healthbook/verify')))).toBe('/healthbook/login');
      expect(getSessionState().tokens).toBeNull();
    });
  });

  describe('redirectFrom after signing in', () => {
    it.each([
      ['//evil.example/healthbook/x', '/healthbook/dashboard'],
      ['https://evil.example/healthbook/dashboard', '/healthbook/dashboard'],
      ['/northwind/dashboard', '/healthbook/dashboard'],
      ['/healthbook\\..\\evil', '/healthbook/dashboard'],
      ['/healthbook/settings/profile?tabId=3', '/healthbook/settings/profile?tabId=3'],
    ])('honours only a path of the same organisation: %s -> %s', async (from, to) => {
      signedIn('full');
      expect(await outcome(loginGuard(args(`/healthbook/login?redirectFrom=${encodeURIComponent(from)}`)))).toBe(to);
    });
  });

  describe("a feature's pages", () => {
    it('open while the feature is active; inactive or disabled, they go to the dashboard', async () => {
      signedIn('full');
      featureAnswer = [feature(1, 'help', 'active'), feature(2, 'journal', 'inactive'), feature(3, 'careclub', 'disabled')];
      queryClient.removeQueries({ queryKey: ['features'] });
      expect(await outcome(featureGuard('help', args('/healthbook/healthhelp')))).toBeNull();
      expect(await outcome(featureGuard('journal', args('/healthbook/journal')))).toBe('/healthbook/dashboard');
      expect(await outcome(featureGuard('careclub', args('/healthbook/careclub')))).toBe('/healthbook/dashboard');
      expect(await outcome(featureGuard('unknown', args('/healthbook/x')))).toBe('/healthbook/dashboard');
    });

    it('send a signed-out visitor to login with redirectFrom first', async () => {
      expect(await outcome(featureGuard('help', args('/healthbook/healthhelp')))).toBe('/healthbook/login?redirectFrom=%2Fhealthbook%2Fhealthhelp');
    });
  });

  describe('administration pages', () => {
    it('admit organisation admins and super admins; the operations dashboard, super admins only', async () => {
      signedIn('full', fakeUser({ roles: ['patient'] }));
      expect(await outcome(adminGuard(args('/healthbook/admin/features')))).toBe('/healthbook/dashboard');
      expect(await outcome(superadminGuard(args('/healthbook/operations')))).toBe('/healthbook/dashboard');
      signOutHere();
      signedIn('full', fakeUser({ roles: ['org_admin'] }));
      expect(await outcome(adminGuard(args('/healthbook/admin/features')))).toBeNull();
      expect(await outcome(superadminGuard(args('/healthbook/operations')))).toBe('/healthbook/dashboard');
      signOutHere();
      signedIn('full', fakeUser({ roles: ['org_admin'], is_superadmin: true }));
      expect(await outcome(superadminGuard(args('/healthbook/operations')))).toBeNull();
    });
  });

  describe('the provider console', () => {
    it('admits users with the provider role; anyone else goes to the dashboard, a visitor to login', async () => {
      expect(await outcome(providerGuard(args('/healthbook/provider/availability')))).toBe('/healthbook/login?redirectFrom=%2Fhealthbook%2Fprovider%2Favailability');
      signedIn('full', fakeUser({ roles: ['patient', 'professional'] }));
      expect(await outcome(providerGuard(args('/healthbook/provider/availability')))).toBe('/healthbook/dashboard');
      signOutHere();
      signedIn('full', fakeUser({ roles: ['professional', 'provider'] }));
      expect(await outcome(providerGuard(args('/healthbook/provider/appointments')))).toBeNull();
    });
  });

  describe('the chat console', () => {
    it('admits providers and peer coaches; a patient goes to the dashboard, a visitor to login', async () => {
      expect(await outcome(chatStaffGuard(args('/healthbook/provider/chat')))).toBe('/healthbook/login?redirectFrom=%2Fhealthbook%2Fprovider%2Fchat');
      signedIn('full', fakeUser({ roles: ['patient'] }));
      expect(await outcome(chatStaffGuard(args('/healthbook/provider/chat')))).toBe('/healthbook/dashboard');
      signOutHere();
      signedIn('full', fakeUser({ roles: ['professional', 'coach'] }));
      expect(await outcome(chatStaffGuard(args('/healthbook/provider/chat')))).toBeNull();
      // A peer coach is no telehealth provider.
      expect(await outcome(providerGuard(args('/healthbook/provider/availability')))).toBe('/healthbook/dashboard');
      signOutHere();
      signedIn('full', fakeUser({ roles: ['professional', 'provider'] }));
      expect(await outcome(chatStaffGuard(args('/healthbook/provider/chat')))).toBeNull();
    });
  });

  describe('signed-in pages', () => {
    it('send a signed-out visitor to login with redirectFrom', async () => {
      expect(await outcome(signedInGuard(args('/healthbook/settings/profile?tabId=3')))).toBe(
        '/healthbook/login?redirectFrom=%2Fhealthbook%2Fsettings%2Fprofile%3FtabId%3D3',
      );
    });

    it('send a limited session to login too', async () => {
      signedIn('limited');
      expect(await outcome(signedInGuard(args('/healthbook/dashboard')))).toBe('/healthbook/login?redirectFrom=%2Fhealthbook%2Fdashboard');
    });

    it('let a full session in, re-validating it once with GET /api/v1/me/ (which refreshes the user copy)', async () => {
      signedIn('full', fakeUser({ first_name: 'Old' }));
      meAnswer = () => json(200, fakeUser({ first_name: 'New' }));
      expect(await outcome(signedInGuard(args('/healthbook/dashboard')))).toBeNull();
      expect(getSessionState().user?.first_name).toBe('New');
      expect(await outcome(signedInGuard(args('/healthbook/settings/profile')))).toBeNull();
      expect(calls.filter((c) => c === 'GET /api/v1/me/')).toHaveLength(1);
    });

    it('send to login when the server no longer knows the session', async () => {
      signedIn('full');
      meAnswer = () => json(401, { detail: 'Incorrect authentication credentials.' });
      expect(await outcome(signedInGuard(args('/healthbook/dashboard')))).toBe('/healthbook/login?redirectFrom=%2Fhealthbook%2Fdashboard');
      expect(getSessionState().tokens).toBeNull();
    });

    it("sign out a user of another organisation and send them to this organisation's login", async () => {
      signedIn('full', fakeUser(), 2);
      localStorage.setItem('navDrawer', 'true');
      expect(await outcome(signedInGuard(args('/healthbook/dashboard')))).toBe('/healthbook/login');
      expect(localStorage.getItem('navDrawer')).toBeNull();
      expect(getSessionState().tokens).toBeNull();
    });
  });

  describe('2fa/register', () => {
    it('needs full access without a second factor', async () => {
      expect(await outcome(mfaRegisterGuard(args('/healthbook/2fa/register')))).toBe('/healthbook/login?redirectFrom=%2Fhealthbook%2F2fa%2Fregister');
      signedIn('full');
      expect(await outcome(mfaRegisterGuard(args('/healthbook/2fa/register')))).toBeNull();
      signOutHere();
      signedIn('full', fakeUser({ has_mfa_enabled: true, mfa_devices: [{ uuid: 'u1', device_type: 'email' }] }));
      expect(await outcome(mfaRegisterGuard(args('/healthbook/2fa/register')))).toBe('/healthbook/dashboard');
    });
  });

  describe('2fa/qrgoogle', () => {
    const link = encodeURIComponent('otpauth://totp/HealthBook:maria%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=HealthBook');
    it('needs full access and a Google device being registered (uuid and provisioning link)', async () => {
      signedIn('full');
      expect(await outcome(qrGoogleGuard(args(`/healthbook/2fa/qrgoogle?uuid=u1&value=${link}`)))).toBeNull();
      expect(await outcome(qrGoogleGuard(args('/healthbook/2fa/qrgoogle?uuid=u1')))).toBe('/healthbook/settings/profile?tabId=3');
      expect(await outcome(qrGoogleGuard(args('/healthbook/2fa/qrgoogle?uuid=u1&value=https%3A%2F%2Fevil')))).toBe('/healthbook/settings/profile?tabId=3');
    });
  });

  describe('/ and logout', () => {
    it('/ goes to the dashboard of the signed-in organisation, else to the default sign-in', async () => {
      expect(await outcome(Promise.resolve().then(() => rootLoader()))).toBe('/healthbook/login');
      signedIn('full', fakeUser({ user_org_details: [{ org: 2, org_name: 'Northwind', name: 'northwind' }] }), 2);
      expect(await outcome(Promise.resolve().then(() => rootLoader()))).toBe('/northwind/dashboard');      signOutHere();
      // A limited session (second step pending) goes on to that step.
      signedIn('limited', fakeUser({ user_org_details: [{ org: 2, org_name: 'Northwind', name: 'northwind' }] }), 2);
      expect(await outcome(Promise.resolve().then(() => rootLoader()))).toBe('/northwind/verify');
    });

    it('safeHavenLogout posts the logout, clears storage and goes to the organisation login', async () => {
      signedIn('full', fakeUser(), 2);
      sessionStorage.setItem('chatInProgress', 'true');
      expect(await outcome(logoutLoader(args('/northwind/safeHavenLogout')))).toBe('/northwind/login');
      expect(calls).toContain('POST /api/v1/logout/');
      expect(sessionStorage.length).toBe(0);
      expect(getSessionState().tokens).toBeNull();
    });
  });
});
