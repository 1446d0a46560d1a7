import { data, redirect, type LoaderFunctionArgs } from 'react-router';
import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';
import type { AccessClaims } from '@healthbook/shared/contracts/auth';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { isOrganizationFound, normalizeClientId } from '@healthbook/shared/validation';
import { organizationQueryOptions } from '../features/organizations/api/get-organization';
import { ApiError } from '../lib/api-client';
import { afterSignInPath, clearLocalData, getSessionState, refreshUser, signOut, subscribeSession } from '../lib/auth';
import { featuresQueryOptions, hubFeatures } from '../lib/hub-features';
import { isAdministrator, isChatStaff, isProvider } from '../lib/roles';
import { i18n } from '../lib/i18n';
import { paths } from '../lib/paths';
import { accessRights, patientsQueryOptions, refusalData } from '../lib/record-access';
import { viewingPatient } from '../lib/viewing-patient';
import { featureArea } from '@healthbook/shared/features';
import { queryClient } from '../lib/query-client';
import { session } from '../lib/session';

/**
 * Route guards, as loaders (hub document, section 5). They route on the access-token claims
 * (full / limited), the stored user (second factor) and the organisation of the path.
 * The router loads this module on demand (see lazyGuard), so the sign-in page does not carry it.
 */

export type GuardName =
  | 'rootLoader'
  | 'logoutLoader'
  | 'loginGuard'
  | 'verifyGuard'
  | 'signedInGuard'
  | 'mfaRegisterGuard'
  | 'qrGoogleGuard'
  | 'adminGuard'
  | 'superadminGuard'
  | 'providerGuard'
  | 'chatStaffGuard';

const clientIdOf = (params: LoaderFunctionArgs['params']) => normalizeClientId(params.clientId) ?? DEFAULT_CLIENT_ID;
const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

async function organizationId(clientId: string): Promise<number | null> {
  const org = await queryClient.ensureQueryData(organizationQueryOptions(clientId));
  return isOrganizationFound(org) ? org.org : null;
}

/**
 * The session as seen from an organisation's path. A limited token past its time is dropped.
 * A session of another organisation is ended (storage cleared): `switched` says so.
 */
async function sessionAt(clientId: string): Promise<{ claims: AccessClaims | null; switched: boolean }> {
  const claims = session.claims();
  if (!claims) return { claims: null, switched: false };
  if (claims.access === 'limited' && claims.exp * 1000 <= Date.now()) {
    clearLocalData();
    return { claims: null, switched: false };
  }
  const orgId = await organizationId(clientId);
  if (orgId !== null && claims.org !== orgId) {
    await signOut(clientId);
    return { claims: null, switched: true };
  }
  return { claims, switched: false };
}

let validated = false;
let validating: Promise<UserDto | null> | null = null;
subscribeSession(() => {
  if (!session.get()) validated = false;
});

/**
 * Protected routes re-validate the session: GET /api/v1/me/ once per page load (and whenever
 * the user copy is missing). A 401 there means signed out; a network failure keeps the copy.
 */
function validatedUser(): Promise<UserDto | null> {
  const stored = getSessionState().user;
  if (validated && stored) return Promise.resolve(stored);
  validating ??= refreshUser()
    .then((user) => {
      validated = true;
      return user;
    })
    .catch((error: unknown) => {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        clearLocalData();
        return null;
      }
      if (stored) return stored;
      throw error;
    })
    .finally(() => {
      validating = null;
    });
  return validating;
}

/** Full access in this organisation, else its login (with redirectFrom); answers the user. */
export async function requireFullAccess({ params, request }: LoaderFunctionArgs): Promise<UserDto> {
  const clientId = clientIdOf(params);
  const { claims, switched } = await sessionAt(clientId);
  if (switched) throw redirect(paths.login(clientId));
  const toLogin = () => redirect(paths.loginFrom(clientId, pathOf(request)));
  if (claims?.access !== 'full') throw toLogin();
  const user = await validatedUser();
  if (!user) throw toLogin();
  return user;
}

/** The member's features (for the shell, the pages' guards and the dashboard), loaded once and kept a little while. */
function memberFeatures(user: UserDto) {
  const orgId = user.user_org_details[0]!.org;
  return queryClient.ensureQueryData(featuresQueryOptions(orgId, i18n.resolvedLanguage ?? 'en')).then(hubFeatures);
}

/** Every signed-in page (the full layout): full access, else login?redirectFrom=<path>. */
export async function signedInGuard(args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  // The shell draws the menu from the features: there before the first render.
  await memberFeatures(user).catch(() => undefined);
  return null;
}

