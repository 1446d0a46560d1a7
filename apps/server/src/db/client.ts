import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type Dialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Database } from './schema';

export type Db = Kysely<Database>;

/**
 * SQL text of hot queries (see prepared.ts) -> the name of a server-side prepared statement.
 * On PostgreSQL such a query is parsed and planned once per connection instead of every time.
 */
export const namedStatements = new Map<string, string>();

/** The pg pool behind a PostgreSQL database, for the few hot queries that run as named statements directly. */
export const pgPools = new WeakMap<Kysely<Database>, pg.Pool>();

/** The embedded PGlite behind a database, for what Kysely does not expose (LISTEN). */
export const pgliteClients = new WeakMap<Kysely<Database>, PGlite>();

/**
 * Channels every pooled connection LISTENs on. A connection hears its own notifications when
 * its transaction commits, before the statement's answer: a process that writes learns of its
 * own change before it answers the request (see notifications.ts).
 */
export const CHANGE_CHANNELS = ['healthbook_sessions'] as const;
/** Notifications heard on a pool's connections, emitted by channel. */
export const poolNotifications = new WeakMap<pg.Pool, EventEmitter>();

type QueryFn = (text: unknown, ...rest: unknown[]) => Promise<unknown>;
/**
 * Runs registered SQL as named (prepared) statements on every client the pool hands out, and
 * drops a client whose query timed out: its connection may be stalled, and pg would otherwise
 * queue the next query behind the one that never answered.
 */
function patchPool(pool: pg.Pool, gate: PoolGate): pg.Pool {
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => Promise<pg.PoolClient> | void;
  const patched = new WeakSet<pg.PoolClient>();
  const notifications = new EventEmitter().setMaxListeners(0);
  poolNotifications.set(pool, notifications);
  const patch = (client: pg.PoolClient) => {
    if (!patched.has(client)) {
      // pg-pool listens for errors only while a client is idle: a connection that drops during a
      // query would emit 'error' with no listener and end the process. The query itself rejects
      // (and the request answers 503), so the event needs no more than a listener.
      client.on('error', () => undefined);
      const query = client.query.bind(client) as unknown as QueryFn;
      client.on('notification', (message) => notifications.emit(message.channel, message.payload ?? ''));
      // Queued ahead of the caller's first statement; a failure shows on that statement too.
      for (const channel of CHANGE_CHANNELS) query(`LISTEN ${channel}`).catch(() => undefined);
      const run: QueryFn = (text, ...rest) => {
        const name = typeof text === 'string' ? namedStatements.get(text) : undefined;
        if (!name) return query(text, ...rest);
        const [values, ...more] = rest;
        return query({ name, text, values }, ...more);
      };
      (client as unknown as { query: QueryFn }).query = (text, ...rest) => {
        const result = run(text, ...rest);
        // Only the promise form: Kysely and prepare() await; pg-pool's callback form is not used.
        if (result && typeof (result as Promise<unknown>).catch === 'function') {
          (result as Promise<unknown>).catch((err: unknown) => {
            // end() destroys the socket of a client with a hung query; the pool then drops it on release.
            if (err instanceof Error && err.message === 'Query read timeout') {
              void client.end().catch(() => undefined);
              // The database stalls: the queue's callers would only wait for it too.
              gate.fail(err);
            }
          });
        }
        return result;
      };
      patched.add(client);
    }
    return client;
  };
  /** A client handed out under a slot of the gate: the slot is given back once, when the client is. */
  const checkedOut = (client: pg.PoolClient, free: () => void) => {
    const release = client.release.bind(client);
    client.release = (err?: Error | boolean) => {
      free();
      return release(err);
    };
    return patch(client);
  };
  const acquire = async () => {
    const free = await gate.enter();
    try {
      return checkedOut(await (connect() as Promise<pg.PoolClient>), free);
    } catch (err) {
      free();
      // The database does not take connections: the queue's callers hear it now, not after their wait.
      if (isDatabaseUnavailable(err)) gate.fail(err as Error);
      throw err;
    }
  };
  // Both forms: Kysely awaits connect(); pool.query() passes a callback.
  (pool as unknown as { connect: typeof connect }).connect = (cb) => {
    if (cb) {
      acquire().then(
        (client) => cb(undefined, client, () => client.release()),
        (err: Error) => cb(err),
      );
      return;
    }
    return acquire();
  };
  return pool;
}

