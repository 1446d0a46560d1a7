import { performance } from 'node:perf_hooks';

/**
 * Work over many items in slices of at most about `budgetMs` of the event loop each, yielding
 * between slices (setImmediate: I/O and other requests go first), for work that must stay on
 * the main thread but grows with a patient's data (issue 24, §3).
 *
 * 10 ms: a request that arrives meanwhile needs several turns of the loop (read, answer, write),
 * and each turn waits for one slice. Measured on the stall test's Apple Health import (5,000
 * readings, 3 runs each): the longest ping 122-135 ms with 20 ms slices, 75-93 ms with 10 ms, the
 * import no slower.
 */
export const SLICE_BUDGET_MS = 10;

export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A clock for one piece of work: `due()` says when a slice has used its budget (then yield). */
export function sliceClock(budgetMs = SLICE_BUDGET_MS) {
  let started = performance.now();
  return {
    async pause(): Promise<void> {
      if (performance.now() - started < budgetMs) return;
      await yieldToLoop();
      started = performance.now();
    },
  };
}

/** `items.map(fn)`, in slices. */
export async function mapInSlices<T, U>(items: readonly T[], fn: (item: T, index: number) => U, budgetMs = SLICE_BUDGET_MS): Promise<U[]> {
  const clock = sliceClock(budgetMs);
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) {
    out.push(fn(items[i]!, i));
    await clock.pause();
  }
  return out;
}
