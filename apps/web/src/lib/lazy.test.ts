import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadTimeoutError, withTimeout } from './lazy';

describe('lazy page load', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resolves with the module when it arrives in time', async () => {
    await expect(withTimeout(async () => 'page')).resolves.toBe('page');
  });

  it('fails with a timeout after 10 s so the error view shows', async () => {
    const pending = withTimeout(() => new Promise(() => undefined));
    const assertion = expect(pending).rejects.toBeInstanceOf(LoadTimeoutError);
    await vi.advanceTimersByTimeAsync(10_000);
    await assertion;
  });

  it('passes a failed chunk load on', async () => {
    await expect(withTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')))).rejects.toThrow(
      'Failed to fetch',
    );
  });
});
