import type { CompiledQuery, Compilable } from 'kysely';
import { createHash } from 'node:crypto';
import { namedStatements, pgPools, type Db } from './client';

const nameOf = (sqlText: string) => `hb_${createHash('sha1').update(sqlText).digest('hex').slice(0, 16)}`;

/**
 * A hot query built and compiled once, executed with new parameter values: the SQL text is
 * the same every time, so Kysely's builder and compiler run only at start, and on PostgreSQL it
 * runs as a named prepared statement (planned once per connection, not per request). Build it
 * with placeholder values in the order the parameters appear.
 */
export function prepare<R, P extends unknown[]>(build: () => Compilable<R>): (db: Db, ...params: P) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  let name = '';
  return async (db, ...params) => {
    if (!compiled) {
      compiled = build().compile();
      name = nameOf(compiled.sql);
      namedStatements.set(compiled.sql, name);
    }
    if (params.length !== compiled.parameters.length) throw new Error('prepared query: wrong number of parameters');
    // On PostgreSQL the pool runs it straight away (Kysely would only pass it through); on PGlite, Kysely.
    const pool = pgPools.get(db);
    if (pool) return (await pool.query<R & object>({ name, text: compiled.sql, values: params })).rows;
    const result = await db.executeQuery<R>({ ...compiled, parameters: params });
    return result.rows;
  };
}


/**
 * Runs a query built by code as a named prepared statement on PostgreSQL: each distinct SQL text
 * (a list's filters and ordering make a few shapes, never one per input: values are parameters)
 * is planned once per connection instead of on every request. For hot reads whose shape varies,
 * where `prepare` (one fixed shape) does not fit; on PGlite it simply runs.
 */
export async function runNamed<R>(db: Db, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  if (!namedStatements.has(compiled.sql)) namedStatements.set(compiled.sql, nameOf(compiled.sql));
  return (await db.executeQuery(compiled)).rows;
}
