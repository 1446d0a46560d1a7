import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const urlWithProtocols = (protocols: string[]) =>
  z
    .string()
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

/** Where an S3-compatible store is: STORAGE_URL, `s3://[ACCESS_KEY:SECRET@]bucket[?endpoint=…&region=…&path_style=true]`. */
export interface S3Location {
  bucket: string;
  /** An S3-compatible server's address (MinIO, s3rver, …); none for AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** `http://host/bucket/key` rather than `http://bucket.host/key`: what most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** None: the SDK's default chain (AWS_ACCESS_KEY_ID…, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const STORAGE_URL_OPTIONS = ['endpoint', 'region', 'path_style'];
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const decodeUserInfo = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new Error('has a badly percent-encoded access key or secret');
  }
};

/**
 * Reads STORAGE_URL. Throws an Error whose message says what is wrong (never echoing the secret);
 * config.ts checks the value at start-up with it, storage builds its client from it.
 */
export function parseStorageUrl(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('must be a URL like s3://ACCESS_KEY:SECRET@bucket?endpoint=https://host (percent-encode / @ : in the key and secret)');
  }
  if (url.protocol !== 's3:') throw new Error('must be a URL starting with s3://');
  const bucket = url.hostname;
  if (!bucket) throw new Error('must name a bucket: s3://bucket');
  if (!BUCKET_NAME.test(bucket)) throw new Error(`bucket "${bucket}" is not a valid name (3 to 63 lower-case letters, digits, dots and hyphens)`);
  if (url.pathname !== '' && url.pathname !== '/') throw new Error('must not have a path after the bucket (key prefixes are not supported)');
  if (url.hash) throw new Error('must not have a #fragment');
  if (Boolean(url.username) !== Boolean(url.password)) throw new Error('must give both an access key and a secret (s3://KEY:SECRET@bucket), or neither');
  const params = url.searchParams;
  for (const name of new Set(params.keys())) {
    if (!STORAGE_URL_OPTIONS.includes(name)) throw new Error(`has an unknown option "${name}" (known: ${STORAGE_URL_OPTIONS.join(', ')})`);
    if (params.getAll(name).length > 1) throw new Error(`gives the option "${name}" more than once`);
  }
  const endpoint = params.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    let protocol: string | undefined;
    try {
      protocol = new URL(endpoint).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'http:' && protocol !== 'https:') throw new Error('endpoint must be a URL starting with http:// or https://');
  }
  const region = params.get('region') ?? 'us-east-1';
  if (!/^[a-z0-9-]+$/i.test(region)) throw new Error('region must be a region name such as us-east-1');
  const pathStyle = params.get('path_style') ?? 'false';
  if (!['true', 'false', '1', '0', 'yes', 'no'].includes(pathStyle)) throw new Error('path_style must be true or false');
  return {
    bucket,
    endpoint,
    region,
    forcePathStyle: pathStyle === 'true' || pathStyle === '1' || pathStyle === 'yes',
    credentials: url.username ? { accessKeyId: decodeUserInfo(url.username), secretAccessKey: decodeUserInfo(url.password) } : undefined,
  };
}

