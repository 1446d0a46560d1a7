import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FhirRouter, MemoryRepository } from '@medplum/fhir-router';
import type { Bundle, BundleEntry, CapabilityStatement, OperationOutcome, Resource } from '@medplum/fhirtypes';
import Provider, { errors, type Adapter, type AdapterPayload, type ClientMetadata, type InteractionDetails } from 'oidc-provider';
import { generatePatientRecords, type ExternalFile, type GeneratedRecords } from './generate-patient.js';

/**
 * A SMART on FHIR EHR for the tests, made of real parts on loopback: oidc-provider as the
 * authorization server (mounted under /auth) and a FHIR R4 API (under /fhir) whose resources live in
 * @medplum/fhir-router's MemoryRepository. One HTTP server hosts both, the login and consent pages
 * and the files that DocumentReferences point to by URL. Tests steer it through the returned
 * TestEhr: data changes, faults, token revocation, and logs of what the client asked.
 */

export interface TestEhrClient {
  client_id: string;
  /** Present: a confidential client (client_secret_basic unless token_endpoint_auth_method says post). */
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'none' | 'client_secret_basic' | 'client_secret_post';
  client_name?: string;
}

export interface TestEhrUser {
  username: string;
  password: string;
  /** The FHIR Patient this user may share (SMART's `patient` launch context). */
  patientId: string;
}

export interface TestEhrPatient {
  patientId: string;
  name: string;
  /** The PRNG seed of the generated record (by default derived from the patient id). */
  seed?: number;
  /** The number of resources to generate (about 40 by default). */
  resources?: number;
  /** The user that signs in for this patient; none when absent. */
  username?: string;
  password?: string;
}

export interface TestEhrOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The OAuth clients; none is registered by default, so pass the product's own. */
  clients?: TestEhrClient[];
  /** Default: Alice Example (alice / alice-password) and Bob Other (bob / bob-password). */
  patients?: TestEhrPatient[];
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
}

/** One HTTP request the EHR answered. */
export interface EhrRequestLog {
  area: 'fhir' | 'auth' | 'interaction' | 'file' | 'other';
  method: string;
  /** The path without the query, e.g. /fhir/Observation. */
  path: string;
  /** The query's parameters (the first value of each). */
  query: Record<string, string>;
  /** The path and query as sent. */
  url: string;
  status: number;
  /** The bearer token sent, if any. */
  token?: string;
  /** The patient of a valid token. */
  patientId?: string;
  accept?: string;
  at: number;
}

/** One call of the token endpoint. */
export interface TokenRequestLog {
  grantType?: string;
  clientId?: string;
  hasCodeVerifier: boolean;
  hasRefreshToken: boolean;
  status: number;
  /** The OAuth error of a refusal. */
  error?: string;
  at: number;
}

/** A fault the EHR answers instead of the real response, while it matches and has uses left. */
export interface FaultRule {
  /** 'fhir' (the default): FHIR requests; 'token': the token endpoint. */
  area?: 'fhir' | 'token';
  /** The FHIR resource type of the request (its first path segment). */
  type?: string;
  method?: string;
  /** A substring of, or a pattern for, the path and query. */
  path?: string | RegExp;
  status: number;
  /** How many requests it answers; unlimited when absent. */
  times?: number;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** The response body; an OperationOutcome (FHIR) or an OAuth error (token) by default. */
  body?: unknown;
}

export interface TestEhr {
  origin: string;
  fhirBase: string;
  /** The OAuth issuer (the authorization server's base). */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  users: TestEhrUser[];
  requests: EhrRequestLog[];
  tokenRequests: TokenRequestLog[];
  /** The oidc-provider instance, for tests that need more than the controls below. */
  provider: Provider;
  /** Adds a generated patient record (and its user when username is given). */
  addPatient(patient: TestEhrPatient): Promise<GeneratedRecords>;
  /** Stores resources as given (ids kept), creating or replacing them. */
  seed(resources: Resource[]): Promise<Resource[]>;
  /** Stores a new version of a resource: a new meta.versionId and a later meta.lastUpdated. */
  update<T extends Resource>(resource: T): Promise<T>;
  remove(type: string, id: string): Promise<void>;
  /** The current version of a resource, as the EHR holds it. */
  get(type: string, id: string): Resource | undefined;
  /** Every current resource in a patient's compartment (the Patient included), optionally of one type. */
  resourcesOf(patientId: string, type?: string): Resource[];
  fail(rule: FaultRule): FaultRule;
  clearFaults(): void;
  /** Forgets every access token (refresh tokens still work), as if they had all expired. */
  expireAccessTokens(): Promise<void>;
  /** Forgets every access token, refresh token and authorization code. */
  revokeTokens(): Promise<void>;
  close(): Promise<void>;
}

