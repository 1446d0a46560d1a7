import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Config } from '../config';
import type { Storage } from '../plugins/storage';
import { openDatabase, type DatabaseTarget, type Db } from './client';
import { migrateToLatest } from './migrations';
import { seedDemo } from './seed/demo';

/** Exit code when the database does not answer at start-up (EX_UNAVAILABLE). */
export const DATABASE_UNAVAILABLE_EXIT_CODE = 69;

/** The database could not be reached (or refused us); the message is one line for an operator, no stack. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** A database URL with its password hidden, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

type StartupLog = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/** Why a connection attempt failed, briefly: the system error code or the server's message. */
function reason(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length) return reason(err.errors[0]);
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && !(err instanceof pg.DatabaseError)) return e.code;
  return typeof e.message === 'string' && e.message ? e.message : String(err);
}

/**
 * Connection-level failures that may pass: nothing listening yet, the connection dropped or timed
 * out, the server starting up or full. A server that answers with any other error (wrong password,
 * no such database) will not change its mind by waiting.
 */
function mayPass(err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return true;
  return err.code === '57P03' || err.code === '53300' || (err.code?.startsWith('08') ?? false);
}

/** Connects once and runs `select 1`, within the connect timeout. */
async function probe(url: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Waits for the PostgreSQL server at DATABASE_URL to answer, for up to DATABASE_STARTUP_WAIT_S, with
 * backoff (0.25 s doubling to 5 s), one log line per failed try. Throws DatabaseUnavailableError
 * when it does not answer in time, or answers with an error waiting will not fix.
 */
export async function waitForDatabase(url: string, config: Pick<Config, 'databaseStartupWaitS' | 'databaseConnectTimeoutMs'>, log: StartupLog) {
  const shown = redactUrl(url);
  const deadline = Date.now() + config.databaseStartupWaitS * 1000;
  for (let attempt = 1, delayMs = 250; ; attempt++, delayMs = Math.min(delayMs * 2, 5000)) {
    try {
      await probe(url, config.databaseConnectTimeoutMs);
      if (attempt > 1) log.info(`database at DATABASE_URL ${shown} answers (try ${attempt})`);
      return;
    } catch (err) {
      const why = reason(err);
      if (!mayPass(err)) throw new DatabaseUnavailableError(`cannot use the database at DATABASE_URL ${shown}: ${why}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new DatabaseUnavailableError(
          `the database at DATABASE_URL ${shown} did not answer within ${config.databaseStartupWaitS} s (${why}); ` +
            'start PostgreSQL or correct DATABASE_URL (DATABASE_STARTUP_WAIT_S sets how long to wait)',
        );
      }
      const waitMs = Math.min(delayMs, left);
      log.warn(`database at DATABASE_URL ${shown} does not answer (${why}); try ${attempt}, next in ${(waitMs / 1000).toFixed(1)} s`);
      await sleep(waitMs);
    }
  }
}

/**
 * Opens the configured database, brings its schema up to date and, when asked, seeds the demo data.
 * PostgreSQL is waited for first (see waitForDatabase); PGlite is in DATA_DIR, which the caller owns.
 */
export async function prepareDatabase(config: Config, storage: Storage, log: StartupLog): Promise<Db> {
  if (!config.databaseUrl) {
    const db = await openDatabase({ kind: 'pglite', dataDir: config.dataDir });
    try {
      await migrateAndSeed(db, config, storage, log);
      return db;
    } catch (err) {
      await db.destroy();
      throw err;
    }
  }
  await waitForDatabase(config.databaseUrl, config, log);
  // Migrations and the seed may take longer than a request's statement limit (a backfill on a
  // large table): they run on a connection of their own, without it.
  const setup = await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: 1, timeouts: { connectMs: config.databaseConnectTimeoutMs, statementMs: 0 } });
  try {
    await migrateAndSeed(setup, config, storage, log);
  } finally {
    await setup.destroy();
  }
  return openDatabase(requestsDatabase(config.databaseUrl, config));
}

/** The PostgreSQL database as requests use it: the pool's size and queue, and the timeouts, from the configuration. */
export function requestsDatabase(
  url: string,
  config: Pick<Config, 'databasePoolSize' | 'databasePoolWaitMs' | 'databaseConnectTimeoutMs' | 'databaseStatementTimeoutMs'>,
): DatabaseTarget {
  return {
    kind: 'postgres',
    url,
    poolSize: config.databasePoolSize,
    poolWaitMs: config.databasePoolWaitMs,
    timeouts: { connectMs: config.databaseConnectTimeoutMs, statementMs: config.databaseStatementTimeoutMs },
  };
}

async function migrateAndSeed(db: Db, config: Config, storage: Storage, log: StartupLog): Promise<void> {
  const applied = await migrateToLatest(db);
  if (applied.length) log.info({ migrations: applied }, 'database migrated');
  if (config.seedDemo && (await seedDemo(db, storage))) log.info('demo data seeded');
}