const storageUrl = z.string().superRefine((value, ctx) => {
  try {
    parseStorageUrl(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
});

const milliseconds = (fallback: number) =>
  z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100, 'must be at least 100').max(600_000).default(fallback);

/**
 * TURN_URLS: the STUN and TURN servers of video visits, separated by commas, as RFC 7064/7065
 * write them: `stun:host[:port]`, `turn:host[:port][?transport=udp|tcp]`, `turns:host[:port]…`.
 */
const TURN_URI = /^(stuns?):[A-Za-z0-9.-]+(:\d{1,5})?$|^(turns?):[A-Za-z0-9.-]+(:\d{1,5})?(\?transport=(udp|tcp))?$/;
const turnUrls = z.string().transform((value, ctx) => {
  const urls = value.split(',').map((u) => u.trim()).filter(Boolean);
  const bad = urls.filter((u) => !TURN_URI.test(u));
  if (bad.length || !urls.length) {
    ctx.addIssue({ code: 'custom', message: `must be stun:, turn: or turns: URLs (such as turn:turn.example.org:3478?transport=udp) separated by commas${bad.length ? `; not one: ${bad.join(', ')}` : ''}` });
    return z.NEVER;
  }
  return urls;
});

/**
 * TRUST_PROXY: which proxies in front may tell the client's address (X-Forwarded-For) and protocol.
 * A number of hops (1: the one reverse proxy that sets X-Forwarded-For itself), or a comma-separated
 * list of addresses and CIDR ranges. Unset: none, the peer's address is the client's.
 */
const trustProxy = z.string().transform((value, ctx) => {
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= 10) return hops;
    ctx.addIssue({ code: 'custom', message: 'must be a number of proxies from 1 to 10, or addresses and CIDR ranges separated by commas' });
    return z.NEVER;
  }
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.some((entry) => {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    if (!family || rest.length) return true;
    if (bits === undefined) return false;
    return !/^\d+$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128);
  });
  if (bad || !entries.length) {
    ctx.addIssue({ code: 'custom', message: 'must be a number of proxies from 1 to 10, or addresses and CIDR ranges separated by commas' });
    return z.NEVER;
  }
  return entries;
});

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { message: 'must be development, production or test' }).default('development'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']).optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']).optional(),
  STORAGE_URL: storageUrl.optional(),
  MAIL_FROM: z.string().min(3).default('HealthBook <no-reply@healthbook.example>'),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:']).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: booleanFromEnv.optional(),
  AUTH_RATE_LIMIT: z.coerce.number({ message: 'must be a number' }).int().min(1, 'must be at least 1').default(20),
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds(2000),
  DATABASE_POOL_SIZE: z.coerce.number({ message: 'must be a number of connections' }).int().min(1, 'must be at least 1').max(1000).default(20),
  DATABASE_POOL_WAIT_MS: milliseconds(10_000),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(3000),
  DATABASE_STARTUP_WAIT_S: z.coerce.number({ message: 'must be a number of seconds' }).int().min(0).max(3600).default(30),
  SHUTDOWN_GRACE_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(0).max(60_000).default(1000),
  API_DOCS: booleanFromEnv.optional(),
  SYMPTOM_CHECKER: z.enum(['builtin', 'http'], { message: 'must be builtin or http' }).default('builtin'),
  SYMPTOM_CHECKER_URL: urlWithProtocols(['http:', 'https:']).optional(),
  SYMPTOM_CHECKER_TIMEOUT_MS: milliseconds(5000),
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  METRICS_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  TRUST_PROXY: trustProxy.optional(),
  SOURCES_ALLOW_INSECURE: booleanFromEnv.optional(),
  SOURCES_TIMEOUT_MS: milliseconds(15_000),
  SOURCES_SYNC_EVERY_H: z.coerce.number({ message: 'must be a number of hours' }).min(1, 'must be at least 1').max(24 * 30).default(24),
  TURN_URLS: turnUrls.optional(),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters (the static-auth-secret of coturn)').optional(),
})
  .refine((e) => e.SYMPTOM_CHECKER !== 'http' || e.SYMPTOM_CHECKER_URL, { path: ['SYMPTOM_CHECKER_URL'], message: 'is needed with SYMPTOM_CHECKER=http' })
  .refine((e) => !e.TURN_URLS?.some((u) => u.startsWith('turn')) || e.TURN_SECRET, {
    path: ['TURN_SECRET'],
    message: 'is needed with turn: or turns: URLs in TURN_URLS (the secret shared with the TURN server, its static-auth-secret)',
  });

/** Which symptom checker answers: the built-in one (offline), or an external one over HTTP. */
export type SymptomCheckerConfig = { kind: 'builtin' } | { kind: 'http'; url: string; timeoutMs: number };

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  /** An S3-compatible store for files (s3://…, checked by parseStorageUrl); without it, files live under DATA_DIR/files. */
  storageUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  jwtSecret: string;
  logLevel: string;
  seedDemo: boolean;
  /** Requests a minute one IP may make to sign-in, verify, reset, code retrieval and access-code validation. */
  authRateLimit: number;
  /** Where the built web app lives; absent in API-only tests. */
  webDist: string | undefined;
  /** PostgreSQL: how long to wait for a new connection to open. */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: the most connections this process holds. */
  databasePoolSize: number;
  /** PostgreSQL: how long a request waits in the pool's queue for a free connection (then 503). */
  databasePoolWaitMs: number;
  /** PostgreSQL: the longest a statement may run (server side) or wait for its answer (client side). */
  databaseStatementTimeoutMs: number;
  /** At start-up, how long to keep retrying a database that does not answer before giving up. */
  databaseStartupWaitS: number;
  /** After SIGTERM: how long new requests still get 503 + Retry-After (instead of a refused connection) before the listener closes. */
  shutdownGraceMs: number;
  /** Serve the OpenAPI page at /api/docs (default: on, except in production). */
  apiDocs: boolean;
  /** SYMPTOM_CHECKER (+ SYMPTOM_CHECKER_URL, SYMPTOM_CHECKER_TIMEOUT_MS). */
  symptomChecker: SymptomCheckerConfig;
  /** Prometheus metrics: GET /metrics with METRICS_TOKEN as a bearer token, and/or on METRICS_HOST:METRICS_PORT; off without either. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** TRUST_PROXY: proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (hops, or addresses and ranges); false: none. */
  trustProxy: number | string[] | false;
  /**
   * Connected record sources (SMART on FHIR): SOURCES_ALLOW_INSECURE lets sources be http:// or on
   * private networks (default: only outside production); SOURCES_TIMEOUT_MS bounds each request to
   * a source; SOURCES_SYNC_EVERY_H is the time between automatic syncs of a connection.
   */
  sources: { allowInsecure: boolean; timeoutMs: number; syncEveryMs: number };
  /** Video visits' STUN/TURN servers (TURN_URLS) and the secret shared with the TURN server (TURN_SECRET); none: peer to peer only. */
  turn: { urls: string[]; secret: string | undefined };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Blank values count as unset, as in most twelve-factor apps. */
