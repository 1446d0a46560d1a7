import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type AppDeps } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type Db } from '../src/db/client';
import { migrateToLatest } from '../src/db/migrations';
import { requestsDatabase } from '../src/db/setup';
import { seedDemo } from '../src/db/seed/demo';
import { LocalStorage } from '../src/plugins/storage';

/**
 * Builds the real app for a test file on a fresh database (model: fastify/demo test/helper.ts).
 *
 * TEST_DB_KIND=postgres (the server-pg project) creates a uniquely named database on the server
 * at TEST_DATABASE_URL and drops it afterwards; otherwise the database is PGlite in memory.
 */

export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

export interface TestAppOptions {
  /** Seed the demo organisations and users (default false). */
  seed?: boolean;
  /** Extra environment for loadConfig (NODE_ENV, SMTP_URL, ...). */
  env?: Record<string, string>;
  /** Config overrides after the environment is parsed. */
  config?: Partial<Config>;
  /** Called after buildApp and before ready(): the place to add test-only routes or hooks. */
  setup?: (app: FastifyInstance) => void | Promise<void>;
  /** Call app.ready() before returning (default true; false to add routes in the test itself). */
  ready?: boolean;
  /** Per-IP limits are raised to this floor so files that sign in often are not throttled (0: the real limits). */
  perIpLimitFloor?: number;
  /** A patient's share allowances are raised to this floor so files that share often are not throttled (0: the real limits). */
  shareLimitFloor?: number;
  /** Route plugins registered in the authenticated context (as a feature module would). */
  signedInRoutes?: AppDeps['signedInRoutes'];
  /** Shared Redis for rate limits and cache invalidation across apps. */
  redis?: AppDeps['rateLimitRedis'];
  /** Another app's file store (processes sharing one S3 bucket), instead of one in its DATA_DIR. */
  storage?: AppDeps['storage'];
  /** Another app's PostgreSQL database (a second process on one database), instead of a fresh one. */
  databaseUrl?: string;
  /** Other limits for the chat socket (sockets per user, slices, unfinished files' timeout). */
  chatLimits?: AppDeps['chatLimits'];
  /** Backoff of requests to record sources (default: milliseconds, so that retried 429/5xx answers do not slow the tests). */
  sourceRetry?: AppDeps['sourceRetry'];
  /** PostgreSQL: open the database as the server does, with the pool and timeouts of the configuration (DATABASE_POOL_SIZE, …). */
  poolFromConfig?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  dataDir: string;
  /** Closes the app (if still open), drops the database and removes DATA_DIR. Safe to call twice. */
  close(): Promise<void>;
  /** The PostgreSQL URL of its database (null on PGlite). */
  databaseUrl: string | null;
}

interface FreshDatabase {
  db: Db;
  /** The PostgreSQL URL of the new database (null for PGlite in memory). */
  url: string | null;
  drop(): Promise<void>;
}

