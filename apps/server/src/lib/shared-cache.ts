import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Tells every server process something (a cached value changed, a chat event). In one process an EventEmitter; with
 * REDIS_URL, Redis pub/sub, so that a change made through one server process is seen by all.
 */
export interface MessageBus {
  publish(topic: string, key: string): Promise<void>;
  subscribe(topic: string, handler: (key: string) => void): void;
  close(): Promise<void>;
}

export class LocalBus implements MessageBus {
  private readonly emitter = new EventEmitter().setMaxListeners(100);
  async publish(topic: string, key: string) {
    this.emitter.emit(topic, key);
  }
  subscribe(topic: string, handler: (key: string) => void) {
    this.emitter.on(topic, handler);
  }
  async close() {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = 'healthbook:invalidate';

/** Redis pub/sub: one channel; messages are "topic\nkey". The subscriber needs its own connection. */
export class RedisBus implements MessageBus {
  private readonly local = new LocalBus();
  private readonly subscriber: Redis;
  private readonly ready: Promise<unknown>;

  constructor(private readonly redis: Redis) {
    this.subscriber = redis.duplicate();
    this.subscriber.on('message', (_channel: string, message: string) => {
      const at = message.indexOf('\n');
      if (at > 0) void this.local.publish(message.slice(0, at), message.slice(at + 1));
    });
    this.ready = this.subscriber.subscribe(CHANNEL);
  }

  async publish(topic: string, key: string) {
    await this.ready;
    // Other processes hear it through Redis, this one too (one path for all).
    await this.redis.publish(CHANNEL, `${topic}\n${key}`);
  }

  subscribe(topic: string, handler: (key: string) => void) {
    this.local.subscribe(topic, handler);
  }

  async close() {
    await this.local.close();
    this.subscriber.disconnect();
  }
}

/**
 * Values read often and changed rarely (an organisation's branding, its feature statuses),
 * kept in memory per process. A change invalidates the key in every process through the bus;
 * a time limit bounds staleness should a message be lost. Concurrent misses share one load.
 */
export class SharedCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped by every invalidation: a load that started before one must not store what it read. */
  private generation = 0;

  constructor(
    private readonly topic: string,
    private readonly bus: MessageBus,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {
    bus.subscribe(topic, (key) => this.forget(key));
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    let pending = this.loading.get(key);
    if (!pending) {
      const generation = this.generation;
      pending = load()
        .then((value) => {
          if (generation === this.generation) {
            if (this.entries.size >= this.maxEntries) this.entries.clear();
            this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
          }
          return value;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** Forgets `key` here and in every other process ('*': everything). */
  async invalidate(key: string): Promise<void> {
    this.forget(key);
    await this.bus.publish(this.topic, key);
  }

  /** Forgets `key` and the keys under it ("12" also forgets "12:en"); '*' forgets everything. */
  private forget(key: string) {
    this.generation++;
    if (key === '*') {
      this.entries.clear();
      this.loading.clear();
      return;
    }
    for (const map of [this.entries, this.loading] as Array<Map<string, unknown>>) {
      map.delete(key);
      for (const k of map.keys()) if (k.startsWith(`${key}:`)) map.delete(k);
    }
  }
}
