import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
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

const milliseconds = (fallback: number) =>
  z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(100, 'must be at least 100').max(600_000).default(fallback);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { message: 'must be development, production or test' }).default('development'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']).optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('HealthBook <no-reply@healthbook.example>'),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:']).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: booleanFromEnv.optional(),
  AUTH_RATE_LIMIT: z.coerce.number({ message: 'must be a number' }).int().min(1, 'must be at least 1').default(20),
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds(2000),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(3000),
  DATABASE_STARTUP_WAIT_S: z.coerce.number({ message: 'must be a number of seconds' }).int().min(0).max(3600).default(30),
  SHUTDOWN_GRACE_MS: z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(0).max(60_000).default(1000),
  API_DOCS: booleanFromEnv.optional(),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  jwtSecret: string;
  logLevel: string;
  seedDemo: boolean;
  /** Requests a minute one IP may make to sign-in, verify, reset, code retrieval and access-code validation. */
  authRateLimit: number;
  /** Where the built web app lives; absent in API-only tests. */
  webDist: string | undefined;
  /** PostgreSQL: how long to wait for a connection (new, or a free one from the pool). */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: the longest a statement may run (server side) or wait for its answer (client side). */
  databaseStatementTimeoutMs: number;
  /** At start-up, how long to keep retrying a database that does not answer before giving up. */
  databaseStartupWaitS: number;
  /** After SIGTERM: how long new requests still get 503 + Retry-After (instead of a refused connection) before the listener closes. */
  shutdownGraceMs: number;
  /** Serve the OpenAPI page at /api/docs (default: on, except in production). */
  apiDocs: boolean;
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

/** Parses the environment once. Nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(clean(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
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
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: overrides.jwtSecret ?? resolveJwtSecret(dataDir, e.JWT_SECRET),
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO ?? e.NODE_ENV !== 'production',
    authRateLimit: e.AUTH_RATE_LIMIT,
    webDist: existsSync(path.join(webDist, 'index.html')) ? webDist : undefined,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    databaseStartupWaitS: e.DATABASE_STARTUP_WAIT_S,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    ...overrides,
  };
}

/** What an operator must hear about at start-up: settings that work, but not as a real deployment should. */
export function configWarnings(config: Pick<Config, 'env' | 'smtpUrl'>): string[] {
  const warnings: string[] = [];
  if (config.env === 'production' && !config.smtpUrl) {
    warnings.push(
      'SMTP_URL is not set in production: mail (invitation codes, sign-in codes, password reset links) is only kept in the mail_outbox table and reaches nobody. Set SMTP_URL.',
    );
  }
  return warnings;
}