/**
 * The pool's queue: at most `size` connections handed out, the rest of a burst waiting in
 * arrival order up to `waitMs` for one to be given back (then an error the API answers 503).
 * pg's own `connectionTimeoutMillis` then bounds only the opening of a new connection, so a
 * burst waits for the pool while a database that does not answer is still noticed quickly.
 */
export class PoolGate {
  private busy = 0;
  private readonly waiting: Array<{ grant: () => void; refuse: (err: Error) => void; timer: NodeJS.Timeout }> = [];

  constructor(
    readonly size: number,
    readonly waitMs: number,
  ) {}

  /** Connections handed out, and callers waiting for one. */
  get stats(): { busy: number; waiting: number } {
    return { busy: this.busy, waiting: this.waiting.length };
  }

  /** Waits for a slot; resolves to the function that gives it back (once). */
  enter(): Promise<() => void> {
    const slot = () => {
      let given = false;
      return () => {
        if (given) return;
        given = true;
        this.leave();
      };
    };
    if (this.busy < this.size) {
      this.busy++;
      return Promise.resolve(slot());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve(slot());
        },
        refuse: (err: Error) => {
          clearTimeout(waiter.timer);
          reject(err);
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(Object.assign(new Error(`timeout exceeded when waiting for a free database connection (${this.size} in use)`), { code: 'POOL_WAIT_TIMEOUT' }));
        }, this.waitMs),
      };
      this.waiting.push(waiter);
    });
  }

  /**
   * The database failed (a connection could not be opened, a statement got no answer): the
   * callers waiting now get that error at once rather than a connection to a database that
   * does not answer, so an outage is a prompt 503 whatever the queue's length.
   */
  fail(err: Error): void {
    for (const waiter of this.waiting.splice(0)) waiter.refuse(err);
  }

  private leave(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter (busy stays the same).
    if (next) next.grant();
    else this.busy--;
  }
}

/** The queue in front of a PostgreSQL database's pool (tests read its figures). */
export const poolGates = new WeakMap<Kysely<Database>, PoolGate>();

/** How long to wait for PostgreSQL: a connection, and a statement's answer (0: as long as it takes). */
export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
}
/** Without timeouts given (operator commands, tests): wait for a connection a while, let statements run. */
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { connectMs: 10_000, statementMs: 0 };

/** Without a size given: the pool's connections. */
export const DEFAULT_POOL_SIZE = 10;

export type DatabaseTarget =
  | {
      kind: 'postgres';
      url: string;
      /** Connections at most (default DEFAULT_POOL_SIZE). */
      poolSize?: number;
      /** How long a caller waits in the pool's queue for a free connection (default: timeouts.connectMs). */
      poolWaitMs?: number;
      timeouts?: DatabaseTimeouts;
    }
  | {
      kind: 'pglite';
      dataDir: string | undefined /* undefined = in memory */;
      /** A data directory dumped by PGlite's dumpDataDir to start from (tests: a migrated database without initdb). */
      template?: Blob | undefined;
    };

// Return dates and bigints as JS values the presenters expect.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// Calendar dates (date of birth) stay 'YYYY-MM-DD' strings: a Date would shift them by time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
const DATE_OID = 1082;

