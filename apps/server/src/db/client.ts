import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
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

type QueryFn = (text: unknown, ...rest: unknown[]) => Promise<unknown>;
/** Runs registered SQL as named (prepared) statements on every client the pool hands out. */
function withNamedStatements(pool: pg.Pool): pg.Pool {
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => Promise<pg.PoolClient> | void;
  const patched = new WeakSet<pg.PoolClient>();
  const patch = (client: pg.PoolClient) => {
    if (!patched.has(client)) {
      const query = client.query.bind(client) as unknown as QueryFn;
      (client as unknown as { query: QueryFn }).query = (text, ...rest) => {
        const name = typeof text === 'string' ? namedStatements.get(text) : undefined;
        if (!name) return query(text, ...rest);
        const [values, ...more] = rest;
        return query({ name, text, values }, ...more);
      };
      patched.add(client);
    }
    return client;
  };
  // Both forms: Kysely awaits connect(); pool.query() passes a callback.
  (pool as unknown as { connect: typeof connect }).connect = (cb) => {
    if (cb) return connect((err, client, done) => cb(err, client ? patch(client) : client, done));
    return (connect() as Promise<pg.PoolClient>).then(patch);
  };
  return pool;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string | undefined /* undefined = in memory */ };

// Return dates and bigints as JS values the presenters expect.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// Calendar dates (date of birth) stay 'YYYY-MM-DD' strings: a Date would shift them by time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
const DATE_OID = 1082;

/** Opens Kysely over a real PostgreSQL server (pg pool) or embedded PGlite. Same SQL both ways. */
export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  let dialect: Dialect;
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // An idle client error (server restart) must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    dialect = new PostgresDialect({ pool: withNamedStatements(pool) });
    const db = new Kysely<Database>({ dialect });
    pgPools.set(db, pool);
    return db;
  } else {
    let dataDir: string | undefined;
    if (target.dataDir) {
      dataDir = path.join(target.dataDir, 'pglite');
      mkdirSync(dataDir, { recursive: true });
    }
    const client = await PGlite.create({ ...(dataDir ? { dataDir } : {}), parsers: { [DATE_OID]: (v: string) => v } });
    const base = new PGliteDialect(client);
    // Kysely destroys the driver on close; PGlite must be closed so its files are flushed.
    dialect = {
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
  }
  return new Kysely<Database>({ dialect });
}