/** A feature's page: only while the member's organisation has it active; otherwise the dashboard. */
export async function featureGuard(feature: string, args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  const features = await memberFeatures(user);
  if (features.status(feature) !== 'active') throw redirect(paths.dashboard(clientIdOf(args.params)));
  // Someone else's record open: a page of a part their grant does not reach is not offered (the menu hides it too).
  const area = featureArea(feature);
  const viewing = viewingPatient.get();
  if (area && viewing !== null) {
    const patient = (await queryClient.ensureQueryData(patientsQueryOptions())).find((p) => p.patient_id === viewing);
    // Not a silent trip to the dashboard: the page's error boundary says why (app/access-refused.tsx).
    if (patient && !accessRights(patient.access, patient.categories).reads[area]) throw data(refusalData(area), { status: 403 });
  }
  return null;
}

/** Administration pages: organisation admins and super admins; anyone else goes to the dashboard. */
export async function adminGuard(args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  if (!isAdministrator(user)) throw redirect(paths.dashboard(clientIdOf(args.params)));
  return null;
}

/** The operations dashboard: super admins only; anyone else goes to the dashboard. */
export async function superadminGuard(args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  if (!user.is_superadmin) throw redirect(paths.dashboard(clientIdOf(args.params)));
  return null;
}

/** The provider console: users with the provider role; anyone else goes to the dashboard. */
export async function providerGuard(args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  if (!isProvider(user)) throw redirect(paths.dashboard(clientIdOf(args.params)));
  return null;
}

/** The chat console: staff who take live chats (roles provider or coach); anyone else goes to the dashboard. */
export async function chatStaffGuard(args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  if (!isChatStaff(user)) throw redirect(paths.dashboard(clientIdOf(args.params)));
  return null;
}

/** Login page: a full session goes on (redirectFrom or dashboard), a limited one to verify. */
export async function loginGuard({ params, request }: LoaderFunctionArgs): Promise<null> {
  const clientId = clientIdOf(params);
  const { claims } = await sessionAt(clientId);
  if (!claims) return null;
  throw redirect(afterSignInPath(clientId, claims, new URL(request.url).searchParams.get('redirectFrom')));
}

/** Verification: only a limited (second step pending) session; otherwise the 404 page. */
export async function verifyGuard({ params }: LoaderFunctionArgs): Promise<null> {
  const clientId = clientIdOf(params);
  const { claims, switched } = await sessionAt(clientId);
  if (switched) throw redirect(paths.login(clientId));
  if (claims?.access !== 'limited') throw redirect(paths.notFound(clientId));
  return null;
}

/** 2FA type selection: full access without a second factor yet; with one, the dashboard. */
export async function mfaRegisterGuard(args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  if (user.has_mfa_enabled) throw redirect(paths.dashboard(clientIdOf(args.params)));
  return null;
}

/** Authenticator set-up: full access and a Google device being registered (uuid + provisioning link), else the profile. */
export async function qrGoogleGuard(args: LoaderFunctionArgs): Promise<null> {
  const user = await requireFullAccess(args);
  const query = new URL(args.request.url).searchParams;
  const uuid = query.get('uuid');
  const value = query.get('value') ?? '';
  const clash = user.mfa_devices.some((d) => d.uuid === uuid && d.device_type !== 'google');
  if (!uuid || !value.startsWith('otpauth://totp/') || clash) throw redirect(paths.profile(clientIdOf(args.params), 3));
  return null;
}

/** /logout and /{clientId}/safeHavenLogout: sign out, then the organisation's login. */
export async function logoutLoader({ params }: LoaderFunctionArgs): Promise<never> {
  const state = getSessionState();
  const clientId = normalizeClientId(params.clientId) ?? (state.user ?? state.limitedUser)?.user_org_details[0]?.name ?? DEFAULT_CLIENT_ID;
  throw redirect(await signOut(clientId));
}

/** / goes to the dashboard of the signed-in user's organisation (a limited session to its second step), else to the default sign-in. */
export function rootLoader(_args?: LoaderFunctionArgs): never {
  const state = getSessionState();
  const clientId = normalizeClientId((state.user ?? state.limitedUser)?.user_org_details[0]?.name) ?? DEFAULT_CLIENT_ID;
  // The spec sends / to the dashboard; a visitor with no session goes straight to sign-in
  // (the dashboard guard would send them there anyway, with a redirectFrom they do not need).
  if (state.user) throw redirect(paths.dashboard(clientId));
  throw redirect(state.limitedUser ? paths.verify(clientId) : paths.login(clientId));
}