function clean(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== '')) as Record<string, string>;
}

/** The JWT secret: from the environment, else generated once and kept in DATA_DIR. */
function resolveJwtSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/**
 * The mark of the placeholders in .env.example (`change-me-…`): values nobody may run a real
 * installation with, since everyone who has read the example knows them.
 */
export const PLACEHOLDER_MARK = /(?<![a-z])change[-_]?me(?![a-z])/i;

const decoded = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/**
 * In production, refuses to start while any variable still holds a placeholder of .env.example
 * (a secret, or a URL whose password is one): one line naming the variables, never their values.
 */
function refusePlaceholders(env: Record<string, string>) {
  const names = Object.entries(env)
    .filter(([name]) => name in EnvSchema.shape)
    .filter(([, value]) => PLACEHOLDER_MARK.test(value) || PLACEHOLDER_MARK.test(decoded(value)))
    .map(([name]) => name)
    .sort();
  if (names.length) {
    throw new ConfigError(
      `Refusing to start in production: ${names.join(', ')} still ${names.length === 1 ? 'holds' : 'hold'} a placeholder ("change-me…") from .env.example; put real secrets in .env (for example openssl rand -hex 32).`,
    );
  }
}

/** Parses the environment once. Nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(clean(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production') refusePlaceholders(clean(env));
  const dataDir = path.resolve(e.DATA_DIR);
  const webDist = path.resolve(import.meta.dirname, '../../web/dist');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    storageUrl: e.STORAGE_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: overrides.jwtSecret ?? resolveJwtSecret(dataDir, e.JWT_SECRET),
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO ?? e.NODE_ENV !== 'production',
    authRateLimit: e.AUTH_RATE_LIMIT,
    webDist: existsSync(path.join(webDist, 'index.html')) ? webDist : undefined,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePoolWaitMs: e.DATABASE_POOL_WAIT_MS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    databaseStartupWaitS: e.DATABASE_STARTUP_WAIT_S,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    symptomChecker: e.SYMPTOM_CHECKER === 'http' ? { kind: 'http', url: e.SYMPTOM_CHECKER_URL!, timeoutMs: e.SYMPTOM_CHECKER_TIMEOUT_MS } : { kind: 'builtin' },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    trustProxy: e.TRUST_PROXY ?? false,
    sources: { allowInsecure: e.SOURCES_ALLOW_INSECURE ?? e.NODE_ENV !== 'production', timeoutMs: e.SOURCES_TIMEOUT_MS, syncEveryMs: e.SOURCES_SYNC_EVERY_H * 3_600_000 },
    turn: { urls: e.TURN_URLS ?? [], secret: e.TURN_SECRET },
    ...overrides,
  };
}

/** What an operator must hear about at start-up: settings that work, but not as a real deployment should. */
export function configWarnings(config: Pick<Config, 'env' | 'smtpUrl' | 'turn'>): string[] {
  const warnings: string[] = [];
  if (config.env === 'production' && !config.smtpUrl) {
    warnings.push(
      'SMTP_URL is not set in production: mail (invitation codes, sign-in codes, password reset links) is only kept in the mail_outbox table and reaches nobody. Set SMTP_URL.',
    );
  }
  if (config.env === 'production' && !hasTurnRelay(config.turn)) {
    warnings.push(
      'TURN_URLS has no turn: server in production: video visits connect only where both networks allow peer-to-peer calls (many do not). Run a TURN server such as coturn and set TURN_URLS and TURN_SECRET.',
    );
  }
  return warnings;
}

/** Whether video visits have a relay (a turn: or turns: URL; its secret is required with it). */
export function hasTurnRelay(turn: Config['turn']): boolean {
  return turn.urls.some((u) => u.startsWith('turn:') || u.startsWith('turns:'));
}
