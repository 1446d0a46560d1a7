import { describe, expect, it } from 'vitest';
import { CHAT_SOCKET_LIMITS, LocalUserSliceLimiter, TokenBucket } from './chat-socket-limits';

describe('TokenBucket', () => {
  it('gives the burst at once, then says how long until the next token', () => {
    const bucket = new TokenBucket(3, 10, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([0, 0, 0]);
    expect(bucket.take(0)).toBe(100);
    expect(bucket.take(50)).toBe(50);
    expect(bucket.take(100)).toBe(0);
    expect(bucket.take(100)).toBe(100);
  });

  it('refills up to the burst, not beyond', () => {
    const bucket = new TokenBucket(2, 10, 0);
    bucket.take(0);
    bucket.take(0);
    const taken = [10_000, 10_000, 10_000].map((t) => bucket.take(t));
    expect(taken).toEqual([0, 0, 100]);
  });
});

describe('LocalUserSliceLimiter', () => {
  it('counts a user’s slices per second, each user on their own, and forgets a user who left', async () => {
    const limiter = new LocalUserSliceLimiter(2);
    expect([await limiter.take(1, 5_100), await limiter.take(1, 5_200), await limiter.take(1, 5_300)]).toEqual([0, 0, 700]);
    expect(await limiter.take(2, 5_300)).toBe(0);
    expect(await limiter.take(1, 6_000)).toBe(0);
    expect(limiter.size).toBe(2);
    limiter.forget(1);
    limiter.forget(2);
    expect(limiter.size).toBe(0);
  });
});

describe('the default limits', () => {
  it('let a 5 MB file (219 slices of 32,000 characters) through one socket within the user’s limit', () => {
    const slices = Math.ceil(Math.ceil(5_242_880 / 3) * 4 / 32_000);
    expect(slices).toBe(219);
    // After the burst, the socket's rate: a few seconds for the largest file.
    expect((slices - CHAT_SOCKET_LIMITS.sliceBurst) / CHAT_SOCKET_LIMITS.slicesPerS).toBeLessThan(3);
    expect(CHAT_SOCKET_LIMITS.userSlicesPerS).toBeGreaterThanOrEqual(CHAT_SOCKET_LIMITS.slicesPerS);
  });
});