export function testDbKind(): 'postgres' | 'pglite' {
  return process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** What a new database starts as: empty, or a copy of the run's migrated or seeded one (global-setup.ts). */
export type DatabaseStart = 'empty' | 'migrated' | 'seeded';

/** The run's templates (global-setup.ts), when the project made them. */
function templates() {
  try {
    return inject('testTemplates');
  } catch {
    return undefined;
  }
}

/** A new database: a fresh PostgreSQL database, or PGlite in memory; empty unless `start` names a template of the run. */
export async function openFreshDatabase(start: DatabaseStart = 'empty'): Promise<FreshDatabase> {
  const template = start === 'empty' ? undefined : templates()?.[start];
  if (testDbKind() !== 'postgres') {
    const blob = template ? new Blob([await readFile(template)]) : undefined;
    const db = await openDatabase({ kind: 'pglite', dataDir: undefined, template: blob });
    return { db, url: null, drop: async () => undefined };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB_KIND=postgres needs TEST_DATABASE_URL');
  const name = `hb_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient((c) => c.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
  return {
    db,
    url: url.toString(),
    drop: () =>
      withAdminClient(async (c) => {
        await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
        await c.query(`DROP DATABASE IF EXISTS "${name}"`);
      }),
  };
}

/**
 * The template an app starts from: seeded when it asks for the demo data and keeps its files on
 * the local disk (the seed's files are copied there); migrated otherwise. Another app's database
 * is opened as it is.
 */
function startFor(opts: TestAppOptions): DatabaseStart {
  if (!templates()) return 'empty';
  return opts.seed && !opts.storage ? 'seeded' : 'migrated';
}

export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hb-test-'));
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...opts.env },
    { jwtSecret: TEST_JWT_SECRET, webDist: undefined, ...opts.config },
  );
  // Another app's database is opened as it is; a fresh one starts from the run's template.
  const start: DatabaseStart = opts.databaseUrl ? 'empty' : startFor(opts);
  const fresh: FreshDatabase = opts.databaseUrl
    ? { db: await openDatabase({ kind: 'postgres', url: opts.databaseUrl, poolSize: 5 }), url: opts.databaseUrl, drop: async () => undefined }
    : await openFreshDatabase(start);
  if (opts.poolFromConfig && fresh.url) {
    await fresh.db.destroy();
    fresh.db = await openDatabase(requestsDatabase(fresh.url, config));
  }
  const { db } = fresh;
  let app: FastifyInstance | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      // The app's onClose hook destroys the database; closing an already closed app is a no-op.
      if (app) await app.close();
      else await db.destroy();
    } finally {
      await db.destroy().catch(() => undefined);
      await fresh.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  };
  try {
    const storage = opts.storage ?? new LocalStorage(path.join(config.dataDir, 'files'));
    // A copy of the run's migrated (or seeded) database is already up to date: this finds nothing to do.
    await migrateToLatest(db);
    if (opts.seed) {
      if (start === 'seeded') await cp(templates()!.seededFiles, path.join(config.dataDir, 'files'), { recursive: true });
      else await seedDemo(db, storage);
    }
    app = await buildApp(config, {
      db,
      storage,
      perIpLimitFloor: opts.perIpLimitFloor ?? 10_000,
      shareLimitFloor: opts.shareLimitFloor ?? 1000,
      ...(opts.signedInRoutes ? { signedInRoutes: opts.signedInRoutes } : {}),
      ...(opts.redis ? { rateLimitRedis: opts.redis } : {}),
      ...(opts.chatLimits ? { chatLimits: opts.chatLimits } : {}),
      sourceRetry: opts.sourceRetry ?? { attempts: 3, baseMs: 20, maxWaitMs: 1000 },
    });
    await opts.setup?.(app);
    if (opts.ready !== false) await app.ready();
    return { app, db, config, dataDir, close, databaseUrl: fresh.url };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * One app per test file (or describe block): built in beforeAll, closed in afterAll.
 * Read `t.app`, `t.db` inside tests and hooks, not at collection time.
 */
export function useTestApp(opts: TestAppOptions = {}): TestApp {
  let current: TestApp | undefined;
  const get = () => {
    if (!current) throw new Error('useTestApp: the app is built in beforeAll; use it inside tests and hooks');
    return current;
  };
  beforeAll(async () => {
    current = await buildTestApp(opts);
  });
  afterAll(async () => {
    await current?.close();
  });
  return {
    get app() {
      return get().app;
    },
    get db() {
      return get().db;
    },
    get config() {
      return get().config;
    },
    get dataDir() {
      return get().dataDir;
    },
    get databaseUrl() {
      return get().databaseUrl;
    },
    close: () => get().close(),
  };
}

/**
 * Collects the lines the app's logger writes (as they would reach stdout), from now on.
 * Sets the level (default info) so the lines are actually written.
 */
export function captureLogs(app: FastifyInstance, level = 'info'): { lines: string[]; restore(): void } {
  const logger = app.log as unknown as Record<symbol, unknown> & { level: string };
  const streamSym = pino.symbols.streamSym as symbol;
  const previousStream = logger[streamSym];
  const previousLevel = logger.level;
  const lines: string[] = [];
  logger[streamSym] = { write: (line: string) => void lines.push(line) };
  logger.level = level;
  return {
    lines,
    restore() {
      logger[streamSym] = previousStream;
      logger.level = previousLevel;
    },
  };
}
