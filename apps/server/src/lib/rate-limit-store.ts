// @ts-expect-error -- the in-memory store of @fastify/rate-limit ships without types.
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';

type Counted = { current: number; ttl: number };
type Callback = (err: Error | null, counted?: Counted) => void;
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
}
type StoreParams = { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number };

/**
 * @fastify/rate-limit's in-memory store, answering each request its own count. The stock store
 * hands every caller the one counter object it keeps mutating, and the plugin reads it a tick
 * later: requests that reach the limit together all read the final count, so a burst of 20 at a
 * limit of 10 refused all 20 instead of the 10 over the limit.
 */
export class SnapshotLocalStore implements Store {
  private readonly inner: Store;

  // The plugin passes its merged parameters here and to child() (its typings say route options).
  private readonly params: StoreParams;

  constructor(params: object) {
    this.params = params as StoreParams;
    this.inner = new LocalStore(this.params.continueExceeding, this.params.exponentialBackoff, this.params.cache) as Store;
  }

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.inner.incr(key, (err, counted) => cb(err, counted && { current: counted.current, ttl: counted.ttl }), timeWindow, max);
  }

  read(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.inner.read(key, cb, timeWindow, max);
  }

  child(routeParams: object): SnapshotLocalStore {
    return new SnapshotLocalStore({ ...this.params, ...routeParams });
  }
}
