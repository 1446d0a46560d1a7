import { LRUCache } from 'lru-cache';

/**
 * Answers computed from data that carries its own version (a patient's `data_version`, which the
 * database moves on in the same commit as any change of the data). The caller puts the version
 * it read *before* computing into the key, so a change is never answered from here: the next
 * reader asks under the new version, and old versions simply age out. Nothing to invalidate, in
 * this process or another. Bounded by size (least recently used go first); concurrent misses
 * share one computation.
 */
export class VersionedCache {
  private readonly entries: LRUCache<string, object>;
  private readonly loading = new Map<string, Promise<object>>();

  constructor(options: { maxBytes: number; sizeOf: (value: object) => number; ttlMs: number }) {
    this.entries = new LRUCache<string, object>({
      maxSize: options.maxBytes,
      sizeCalculation: (value) => Math.max(1, Math.ceil(options.sizeOf(value))),
      ttl: options.ttlMs,
      ttlAutopurge: false,
    });
  }

  /** The answer under `key`, or `load`'s. A key names one kind of answer (its type is the caller's to keep apart). */
  async get<V extends object>(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key) as V | undefined;
    if (hit !== undefined) return hit;
    let pending = this.loading.get(key) as Promise<V> | undefined;
    if (!pending) {
      pending = load()
        .then((value) => {
          this.entries.set(key, value);
          return value;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  get size(): number {
    return this.entries.size;
  }
}
