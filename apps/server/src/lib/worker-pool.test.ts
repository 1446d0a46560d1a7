import { afterAll, describe, expect, it } from 'vitest';
import { KeyedLimiter, PoolFullError, WorkerPool } from './worker-pool';

type Input = { wait?: number; fail?: string; exit?: boolean; steps?: number };
const pool = new WorkerPool<Input, { parts: number[] }>({ name: 'echo', source: new URL('../../test/fixtures/echo.worker.ts', import.meta.url), bundle: 'echo.worker', size: 1, maxQueue: 1 });
afterAll(() => pool.close());

describe('WorkerPool', () => {
  it('runs a task in a worker, its parts arriving in order', async () => {
    expect(await pool.run({}, { parts: [[1, 2], [3], [4, 5]] })).toEqual({ parts: [1, 2, 3, 4, 5] });
  }, 30_000);

  it("hands the worker's progress to the task, in order, before its answer", async () => {
    const heard: number[] = [];
    const answer = await pool.run({ steps: 4 }, { parts: [[1]], onProgress: (fraction) => heard.push(fraction) });
    expect(heard).toEqual([0.25, 0.5, 0.75, 1]);
    expect(answer).toEqual({ parts: [1] });
  });

  it('refuses at once past its queue, and runs what it took', async () => {
    const running = pool.run({ wait: 300 });
    const waiting = pool.run({}, { parts: [[7]] });
    await expect(pool.run({})).rejects.toBeInstanceOf(PoolFullError);
    expect(await running).toEqual({ parts: [] });
    expect(await waiting).toEqual({ parts: [7] });
  }, 30_000);

  it('fails a task whose handler throws, or whose worker dies, and goes on with a new one', async () => {
    await expect(pool.run({ fail: 'no good' })).rejects.toThrow('no good');
    await expect(pool.run({ exit: true })).rejects.toThrow(/exit code 3/);
    expect(await pool.run({}, { parts: [[9]] })).toEqual({ parts: [9] });
  }, 30_000);
});

describe('KeyedLimiter', () => {
  it('lets one task a key at a time, and frees the key once released (twice is harmless)', () => {
    const limiter = new KeyedLimiter(1);
    const release = limiter.acquire('1')!;
    expect(limiter.acquire('1')).toBeNull();
    expect(limiter.busy('1')).toBe(true);
    expect(limiter.acquire('2')).not.toBeNull();
    release();
    release();
    expect(limiter.busy('1')).toBe(false);
    expect(limiter.acquire('1')).not.toBeNull();
  });
});
