import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import * as oauth from 'openid-client';
import { translate, type Language, type SourceCheck, type SourceCheckKey } from '@healthbook/shared';

/**
 * The SMART App Launch client side of a connected source (standalone patient launch):
 * discovery and its checks, the authorisation address with PKCE S256, the code exchange and
 * the refresh, through openid-client (panva; certified). The source's FHIR reads are in
 * source-fhir.ts. Nothing here keeps state: the service stores what must last, sealed.
 */

/** What the service keeps of a source's `.well-known/smart-configuration`. */
export interface SmartConfiguration {
  issuer?: string;
  authorization_endpoint: string;
  token_endpoint: string;
  code_challenge_methods_supported?: string[];
  capabilities?: string[];
  scopes_supported?: string[];
  revocation_endpoint?: string;
  [key: string]: unknown;
}

/** How outside addresses are let through: in production only https on public addresses (no request to the private network an admin or a source names). */
export interface OutboundPolicy {
  allowInsecure: boolean;
  /** Milliseconds before a request to a source is given up. */
  timeoutMs: number;
}

export interface SourceClient {
  fhir_base_url: string;
  client_id: string;
  /** A confidential client's secret (already opened); null for a public client. */
  client_secret: string | null;
  scopes: string;
  smart_configuration: SmartConfiguration;
}

export interface TokenSet {
  access_token: string;
  refresh_token: string | null;
  expires_at: Date | null;
  scope: string;
  /** SMART's `patient` launch context: whose records the token reads. */
  patient: string | null;
}

/** Why an exchange or a refresh failed: the source refused the grant (reconnect), or it could not be reached. */
export class SmartGrantError extends Error {
  constructor(
    readonly kind: 'refused' | 'unreachable',
    readonly oauthError: string | null,
  ) {
    super(`SMART grant ${kind}${oauthError ? `: ${oauthError}` : ''}`);
    this.name = 'SmartGrantError';
  }
}

/** Addresses no source may be on in production: loopback, private, link-local, carrier-grade NAT, unique local. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

const check = (lang: Language, key: SourceCheckKey, ok: boolean, detailKey: string, vars: Record<string, string | number> = {}): SourceCheck => ({
  check: key,
  ok,
  detail: translate(lang, `records:sources.checks.${detailKey}`, vars),
});

/** The FHIR base as kept: no trailing slash, no query or fragment. */
export function normaliseBaseUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  url.hash = '';
  url.search = '';
  return url.toString().replace(/\/+$/, '');
}

/** Whether an address may be asked at all under the policy (https and a public host in production). */
export async function addressAllowed(url: URL, policy: OutboundPolicy): Promise<'ok' | 'insecure' | 'private'> {
  if (policy.allowInsecure) return 'ok';
  if (url.protocol !== 'https:') return 'insecure';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true }).catch(() => []);
  // A name that does not resolve is left to the request (which will say it is unreachable).
  return addresses.some((a) => PRIVATE.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4')) ? 'private' : 'ok';
}

/** A GET with the policy's timeout. */
export function fetchWithTimeout(url: string, init: RequestInit, policy: OutboundPolicy): Promise<Response> {
  return fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(policy.timeoutMs) });
}

/**
 * Reads a source's SMART configuration and says, check by check, what holds: the address, that
 * it answers, the discovery document, its endpoints, PKCE S256, the scopes asked. The
 * configuration comes back only when every check passed.
 */
export async function discoverSource(
  baseText: string,
  scopes: string,
  policy: OutboundPolicy,
  lang: Language,
): Promise<{ checks: SourceCheck[]; base: string | null; configuration: SmartConfiguration | null }> {
  const checks: SourceCheck[] = [];
  const base = normaliseBaseUrl(baseText);
  if (!base) return { checks: [check(lang, 'address', false, 'addressInvalid')], base: null, configuration: null };
  const allowed = await addressAllowed(new URL(base), policy);
  if (allowed !== 'ok') return { checks: [check(lang, 'address', false, allowed === 'insecure' ? 'addressInsecure' : 'addressPrivate')], base, configuration: null };
  checks.push(check(lang, 'address', true, 'addressOk', { url: base }));

  let response: Response;
  try {
    response = await fetchWithTimeout(`${base}/.well-known/smart-configuration`, { headers: { accept: 'application/json' } }, policy);
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    checks.push(check(lang, 'reachable', false, timedOut ? 'timeout' : 'unreachable', { seconds: Math.round(policy.timeoutMs / 1000) }));
    return { checks, base, configuration: null };
  }
  checks.push(check(lang, 'reachable', true, 'reachableOk'));

  let document: unknown = null;
  if (response.ok) document = await response.json().catch(() => null);
  else await response.body?.cancel();
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    checks.push(check(lang, 'discovery', false, response.ok ? 'discoveryNotJson' : 'discoveryMissing', { status: response.status }));
    return { checks, base, configuration: null };
  }
  checks.push(check(lang, 'discovery', true, 'discoveryOk'));

  const config = document as Record<string, unknown>;
  const endpoint = (name: string) => {
    const value = config[name];
    if (typeof value !== 'string') return null;
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || (policy.allowInsecure && url.protocol === 'http:') ? url.toString() : null;
    } catch {
      return null;
    }
  };
  const authorize = endpoint('authorization_endpoint');
  const token = endpoint('token_endpoint');
  if (!authorize || !token) {
    checks.push(check(lang, 'endpoints', false, 'endpointsMissing'));
    return { checks, base, configuration: null };
  }
  checks.push(check(lang, 'endpoints', true, 'endpointsOk', { authorize, token }));

  const methods = Array.isArray(config.code_challenge_methods_supported) ? config.code_challenge_methods_supported : [];
  const pkce = methods.includes('S256');
  checks.push(check(lang, 'pkce', pkce, pkce ? 'pkceOk' : 'pkceMissing'));

  const supported = Array.isArray(config.scopes_supported) ? config.scopes_supported.filter((s): s is string => typeof s === 'string') : null;
  const missing = supported ? scopes.split(/\s+/).filter((s) => s && !supported.includes(s)) : [];
  checks.push(
    supported === null ? check(lang, 'scopes', true, 'scopesUnlisted') : missing.length ? check(lang, 'scopes', false, 'scopesMissing', { scopes: missing.join(' ') }) : check(lang, 'scopes', true, 'scopesOk'),
  );
  const ok = checks.every((c) => c.ok);
  return { checks, base, configuration: ok ? ({ ...config, authorization_endpoint: authorize, token_endpoint: token } as SmartConfiguration) : null };
}

