import type { Redis } from 'ioredis';
import {
  CHAT_FILE_IDLE_MS,
  CHAT_FILE_TRANSFER_MAX_MS,
  CHAT_PENDING_FRAMES_MAX,
  CHAT_SLICE_BURST,
  CHAT_SLICE_WAIT_MAX_MS,
  CHAT_SLICES_PER_S,
  CHAT_SOCKETS_PER_USER,
  CHAT_USER_SLICES_PER_S,
} from '@healthbook/shared';

/**
 * What one user and one socket may hold and send (issue 24): sockets per user, file slices per
 * socket and per user, frames waiting, and how long an unfinished file is kept.
 */
export interface ChatSocketLimits {
  socketsPerUser: number;
  sliceBurst: number;
  slicesPerS: number;
  userSlicesPerS: number;
  sliceWaitMaxMs: number;
  pendingFramesMax: number;
  fileIdleMs: number;
  fileTransferMaxMs: number;
}

export const CHAT_SOCKET_LIMITS: ChatSocketLimits = {
  socketsPerUser: CHAT_SOCKETS_PER_USER,
  sliceBurst: CHAT_SLICE_BURST,
  slicesPerS: CHAT_SLICES_PER_S,
  userSlicesPerS: CHAT_USER_SLICES_PER_S,
  sliceWaitMaxMs: CHAT_SLICE_WAIT_MAX_MS,
  pendingFramesMax: CHAT_PENDING_FRAMES_MAX,
  fileIdleMs: CHAT_FILE_IDLE_MS,
  fileTransferMaxMs: CHAT_FILE_TRANSFER_MAX_MS,
};

/** A token bucket: `burst` at once, then `perS` a second. */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly burst: number,
    private readonly perS: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.refilledAt = now;
  }

  /** Takes a token and answers 0, or answers how many milliseconds until one is there (nothing taken). */
  take(now = Date.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perS);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.tokens) / this.perS) * 1000));
  }
}

/**
 * A user's file slices per second over all their sockets. In one process a counter per user
 * (forgotten with the user's last socket); with Redis one counter per user and second, shared
 * by every process and expiring on its own.
 */
export interface UserSliceLimiter {
  /** Counts one slice of the user's in this second and answers 0, or answers the milliseconds until the next second. */
  take(userId: number, now?: number): Promise<number>;
  /** The user has no socket here any more. */
  forget(userId: number): void;
  /** Users with a counter in this process (tests: nothing kept for users who left). */
  readonly size: number;
}

const untilNextSecond = (now: number) => 1000 - (now % 1000);

export class LocalUserSliceLimiter implements UserSliceLimiter {
  private readonly windows = new Map<number, { second: number; count: number }>();

  constructor(private readonly perS: number) {}

  get size(): number {
    return this.windows.size;
  }

  take(userId: number, now = Date.now()): Promise<number> {
    const second = Math.floor(now / 1000);
    let window = this.windows.get(userId);
    if (!window || window.second !== second) this.windows.set(userId, (window = { second, count: 0 }));
    if (window.count >= this.perS) return Promise.resolve(untilNextSecond(now));
    window.count++;
    return Promise.resolve(0);
  }

  forget(userId: number): void {
    this.windows.delete(userId);
  }
}

export class RedisUserSliceLimiter implements UserSliceLimiter {
  readonly size = 0;

  constructor(
    private readonly redis: Redis,
    private readonly perS: number,
  ) {}

  async take(userId: number, now = Date.now()): Promise<number> {
    const key = `healthbook-chat-slices:${userId}:${Math.floor(now / 1000)}`;
    try {
      const answers = await this.redis.multi().incr(key).pexpire(key, 2000).exec();
      const count = Number(answers?.[0]?.[1] ?? 0);
      return count > this.perS ? untilNextSecond(now) : 0;
    } catch {
      // Redis does not answer: files still go through, under the socket's own limit.
      return 0;
    }
  }

  forget(): void {
    // The counters expire on their own.
  }
}

/** What the files being received in slices hold, over every socket of a hub: what must come back to zero when they end. */
export class TransferLedger {
  transfers = 0;
  bytes = 0;
}
