import { describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app';
import { useTestApp } from './build-app';
import { bearer, buildMfaDevice, buildOrganization, buildUser, signIn } from './factories';
import { concreteUrl } from './routes';

/**
 * Deny by default: every route outside the public context answers 401 without a token, so a
 * new route cannot be left open by mistake. The public context is a short, reviewed list.
 */

// With METRICS_TOKEN: its /metrics route is one of the public ones reviewed below.
const t = useTestApp({ env: { METRICS_TOKEN: 'route-table-metrics-token-0123456789abcdef' } });


/** Every public route, reviewed: what needs no sign-in and why. */
const PUBLIC = [
  'HEAD /api/ping', // connectivity check of the page-timeout screen
  'GET /api/health', // load balancers
  'GET /api/health/live', // restart policies: the process answers
  'GET /api/health/ready', // load balancers: the database, Redis and the file store answer
  'GET /metrics', // Prometheus, with METRICS_TOKEN: its own bearer check (never a user's token)
  'GET /api/v1/organization_detail_by_name/:name', // branding before sign-in
  'GET /api/v1/organization_detail/',
  'GET /api/v1/organizations/:name/:asset', // logo and favicon
  'POST /api/v1/login/',
  'POST /api/v1/refresh/', // the refresh token is the credential
  'POST /api/v1/logout/', // likewise
  'POST /api/v1/auth/linked/', // the single-use switch token of a linked account is the credential
  'GET /api/v1/users/options/', // sign-up form choices
  'POST /api/v1/users/validate/', // the access code is the credential
  'POST /api/v1/users/register/', // likewise
  'POST /api/v1/users/confirm_email/', // the e-mailed link is the credential
  'POST /api/v1/users/confirm_email_change/', // likewise
  'POST /api/v1/reset_password/',
  'POST /api/v1/reset_password/confirm/', // the e-mailed link is the credential
  'POST /api/v1/account_setup/check/', // the set-password link is the credential (says whose account; changes nothing)
  'POST /api/v1/account_setup/', // the set-password link is the credential
  'POST /api/v1/users/coderetrieval/',
  'GET /api/v1/users/avatar/:key', // the unguessable address is the credential
  'GET /api/v1/calendar/feed/:token', // the private feed address (256-bit token) is the credential
  // A share's recipient: the address (256-bit token) and then the e-mailed code or passcode are the credential.
  'POST /api/v1/sharing/public/open/',
  'POST /api/v1/sharing/public/code/',
  'POST /api/v1/sharing/public/verify/',
  'GET /api/v1/sharing/public/content/',
  'GET /api/v1/sharing/public/pdf/',
  'GET /api/v1/sharing/public/files/:id/',
  'OPTIONS /api/v1/shl/:uid/:token',
  'POST /api/v1/shl/:uid/:token', // a SMART Health Link: its address and passcode are the credential
  'GET /api/v1/chat/socket/', // the chat's socket: a single-use 30-second ticket from POST /api/v1/chat/ticket/ authenticates it
  'GET /api/v1/visits/socket/', // a video visit's socket: a single-use 30-second ticket from POST /api/v1/appointments/{slot}/visit/ticket/ authenticates it
  // A care-network invitation before signing in: its single-use 256-bit token (from the e-mail link's fragment) is the credential.
  'POST /api/v1/care-network/invitations/preview/',
  'POST /api/v1/care-network/invitations/signup-code/',
];

const key = (r: RouteEntry) => `${r.method} ${r.url}`;
/** Framework routes: the OpenAPI page and its files, the development mailbox, the built web app's files. */
const isFramework = (r: RouteEntry) => /^\/(api\/docs|dev\/)/.test(r.url) || (!r.url.startsWith('/api/') && r.url !== '/metrics');

describe('the route table', () => {
  it('holds public routes only in the public context, and only the reviewed ones', () => {
    const publicApi = t.app.routeTable.filter((r) => r.public && !isFramework(r) && r.method !== 'HEAD').map(key);
    expect(publicApi.sort()).toEqual(PUBLIC.filter((p) => !p.startsWith('HEAD')).sort());
    // Nothing outside /api/docs, /dev and the web app's files is public by accident.
    const frameworkPublic = t.app.routeTable.filter((r) => isFramework(r));
    for (const r of frameworkPublic) expect(r.public, key(r)).toBe(true);
  });

  it('answers 401 without a token on every route outside the public context', async () => {
    const guarded = t.app.routeTable.filter((r) => !r.public);
    expect(guarded.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const route of guarded) {
      const res = await t.app.inject({ method: route.method as 'GET', url: concreteUrl(route.url), payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : {} });
      if (res.statusCode !== 401) failures.push(`${key(route)} -> ${res.statusCode}`);
      else if (route.method !== 'HEAD') expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 to a sign-in waiting for its second factor, except where it is finished (verify)', async () => {
    const org = await buildOrganization(t.app);
    const user = await buildUser(t.app, { org });
    await buildMfaDevice(t.app, { user });
    const { access } = await signIn(t.app, { email: user.email, password: user.password, org_id: org.id });
    const failures: string[] = [];
    for (const route of t.app.routeTable.filter((r) => !r.public && r.method !== 'HEAD')) {
      const res = await t.app.inject({ method: route.method as 'GET', url: concreteUrl(route.url), headers: bearer(access), payload: route.method === 'GET' ? undefined : {} });
      const expected = route.url === '/api/v1/verify/' ? 400 : 403;
      if (res.statusCode !== expected) failures.push(`${key(route)} -> ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