/** openid-client's view of a source: its endpoints, the client and how it authenticates. */
function configurationOf(source: SourceClient, policy: OutboundPolicy): oauth.Configuration {
  const smart = source.smart_configuration;
  const server: oauth.ServerMetadata = {
    // SMART names an issuer when it offers OpenID Connect; without one, the FHIR base stands for it.
    issuer: typeof smart.issuer === 'string' ? smart.issuer : source.fhir_base_url,
    authorization_endpoint: smart.authorization_endpoint,
    token_endpoint: smart.token_endpoint,
    code_challenge_methods_supported: ['S256'],
    ...(typeof smart.revocation_endpoint === 'string' ? { revocation_endpoint: smart.revocation_endpoint } : {}),
  };
  const auth = source.client_secret ? oauth.ClientSecretBasic(source.client_secret) : oauth.None();
  const config = new oauth.Configuration(server, source.client_id, undefined, auth);
  config.timeout = Math.ceil(policy.timeoutMs / 1000);
  if (policy.allowInsecure) oauth.allowInsecureRequests(config);
  return config;
}

/** A new launch's secrets: the state and the PKCE verifier (kept by the service), and the address the browser goes to. */
export async function authorizationRequest(source: SourceClient, redirectUri: string, policy: OutboundPolicy): Promise<{ url: string; state: string; verifier: string }> {
  const verifier = oauth.randomPKCECodeVerifier();
  const state = oauth.randomState();
  const url = oauth.buildAuthorizationUrl(configurationOf(source, policy), {
    redirect_uri: redirectUri,
    scope: source.scopes,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    // SMART: the FHIR server the token is for (the source refuses a token meant for another).
    aud: source.fhir_base_url,
  });
  return { url: url.toString(), state, verifier };
}

function tokenSet(answer: oauth.TokenEndpointResponse & oauth.TokenEndpointResponseHelpers, previous?: TokenSet): TokenSet {
  const expiresIn = answer.expiresIn();
  const patient = typeof answer.patient === 'string' && answer.patient ? answer.patient : null;
  return {
    access_token: answer.access_token,
    // A source that does not rotate refresh tokens answers none: the one held goes on.
    refresh_token: answer.refresh_token ?? previous?.refresh_token ?? null,
    expires_at: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000),
    scope: answer.scope ?? previous?.scope ?? '',
    patient: patient ?? previous?.patient ?? null,
  };
}

function grantError(err: unknown): SmartGrantError {
  if (err instanceof oauth.ResponseBodyError) return new SmartGrantError(err.status >= 500 ? 'unreachable' : 'refused', err.error);
  if (err instanceof oauth.AuthorizationResponseError) return new SmartGrantError('refused', err.error);
  // A wrong answer (not JSON, a bad ID token, a wrong state) is refused; a network failure or a timeout is the source being down.
  if (err instanceof oauth.ClientError) return new SmartGrantError(err.code === 'OAUTH_TIMEOUT' ? 'unreachable' : 'refused', err.code ?? null);
  return new SmartGrantError('unreachable', null);
}

/** Trades the authorisation code (the callback's parameters) for tokens, checking the state and PKCE. */
export async function exchangeCode(
  source: SourceClient,
  redirectUri: string,
  callback: Record<string, string>,
  checks: { state: string; verifier: string },
  policy: OutboundPolicy,
): Promise<TokenSet> {
  const current = new URL(redirectUri);
  for (const [key, value] of Object.entries(callback)) current.searchParams.set(key, value);
  try {
    const answer = await oauth.authorizationCodeGrant(configurationOf(source, policy), current, { pkceCodeVerifier: checks.verifier, expectedState: checks.state });
    return tokenSet(answer);
  } catch (err) {
    throw grantError(err);
  }
}

/** A new access token from the refresh token. */
export async function refreshTokens(source: SourceClient, tokens: TokenSet, policy: OutboundPolicy): Promise<TokenSet> {
  if (!tokens.refresh_token) throw new SmartGrantError('refused', 'no_refresh_token');
  try {
    return tokenSet(await oauth.refreshTokenGrant(configurationOf(source, policy), tokens.refresh_token), tokens);
  } catch (err) {
    throw grantError(err);
  }
}

/**
 * Asks the source to revoke a token (RFC 7009), where it offers revocation: a patient who
 * disconnects ends the grant at the source too, not only here. Best effort: false when the
 * source has no revocation endpoint or did not answer (the token is deleted here regardless).
 */
export async function revokeToken(source: SourceClient, token: string, hint: 'refresh_token' | 'access_token', policy: OutboundPolicy): Promise<boolean> {
  if (typeof source.smart_configuration.revocation_endpoint !== 'string') return false;
  try {
    await oauth.tokenRevocation(configurationOf(source, policy), token, { token_type_hint: hint });
    return true;
  } catch {
    return false;
  }
}
