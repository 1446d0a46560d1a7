import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** One counter row: attempts in the current window and when the window started. */
export interface CounterState {
  count: number;
  window_started_at: Date;
}

/**
 * Attempt counters, counted and read in one statement so that parallel requests each see their
 * own number (no read-then-write race). Keys are not tenant data: they name the limited thing
 * (an account as "orgId:email", a session id, ...).
 */
export class LimitsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Counts one attempt, unless the window is full, and answers the counter with whether this
   * attempt was counted. A window older than `windowS` starts again at 1. The attempt that
   * reaches `max` restarts the window, so a lock lasts a full window from the last attempt
   * allowed. An attempt refused is not counted (a burst does not lengthen the lock).
   */
  async increment(scope: string, key: string, max: number, windowS: number): Promise<CounterState & { counted: boolean }> {
    const expired = sql<boolean>`c.window_started_at <= now() - make_interval(secs => ${windowS})`;
    const result = await sql<CounterState & { counted: boolean }>`
      with counted as (
        insert into attempt_counters as c (scope, key, count, window_started_at)
        values (${scope}, ${key}, 1, now())
        on conflict (scope, key) do update set
          count = case when ${expired} then 1 else c.count + 1 end,
          window_started_at = case when ${expired} or c.count + 1 = ${max} then now() else c.window_started_at end
        where ${expired} or c.count < ${max}
        returning count, window_started_at, true as counted
      )
      select count, window_started_at, counted from counted
      union all
      select count, window_started_at, false as counted from attempt_counters
        where scope = ${scope} and key = ${key} and not exists (select 1 from counted)`.execute(this.db);
    const state = result.rows[0];
    // Refused, but the row was committed by a concurrent first attempt after this statement's
    // snapshot, so the fallback select could not see it: ask again (a new statement sees it).
    if (!state) return this.increment(scope, key, max, windowS);
    return { count: Number(state.count), window_started_at: new Date(state.window_started_at), counted: state.counted === true };
  }

  async clear(scope: string, key: string): Promise<void> {
    await this.db.deleteFrom('attempt_counters').where('scope', '=', scope).where('key', '=', key).execute();
  }

  /** Counters whose window ended long ago (housekeeping). */
  async removeOlderThan(seconds: number): Promise<number> {
    const result = await this.db
      .deleteFrom('attempt_counters')
      .where('window_started_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
