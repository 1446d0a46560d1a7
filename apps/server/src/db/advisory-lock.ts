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

/**
 * Serialises one kind of work on one key for the rest of the transaction `trx` (a patient's
 * count-then-insert under a cap: two creates at once would both count one short of it). A
 * transaction-scoped advisory lock, waited for; outside a transaction it would hold nothing.
 */
export async function holdForTransaction(trx: Db, name: string, key: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${name}), ${key}::int)`.execute(trx);
}
