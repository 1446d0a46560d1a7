import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable, PoolGate } from './client';

/** The queue in front of the PostgreSQL pool: at most `size` handed out, the rest waiting in order up to `waitMs`. */
describe('PoolGate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands out `size` slots at once and the next ones in arrival order as slots come back', async () => {
    const gate = new PoolGate(2, 1000);
    const a = await gate.enter();
    await gate.enter();
    const order: string[] = [];
    const c = gate.enter().then((free) => (order.push('c'), free));
    const d = gate.enter().then((free) => (order.push('d'), free));
    expect(gate.stats).toEqual({ busy: 2, waiting: 2 });
    a();
    a(); // giving a slot back twice frees it once
    const freeC = await c;
    expect(order).toEqual(['c']);
    expect(gate.stats).toEqual({ busy: 2, waiting: 1 });
    freeC();
    await d;
    expect(order).toEqual(['c', 'd']);
    expect(gate.stats).toEqual({ busy: 2, waiting: 0 });
  });

  it('refuses a caller that waited `waitMs`, with an error the API answers 503', async () => {
    vi.useFakeTimers();
    const gate = new PoolGate(1, 500);
    await gate.enter();
    const waiting = gate.enter();
    const outcome = waiting.then(
      () => null,
      (err: unknown) => err,
    );
    await vi.advanceTimersByTimeAsync(499);
    expect(gate.stats.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const err = await outcome;
    expect(err).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(gate.stats).toEqual({ busy: 1, waiting: 0 });
  });

  it('when the database fails, refuses every waiting caller at once', async () => {
    const gate = new PoolGate(1, 60_000);
    await gate.enter();
    const outcomes = [gate.enter(), gate.enter()].map((p) => p.then(() => 'granted', (err: Error) => err.message));
    gate.fail(new Error('Query read timeout'));
    expect(await Promise.all(outcomes)).toEqual(['Query read timeout', 'Query read timeout']);
    expect(gate.stats).toEqual({ busy: 1, waiting: 0 });
  });
});