/** Opens Kysely over a real PostgreSQL server (pg pool) or embedded PGlite. Same SQL both ways. */
export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  if (target.kind === 'postgres') {
    const timeouts = target.timeouts ?? DEFAULT_TIMEOUTS;
    const gate = new PoolGate(target.poolSize ?? DEFAULT_POOL_SIZE, target.poolWaitMs ?? timeouts.connectMs);
    const pool = new pg.Pool({
      connectionString: target.url,
      max: gate.size,
      // A new connection within connectMs, else an error (503). Waiting for a free one of a
      // busy pool is the gate's (poolWaitMs): the gate hands out at most `max`, so pg never queues.
      connectionTimeoutMillis: timeouts.connectMs,
      // The server cancels a statement running longer; the client stops waiting a moment later
      // (a stalled server does not answer at all). 0: no limit (migrations).
      ...(timeouts.statementMs > 0
        ? {
            statement_timeout: timeouts.statementMs,
            query_timeout: timeouts.statementMs + 500,
            idle_in_transaction_session_timeout: timeouts.statementMs * 2,
          }
        : {}),
      keepAlive: true,
    });
    // An idle client error (server restart) must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: patchPool(pool, gate) }) });
    pgPools.set(db, pool);
    poolGates.set(db, gate);
    return db;
  } else {
    let dataDir: string | undefined;
    if (target.dataDir) {
      dataDir = path.join(target.dataDir, 'pglite');
      mkdirSync(dataDir, { recursive: true });
    }
    // wal_init_zero=off: a new WAL segment is not first filled with 16 MB of zeros. PGlite runs on
    // the event loop, and that filling held it for 200 ms or more every 16 MB of writes (seen in
    // stalls.int.test.ts while an Apple Health export's readings were added); without it, 2 ms.
    const client = await PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      ...(target.template ? { loadDataDir: target.template } : {}),
      startParams: [...PGlite.defaultStartParams, '-c', 'wal_init_zero=off'],
      parsers: { [DATE_OID]: (v: string) => v },
    });
    const base = new PGliteDialect(client);
    // Kysely destroys the driver on close; PGlite must be closed so its files are flushed.
    const dialect: Dialect = {
      createAdapter: () => base.createAdapter(),
      createQueryCompiler: () => base.createQueryCompiler(),
      createIntrospector: (db) => base.createIntrospector(db),
      createDriver: () => {
        const driver = base.createDriver();
        const destroy = driver.destroy.bind(driver);
        driver.destroy = async () => {
          await destroy();
          if (!client.closed) await client.close();
        };
        return driver;
      },
    };
    const db = new Kysely<Database>({ dialect });
    pgliteClients.set(db, client);
    return db;
  }
}

/**
 * Closes the database, bounded: a pool whose server stalled would wait forever for its clients'
 * goodbyes, so after `ms` their sockets are destroyed.
 */
export async function closeDatabase(db: Db, ms = 2000): Promise<void> {
  const pool = pgPools.get(db);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
    timer.unref();
  });
  const outcome = await Promise.race([db.destroy().then(() => 'done' as const), deadline]);
  clearTimeout(timer);
  if (outcome === 'late' && pool) {
    const clients = (pool as unknown as { _clients?: Array<{ connection?: { stream?: { destroy(): void } } }> })._clients ?? [];
    for (const client of clients) client.connection?.stream?.destroy();
  }
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when (trying to connect|waiting for a free database connection)|Query read timeout|Connection terminated|connection error|Connection ended unexpectedly|terminating connection|Client was closed|Cannot use a pool after calling end|the database system is (starting up|shutting down)|Connection timeout/i;

/**
 * Whether an error says the database cannot answer now (down, stalled, restarting, too slow)
 * rather than something about the request: the API answers 503 with Retry-After for these.
 * PostgreSQL classes: 08 connection exception, 57P0x operator intervention, 53300 too many
 * connections, 57014 statement cancelled (statement_timeout).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code)) return true;
    if (code.startsWith('08') || code.startsWith('57P') || code === '53300' || code === '57014') return true;
  }
  return UNAVAILABLE_MESSAGES.test(err.message) || (err.cause !== undefined && err.cause !== err && isDatabaseUnavailable(err.cause));
}

/**
 * Whether PostgreSQL refused a value the client sent (class 22, data exception: out of range,
 * invalid text, NUL byte; class 54: a value too large to index): a bad request, not a fault.
 */
export function isBadValue(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code);
}

/** Whether the database answers `select 1` within `ms` (a stalled server must not hold the caller). */
export async function pingDatabase(db: Db, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  const answer = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