/** The resource types this EHR serves and grants scopes for. */
export const RESOURCE_TYPES = [
  'Patient',
  'AllergyIntolerance',
  'Condition',
  'MedicationRequest',
  'MedicationStatement',
  'Immunization',
  'Observation',
  'DiagnosticReport',
  'Procedure',
  'Encounter',
  'FamilyMemberHistory',
  'DocumentReference',
  'Binary',
  'CarePlan',
  'CareTeam',
  'Goal',
  'Device',
  'Medication',
  'Practitioner',
  'Organization',
  'Provenance',
  'ServiceRequest',
] as const;

/**
 * oidc-provider grants only the scopes it is configured with and silently drops the others, so the
 * SMART resource scopes are listed in full: v1 (read, write, *) and v2 (letters of cruds).
 */
function smartScopes(): string[] {
  const scopes = new Set(['openid', 'fhirUser', 'profile', 'offline_access', 'online_access', 'launch', 'launch/patient']);
  for (const level of ['patient', 'user']) {
    for (const type of ['*', ...RESOURCE_TYPES]) {
      for (const permission of ['read', 'write', '*', 'r', 's', 'rs', 'cruds']) scopes.add(`${level}/${type}.${permission}`);
    }
  }
  return [...scopes];
}

/** Whether granted scopes let the client read (or search) a resource type. */
export function scopeAllows(scope: string, type: string, interaction: 'read' | 'search'): boolean {
  return scope.split(' ').some((granted) => {
    const match = /^(patient|user)\/([A-Za-z]+|\*)\.([a-z*]+)(\?.*)?$/.exec(granted);
    if (!match || (match[2] !== '*' && match[2] !== type)) return false;
    const permission = match[3] as string;
    if (permission === 'read' || permission === '*') return true;
    return /^c?r?u?d?s?$/.test(permission) && permission.includes(interaction === 'read' ? 'r' : 's');
  });
}

const DEFAULT_PATIENTS: TestEhrPatient[] = [
  { patientId: 'alice-example', name: 'Alice Example', seed: 1, username: 'alice', password: 'alice-password' },
  { patientId: 'bob-other', name: 'Bob Other', seed: 2, username: 'bob', password: 'bob-password' },
];

/** A signing key for ID tokens, made once per process (RSA generation takes a noticeable moment). */
let signingKey: Record<string, unknown> | undefined;
function getSigningKey(): Record<string, unknown> {
  if (!signingKey) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-ehr-rs256', use: 'sig', alg: 'RS256' };
  }
  return signingKey;
}

/** oidc-provider's storage, in memory and per EHR, so tokens can be listed and forgotten by the tests. */
class Store {
  readonly entries = new Map<string, { payload: AdapterPayload; expiresAt: number | undefined }>();

