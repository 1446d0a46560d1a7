import { sql } from 'kysely';
import type { Db } from './client';

/**
 * Runs `work` in one process at a time across the processes sharing the database: a
 * transaction-scoped advisory lock, taken without waiting. Answers { ran: false } when another
 * process holds it (its run covers this one).
 */
export async function onceAcrossProcesses<T>(db: Db, name: string, work: (db: Db) => Promise<T>): Promise<{ ran: false } | { ran: true; result: T }> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext(${name})) as locked`.execute(trx);
    if (!rows[0]?.locked) return { ran: false as const };
    return { ran: true as const, result: await work(trx) };
  });
}