  adapterClass(): new (name: string) => Adapter {
    const entries = this.entries;
    const live = (key: string) => {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.payload;
    };
    const findBy = (name: string, field: 'uid' | 'userCode', value: string) => {
      for (const key of entries.keys()) {
        if (!key.startsWith(`${name}:`)) continue;
        const payload = live(key);
        if (payload?.[field] === value) return payload;
      }
      return undefined;
    };
    return class MemoryAdapter implements Adapter {
      constructor(private readonly name: string) {}
      async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
        entries.set(`${this.name}:${id}`, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
      }
      async find(id: string) {
        return live(`${this.name}:${id}`);
      }
      async findByUid(uid: string) {
        return findBy(this.name, 'uid', uid);
      }
      async findByUserCode(userCode: string) {
        return findBy(this.name, 'userCode', userCode);
      }
      async consume(id: string) {
        const payload = live(`${this.name}:${id}`);
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      }
      async destroy(id: string) {
        entries.delete(`${this.name}:${id}`);
      }
      async revokeByGrantId(grantId: string) {
        for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key);
      }
    };
  }

  forget(models: string[]): void {
    for (const key of [...this.entries.keys()]) if (models.some((model) => key.startsWith(`${model}:`))) this.entries.delete(key);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Test EHR</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input { display: block; width: 100%; padding: 0.5rem; font-size: 1rem; box-sizing: border-box; }
button { margin-top: 1rem; margin-right: 0.5rem; padding: 0.5rem 1.25rem; font-size: 1rem; }
.error { color: #a40000; font-weight: 600; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Confirm your identity',
  fhirUser: 'Know which patient record you are',
  profile: 'See your name',
  offline_access: 'Keep access when you are not using the app',
  'launch/patient': 'Know which patient record you chose',
  'patient/*.rs': 'Read and search your whole health record',
  'patient/*.read': 'Read your whole health record',
};

type IssueType = NonNullable<OperationOutcome['issue']>[number]['code'];

function operationOutcome(code: IssueType, text: string): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, details: { text } }] };
}

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** The Patient a FHIR reference names, from "Patient/x", "x" or an absolute URL ending in Patient/x. */
function referencedPatient(value: string): string {
  const match = /(?:^|\/)Patient\/([^/?#]+)$/.exec(value);
  return match ? (match[1] as string) : value;
}

/** The patient whose compartment a resource is in, by its usual reference fields. */
function compartmentOf(resource: Resource): string | undefined {
  if (resource.resourceType === 'Patient') return resource.id;
  const fields = resource as unknown as Record<string, { reference?: string } | undefined>;
  for (const field of ['subject', 'patient', 'beneficiary', 'securityContext']) {
    const reference = fields[field]?.reference;
    if (reference?.startsWith('Patient/')) return reference.slice('Patient/'.length);
  }
  return undefined;
}

interface Coding {
  system?: string;
  code?: string;
}
interface CodeableConceptLike {
  coding?: Coding[];
}

/** Whether a token parameter (comma-separated "system|code" or "code") matches any of the concepts. */
function tokenMatches(concepts: CodeableConceptLike[], value: string): boolean {
  return value.split(',').some((wanted) => {
    const [system, code] = wanted.includes('|') ? wanted.split('|') : [undefined, wanted];
    return concepts.some((concept) => concept.coding?.some((c) => c.code === code && (system === undefined || system === '' || c.system === system)));
  });
}

function conceptsOf(resource: Resource, parameter: 'code' | 'category'): CodeableConceptLike[] {
  const fields = resource as unknown as Record<string, unknown>;
  const names = parameter === 'category' ? ['category'] : ['code', 'vaccineCode', 'medicationCodeableConcept', 'type'];
  const concepts: CodeableConceptLike[] = [];
  for (const name of names) {
    const value = fields[name];
    if (Array.isArray(value)) concepts.push(...(value as CodeableConceptLike[]));
    else if (value && typeof value === 'object') concepts.push(value as CodeableConceptLike);
  }
  return concepts;
}

/** Whether a `_lastUpdated` comparison ("gt2024-01-01T00:00:00Z", "le…", or a bare instant: eq) holds. */
function lastUpdatedMatches(lastUpdated: string | undefined, condition: string): boolean {
  const match = /^(eq|ne|gt|lt|ge|le|sa|eb)?(.+)$/.exec(condition);
  if (!match || !lastUpdated) return false;
  const prefix = match[1] ?? 'eq';
  const limit = Date.parse(match[2] as string);
  if (Number.isNaN(limit)) throw new SearchError(`_lastUpdated: "${condition}" is not a date`);
  const value = Date.parse(lastUpdated);
  switch (prefix) {
    case 'gt':
    case 'sa':
      return value > limit;
    case 'ge':
      return value >= limit;
    case 'lt':
    case 'eb':
      return value < limit;
    case 'le':
      return value <= limit;
    case 'ne':
      return value !== limit;
    default:
      return value === limit;
  }
}

class SearchError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Resolves once the clock has passed `ms`, so the next write's meta.lastUpdated is strictly later. */
async function clockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setImmediate(resolve));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestEhr(options: TestEhrOptions = {}): Promise<TestEhr> {
  const accessTokenTtl = options.accessTokenTtlSeconds ?? 3600;
  const refreshTokenTtl = options.refreshTokenTtlSeconds ?? 14 * 86_400;
  const clients = options.clients ?? [];
  const users: TestEhrUser[] = [];
  const requests: EhrRequestLog[] = [];
  const tokenRequests: TokenRequestLog[] = [];
  let faults: (FaultRule & { uses: number })[] = [];
  const files = new Map<string, ExternalFile>();
  const store = new Store();

  // Storage: the MemoryRepository keeps versions and meta; `current` indexes the latest version of
  // each resource by type so a search does not deep-clone the whole repository as its own search does.
  const repo = new MemoryRepository();
  const router = new FhirRouter();
  const current = new Map<string, Map<string, Resource>>();
  const sorted = new Map<string, Resource[]>();
  /** The latest instant a write or a search's Bundle.meta.lastUpdated used. */
  let lastStampMs = 0;

  const index = (resource: Resource) => {
    let byId = current.get(resource.resourceType);
    if (!byId) current.set(resource.resourceType, (byId = new Map()));
    byId.set(resource.id as string, resource);
    sorted.delete(resource.resourceType);
    lastStampMs = Math.max(lastStampMs, Date.parse(resource.meta?.lastUpdated ?? '') || 0);
  };

  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const fhirBase = `${origin}/fhir`;
  const issuer = `${origin}/auth`;

  const provider = new Provider(issuer, {
    adapter: store.adapterClass(),
    clients: clients.map(
      (client): ClientMetadata => ({
        client_id: client.client_id,
        ...(client.client_secret ? { client_secret: client.client_secret } : {}),
        ...(client.client_name ? { client_name: client.client_name } : {}),
        redirect_uris: client.redirect_uris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: client.token_endpoint_auth_method ?? (client.client_secret ? 'client_secret_basic' : 'none'),
      }),
    ),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    jwks: { keys: [getSigningKey()] },
    async findAccount(_ctx, sub) {
      const user = users.find((u) => u.username === sub);
      if (!user) return undefined;
      const patient = current.get('Patient')?.get(user.patientId) as { name?: { text?: string; given?: string[]; family?: string }[] } | undefined;
      const name = patient?.name?.[0];
      return {
        accountId: sub,
        claims: () => ({
          sub,
          fhirUser: `${fhirBase}/Patient/${user.patientId}`,
          ...(name ? { name: [...(name.given ?? []), name.family].filter(Boolean).join(' ') } : {}),
        }),
      };
    },
    claims: { openid: ['sub'], fhirUser: ['fhirUser'], profile: ['name'] },
    scopes: smartScopes(),
    // SMART requires `aud`, the FHIR base the token is for; a token for another server is refused
    // here, after the redirect URI was checked, so the client gets an OAuth error redirect.
    extraParams: {
      aud(_ctx, value) {
        const normalise = (url: string) => url.replace(/\/+$/, '');
        if (!value) throw new errors.InvalidRequest('the aud parameter (the FHIR server URL) is required');
        if (normalise(value) !== fhirBase) throw new errors.InvalidRequest(`aud ${value} is not this FHIR server (${fhirBase})`);
      },
      launch: null,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      rpInitiatedLogout: { enabled: false },
    },
    pkce: { methods: ['S256'], required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    routes: { authorization: '/authorize', token: '/token', revocation: '/revoke', introspection: '/introspect', jwks: '/jwks', userinfo: '/userinfo' },
    ttl: { AccessToken: accessTokenTtl, RefreshToken: refreshTokenTtl, AuthorizationCode: 60, IdToken: 3600, Interaction: 3600, Session: 86_400, Grant: refreshTokenTtl },
    rotateRefreshToken: true,
    responseTypes: ['code'],
    // SMART wants fhirUser in the ID token itself, not only from the userinfo endpoint.
    conformIdTokenClaims: false,
    renderError(ctx, out) {
      ctx.set('content-type', 'text/html; charset=utf-8');
      const description = typeof out.error_description === 'string' ? out.error_description : '';
      ctx.body = page('Error', `<h1>Authorization error</h1><p class="error" role="alert">${escapeHtml(String(out.error))}: ${escapeHtml(description)}</p>`);
    },
  });

  provider.use(async (ctx, next) => {
    // OpenID Connect drops offline_access unless prompt=consent is asked for; SMART apps do not
    // send prompt, and real EHRs grant refresh tokens anyway (after their own consent screen,
    // which this EHR always shows), so the authorization request gets prompt=consent added.
    if (ctx.method === 'GET' && ctx.path === '/authorize') {
      const params = new URLSearchParams(ctx.querystring);
      if (params.get('scope')?.split(' ').includes('offline_access') && !params.has('prompt')) {
        params.set('prompt', 'consent');
        ctx.querystring = params.toString();
        // oidc-provider finds its mount path by locating ctx.url in originalUrl, so both change.
        Object.assign(ctx.req, { originalUrl: `/auth${ctx.url}` });
      }
    }
    await next();
    if (ctx.oidc?.route !== 'token') return;
    const params = ctx.oidc.params ?? {};
    const body = ctx.body as Record<string, unknown> | undefined;
    tokenRequests.push({
      grantType: typeof params.grant_type === 'string' ? params.grant_type : undefined,
      clientId: ctx.oidc.client?.clientId,
      hasCodeVerifier: typeof params.code_verifier === 'string' && params.code_verifier.length > 0,
      hasRefreshToken: typeof params.refresh_token === 'string',
      status: ctx.status,
      ...(typeof body?.error === 'string' ? { error: body.error } : {}),
      at: Date.now(),
    });
    // SMART's launch context: the token answer names the patient chosen at sign-in. The grant
    // handlers (authorization_code and refresh_token) leave the account they issued for in
    // ctx.oidc.entities, and each user is bound to one patient.
    if (ctx.status === 200 && body && typeof body.access_token === 'string' && typeof body.scope === 'string') {
      const account = ctx.oidc.entities.Account as { accountId?: string } | undefined;
      const user = users.find((u) => u.username === account?.accountId);
      if (user && body.scope.split(' ').includes('launch/patient')) body.patient = user.patientId;
    }
  });
  const providerCallback = provider.callback();

  const smartConfiguration = {
    issuer,
    jwks_uri: `${issuer}/jwks`,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    scopes_supported: ['openid', 'fhirUser', 'profile', 'offline_access', 'launch/patient', 'patient/*.rs', 'patient/*.read', ...RESOURCE_TYPES.map((t) => `patient/${t}.rs`)],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    revocation_endpoint: `${issuer}/revoke`,
    introspection_endpoint: `${issuer}/introspect`,
    userinfo_endpoint: `${issuer}/userinfo`,
    capabilities: [
      'launch-standalone',
      'client-public',
      'client-confidential-symmetric',
      'context-standalone-patient',
      'permission-offline',
      'permission-patient',
      'permission-v1',
      'permission-v2',
      'sso-openid-connect',
    ],
  };

  const capabilityStatement = (): CapabilityStatement => ({
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: new Date().toISOString(),
    kind: 'instance',
    software: { name: 'Healthbook test EHR' },
    implementation: { description: 'Test EHR (loopback)', url: fhirBase },
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          cors: true,
          service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] }],
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [
                { url: 'authorize', valueUri: smartConfiguration.authorization_endpoint },
                { url: 'token', valueUri: smartConfiguration.token_endpoint },
                { url: 'revoke', valueUri: smartConfiguration.revocation_endpoint },
              ],
            },
          ],
        },
        resource: RESOURCE_TYPES.map((type) => ({
          type,
          interaction: [{ code: 'read' }, { code: 'vread' }, { code: 'history-instance' }, { code: 'search-type' }],
          searchParam: [
            { name: '_id', type: 'token' },
            { name: '_lastUpdated', type: 'date' },
            ...(type === 'Patient' ? [] : [{ name: 'patient', type: 'reference' as const }]),
          ],
        })),
      },
    ],
  });

  // --- the HTTP server ---------------------------------------------------------------------

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    const entry: EhrRequestLog = {
      area: 'other',
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries([...url.searchParams.entries()].reverse()),
      url: url.pathname + url.search,
      status: 0,
      ...(req.headers.accept ? { accept: req.headers.accept } : {}),
      at: Date.now(),
    };
    const authorization = req.headers.authorization;
    if (authorization?.startsWith('Bearer ')) entry.token = authorization.slice('Bearer '.length).trim();
    requests.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    dispatch(req, res, url, entry).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': FHIR_JSON });
        res.end(JSON.stringify(operationOutcome('exception', error instanceof Error ? error.message : String(error))));
      } else res.destroy();
    });
  });

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': FHIR_JSON, 'access-control-allow-origin': '*', ...headers });
    res.end(JSON.stringify(body));
  };

  async function dispatch(req: IncomingMessage, res: ServerResponse, url: URL, entry: EhrRequestLog): Promise<void> {
    const path = url.pathname;
    if (path === '/auth' || path.startsWith('/auth/')) {
      entry.area = 'auth';
      if (path === '/auth/token' && req.method === 'POST') {
        const fault = takeFault('token', undefined, req.method, entry.url);
        if (fault) {
          const body = fault.body ?? { error: fault.status === 400 ? 'invalid_grant' : fault.status === 401 ? 'invalid_client' : 'temporarily_unavailable' };
          res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {}) });
          res.end(JSON.stringify(body));
          return;
        }
      }
      // oidc-provider finds its mount path by comparing originalUrl with url, as under express.
      Object.assign(req, { originalUrl: req.url });
      req.url = (req.url ?? '/').slice('/auth'.length) || '/';
      providerCallback(req, res);
      return;
    }
    if (path.startsWith('/interaction/')) {
      entry.area = 'interaction';
      await interaction(req, res, path);
      return;
    }
    if (path === '/fhir' || path.startsWith('/fhir/')) {
      entry.area = 'fhir';
      await fhir(req, res, url, entry);
      return;
    }
    const file = files.get(path);
    if (file && req.method === 'GET') {
      entry.area = 'file';
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.byteLength) });
      res.end(file.data);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  }

  // --- sign-in and consent pages -------------------------------------------------------------

  async function interaction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const [, , uid, action] = path.split('/');
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body);
    };
    let details: InteractionDetails;
    try {
      details = await provider.interactionDetails(req, res);
    } catch (error) {
      html(400, page('Session expired', `<h1>Sign-in session expired</h1><p role="alert">${escapeHtml(error instanceof Error ? error.message : String(error))}. Start again from the app.</p>`));
      return;
    }
    if (details.uid !== uid) {
      html(400, page('Session mismatch', '<h1>Sign-in session mismatch</h1><p role="alert">Start again from the app.</p>'));
      return;
    }
    const clientId = String(details.params.client_id);
    const client = await provider.Client.find(clientId);
    const clientName = client?.clientName ?? clientId;

    if (req.method === 'POST' && action === 'abort') {
      await readBody(req);
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The patient cancelled the sign-in.' }, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === 'login') {
      let error = '';
      if (req.method === 'POST' && action === 'login') {
        const form = new URLSearchParams(await readBody(req));
        const user = users.find((u) => u.username === form.get('username') && u.password === form.get('password'));
        if (user) {
          await provider.interactionFinished(req, res, { login: { accountId: user.username } }, { mergeWithLastSubmission: false });
          return;
        }
        error = '<p class="error" role="alert">Wrong username or password.</p>';
      }
      const list = users.map((u) => `<li><code>${escapeHtml(u.username)}</code> (password <code>${escapeHtml(u.password)}</code>): patient ${escapeHtml(u.patientId)}</li>`).join('');
      html(
        error ? 401 : 200,
        page(
          'Sign in',
          `<h1>Sign in to the Test EHR</h1>
<p><strong>${escapeHtml(clientName)}</strong> wants to connect to your health record.</p>
${error}
<form method="post" action="/interaction/${escapeHtml(details.uid)}/login" data-step="login">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/abort"><button type="submit">Cancel</button></form>
<section aria-labelledby="test-users"><h2 id="test-users">Test users</h2><ul>${list}</ul></section>`,
        ),
      );
      return;
    }
    if (details.prompt.name === 'consent') {
      if (req.method === 'POST' && action === 'consent') {
        const form = new URLSearchParams(await readBody(req));
        if (form.get('decision') !== 'allow') {
          await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The patient denied access.' }, { mergeWithLastSubmission: false });
          return;
        }
        const accountId = details.session?.accountId as string;
        const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
        const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
        return;
      }
      const scopes = String(details.params.scope ?? '')
        .split(' ')
        .filter(Boolean);
      const items = scopes.map((s) => `<li><code>${escapeHtml(s)}</code>${SCOPE_TEXT[s] ? `: ${escapeHtml(SCOPE_TEXT[s])}` : ''}</li>`).join('');
      const user = users.find((u) => u.username === details.session?.accountId);
      html(
        200,
        page(
          'Allow access',
          `<h1>Allow ${escapeHtml(clientName)} to access your record?</h1>
<p>Signed in as <strong>${escapeHtml(user?.username ?? '')}</strong>, patient <strong>${escapeHtml(user?.patientId ?? '')}</strong>.</p>
<h2>The app asks to</h2>
<ul>${items}</ul>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/consent" data-step="consent">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
        ),
      );
      return;
    }
    html(400, page('Unexpected step', `<h1>Unexpected step</h1><p role="alert">${escapeHtml(details.prompt.name)}</p>`));
  }

  // --- FHIR ------------------------------------------------------------------------------------

  function takeFault(area: 'fhir' | 'token', type: string | undefined, method: string, pathAndQuery: string): FaultRule | undefined {
    const rule = faults.find(
      (f) =>
        (f.area ?? 'fhir') === area &&
        (f.type === undefined || f.type === type) &&
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (f.path === undefined || (typeof f.path === 'string' ? pathAndQuery.includes(f.path) : f.path.test(pathAndQuery))),
    );
    if (!rule) return undefined;
    rule.uses += 1;
    if (rule.times !== undefined && rule.uses >= rule.times) faults = faults.filter((f) => f !== rule);
    return rule;
  }

  const faultCodes: Record<number, IssueType> = { 401: 'login', 403: 'forbidden', 404: 'not-found', 429: 'throttled', 500: 'exception', 503: 'transient' };

  async function fhir(req: IncomingMessage, res: ServerResponse, url: URL, entry: EhrRequestLog): Promise<void> {
    const rest = url.pathname.slice('/fhir'.length);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, accept, content-type', 'access-control-allow-methods': 'GET' });
      res.end();
      return;
    }
    if (rest === '/.well-known/smart-configuration') return send(res, 200, smartConfiguration, { 'content-type': 'application/json' });
    if (rest === '/metadata') return send(res, 200, capabilityStatement());
    if (req.method !== 'GET') return send(res, 405, operationOutcome('not-supported', 'This EHR is read-only over FHIR.'));

    // The bearer token: it must be one oidc-provider issued and has not expired or been revoked.
    const unauthorized = (description: string) =>
      send(res, 401, operationOutcome('login', description), { 'www-authenticate': `Bearer realm="${fhirBase}", error="invalid_token", error_description="${description}"` });
    if (!entry.token) return unauthorized('a bearer access token is required');
    const accessToken = await provider.AccessToken.find(entry.token);
    if (!accessToken || accessToken.isExpired) return unauthorized('the access token is invalid, expired or revoked');
    const user = users.find((u) => u.username === accessToken.accountId);
    if (!user) return unauthorized('the access token has no patient');
    const patientId = user.patientId;
    entry.patientId = patientId;

    const segments = rest.split('/').filter(Boolean).map(decodeURIComponent);
    const type = segments[0] ?? '';
    const fault = takeFault('fhir', type, req.method ?? 'GET', url.pathname.slice('/fhir'.length) + url.search);
    if (fault) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.status === 401) headers['www-authenticate'] = `Bearer realm="${fhirBase}", error="invalid_token"`;
      return send(res, fault.status, fault.body ?? operationOutcome(faultCodes[fault.status] ?? 'exception', `Injected fault (${fault.status})`), headers);
    }

    if (!/^[A-Z][A-Za-z]+$/.test(type)) return send(res, 404, operationOutcome('not-found', `Unknown path ${url.pathname}`));
    const interactionKind = segments.length === 1 ? 'search' : 'read';
    if (!scopeAllows(accessToken.scope ?? '', type, interactionKind)) {
      return send(res, 403, operationOutcome('forbidden', `The granted scopes do not allow ${interactionKind} of ${type}.`), {
        'www-authenticate': `Bearer realm="${fhirBase}", error="insufficient_scope"`,
      });
    }

    if (segments.length === 1) {
      try {
        return send(res, 200, search(type, url.searchParams, patientId));
      } catch (error) {
        if (error instanceof SearchError) return send(res, error.status, operationOutcome(error.status === 403 ? 'forbidden' : 'invalid', error.message));
        throw error;
      }
    }

    // Reads, version reads and history go through the FHIR router; the compartment is checked on
    // what it returns.
    const [outcome, resource] = await router.handleRequest(
      { method: 'GET', url: segments.map(encodeURIComponent).join('/'), pathname: '', body: undefined, params: {}, query: {}, headers: req.headers },
      repo,
    );
    const status = outcome.id === 'ok' || outcome.issue?.[0]?.severity === 'information' ? 200 : outcome.id === 'not-found' ? 404 : outcome.id === 'gone' ? 410 : 400;
    if (status !== 200 || !resource) return send(res, status, outcome);
    const inCompartment = (r: Resource) => compartmentOf(r) === patientId;
    if (resource.resourceType === 'Bundle') {
      const entries = (resource as Bundle).entry ?? [];
      if (entries.some((e) => e.resource && !inCompartment(e.resource))) return send(res, 403, operationOutcome('forbidden', 'This resource is not in your record.'));
      return send(res, 200, resource);
    }
    if (!inCompartment(resource)) return send(res, 403, operationOutcome('forbidden', 'This resource is not in your record.'));
    if (resource.resourceType === 'Binary') {
      const accept = req.headers.accept ?? '';
      if (!/application\/(fhir\+)?json/.test(accept)) {
        const data = Buffer.from(resource.data ?? '', 'base64');
        res.writeHead(200, { 'content-type': resource.contentType ?? 'application/octet-stream', 'content-length': String(data.byteLength) });
        res.end(data);
        return;
      }
    }
    return send(res, 200, resource, resource.meta?.versionId ? { etag: `W/"${resource.meta.versionId}"`, 'last-modified': new Date(resource.meta.lastUpdated ?? Date.now()).toUTCString() } : {});
  }

  /** A searchset of the token patient's resources of one type, paged by _offset with absolute links. */
  function search(type: string, params: URLSearchParams, patientId: string): Bundle {
    for (const name of ['patient', 'subject']) {
      for (const value of params.getAll(name)) {
        if (referencedPatient(value) !== patientId) throw new SearchError(`${name}=${value}: you may only read your own record.`, 403);
      }
    }
    let all = sorted.get(type);
    if (!all) {
      all = [...(current.get(type)?.values() ?? [])].sort((a, b) => (a.meta?.lastUpdated ?? '').localeCompare(b.meta?.lastUpdated ?? '') || (a.id ?? '').localeCompare(b.id ?? ''));
      sorted.set(type, all);
    }
    const ids = params.get('_id')?.split(',');
    const lastUpdated = params.getAll('_lastUpdated');
    const category = params.get('category');
    const code = params.get('code');
    const status = params.get('status')?.split(',');
    const matches = all.filter(
      (r) =>
        compartmentOf(r) === patientId &&
        (!ids || ids.includes(r.id as string)) &&
        lastUpdated.every((condition) => lastUpdatedMatches(r.meta?.lastUpdated, condition)) &&
        (!category || tokenMatches(conceptsOf(r, 'category'), category)) &&
        (!code || tokenMatches(conceptsOf(r, 'code'), code)) &&
        (!status || status.includes(String((r as { status?: unknown }).status))),
    );
    const count = Math.min(Math.max(Number.parseInt(params.get('_count') ?? '50', 10) || 50, 1), 1000);
    const offset = Math.max(Number.parseInt(params.get('_offset') ?? '0', 10) || 0, 0);
    const pageOf = (at: number) => {
      const query = new URLSearchParams(params);
      query.set('_count', String(count));
      query.set('_offset', String(at));
      return `${fhirBase}/${type}?${query.toString()}`;
    };
    const now = Math.max(Date.now(), lastStampMs);
    lastStampMs = now;
    const link: Bundle['link'] = [
      { relation: 'self', url: pageOf(offset) },
      { relation: 'first', url: pageOf(0) },
    ];
    if (offset + count < matches.length) link.push({ relation: 'next', url: pageOf(offset + count) });
    if (offset > 0) link.push({ relation: 'previous', url: pageOf(Math.max(offset - count, 0)) });
    return {
      resourceType: 'Bundle',
      id: randomUUID(),
      meta: { lastUpdated: new Date(now).toISOString() },
      type: 'searchset',
      total: matches.length,
      link,
      entry: matches.slice(offset, offset + count).map((resource): BundleEntry => ({ fullUrl: `${fhirBase}/${type}/${resource.id}`, resource, search: { mode: 'match' } })),
    };
  }

  // --- data controls ---------------------------------------------------------------------------

  async function store1(resource: Resource): Promise<Resource> {
    const exists = resource.id !== undefined && current.get(resource.resourceType)?.has(resource.id);
    const stored = exists ? await repo.updateResource(resource) : await repo.createResource(resource);
    index(stored);
    return stored;
  }

  const ehr: TestEhr = {
    origin,
    fhirBase,
    issuer,
    authorizationEndpoint: smartConfiguration.authorization_endpoint,
    tokenEndpoint: smartConfiguration.token_endpoint,
    users,
    requests,
    tokenRequests,
    provider,
    async addPatient(patient) {
      const seedValue = patient.seed ?? [...patient.patientId].reduce((hash, c) => (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0, 7);
      const records = generatePatientRecords(seedValue, { patientId: patient.patientId, name: patient.name, fileOrigin: origin, ...(patient.resources ? { resources: patient.resources } : {}) });
      await ehr.seed(records.resources);
      for (const file of records.files) files.set(file.path, file);
      if (patient.username) users.push({ username: patient.username, password: patient.password ?? `${patient.username}-password`, patientId: patient.patientId });
      return records;
    },
    async seed(resources) {
      await clockPast(lastStampMs);
      const stored: Resource[] = [];
      for (const resource of resources) stored.push(structuredClone(await store1(resource)));
      return stored;
    },
    async update(resource) {
      if (!resource.id || !current.get(resource.resourceType)?.has(resource.id)) throw new Error(`update: ${resource.resourceType}/${resource.id} does not exist`);
      await clockPast(lastStampMs);
      // MemoryRepository.updateResource drops the given versionId and lastUpdated and stamps new ones.
      return structuredClone(await store1(resource)) as typeof resource;
    },
    async remove(type, id) {
      await clockPast(lastStampMs);
      await repo.deleteResource(type, id);
      current.get(type)?.delete(id);
      sorted.delete(type);
      lastStampMs = Math.max(lastStampMs, Date.now());
    },
    get(type, id) {
      const resource = current.get(type)?.get(id);
      return resource && structuredClone(resource);
    },
    resourcesOf(patientId, type) {
      const types = type ? [type] : [...current.keys()];
      return types.flatMap((t) => [...(current.get(t)?.values() ?? [])].filter((r) => compartmentOf(r) === patientId).map((r) => structuredClone(r)));
    },
    fail(rule) {
      const stored = { ...rule, uses: 0 };
      faults.push(stored);
      return stored;
    },
    clearFaults() {
      faults = [];
    },
    async expireAccessTokens() {
      store.forget(['AccessToken']);
    },
    async revokeTokens() {
      store.forget(['AccessToken', 'RefreshToken', 'AuthorizationCode', 'Grant']);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  for (const patient of options.patients ?? DEFAULT_PATIENTS) await ehr.addPatient(patient);
  return ehr;
}

/** A minimal cookie jar for authorizeByHttp: name → value, with the path each cookie was set for. */
class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = attributeValue;
        if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true;
      }
      const key = `${name};${path}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.entries()]
      .filter(([, cookie]) => url.pathname === cookie.path || url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`) || cookie.path === '/')
      .map(([key, cookie]) => `${key.slice(0, key.indexOf(';'))}=${cookie.value}`)
      .join('; ');
  }
}

export interface AuthorizeByHttpOptions {
  username: string;
  password: string;
  consent: 'allow' | 'deny';
}

/**
 * Runs the authorization request as a browser would, with fetch: follows the EHR's redirects by hand
 * (carrying its cookies), signs in and answers the consent page, and resolves with the redirect to
 * the client's redirect_uri (code and state, or error and state). Rejects when the EHR shows an
 * error page instead, or when the sign-in is refused.
 */
export async function authorizeByHttp(ehr: Pick<TestEhr, 'origin'>, authorizeUrl: string | URL, options: AuthorizeByHttpOptions): Promise<URL> {
  const start = new URL(authorizeUrl);
  const redirectUri = start.searchParams.get('redirect_uri');
  if (!redirectUri) throw new Error('authorizeByHttp: the authorization URL has no redirect_uri');
  const jar = new CookieJar();
  let next: { url: URL; method: 'GET' | 'POST'; body?: URLSearchParams } = { url: start, method: 'GET' };
  let signedIn = false;
  for (let step = 0; step < 20; step++) {
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = jar.header(next.url);
    if (cookie) headers.cookie = cookie;
    if (next.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(next.url, { method: next.method, headers, redirect: 'manual', ...(next.body ? { body: next.body.toString() } : {}) });
    jar.store(response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      const target = new URL(location, next.url);
      if (target.href.startsWith(redirectUri)) return target;
      if (target.origin !== new URL(ehr.origin).origin) throw new Error(`authorizeByHttp: redirected away to ${target.href}`);
      next = { url: target, method: 'GET' };
      continue;
    }
    const html = await response.text();
    const form = /<form method="post" action="([^"]+)" data-step="(login|consent)">/.exec(html);
    if (!form) throw new Error(`authorizeByHttp: ${response.status} at ${next.url.pathname}: ${html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300)}`);
    const action = new URL((form[1] as string).replace(/&amp;/g, '&'), next.url);
    if (form[2] === 'login') {
      if (signedIn) throw new Error(`authorizeByHttp: the EHR refused the sign-in of ${options.username}`);
      signedIn = true;
      next = { url: action, method: 'POST', body: new URLSearchParams({ username: options.username, password: options.password }) };
    } else {
      next = { url: action, method: 'POST', body: new URLSearchParams({ decision: options.consent }) };
    }
  }
  throw new Error('authorizeByHttp: too many steps');
}
