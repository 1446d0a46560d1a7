import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { LocalBus, RedisBus, type InvalidationBus } from '../lib/shared-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** Cache invalidation across processes (Redis pub/sub with REDIS_URL, else in-process). */
    invalidation: InvalidationBus;
  }
}

export default fp<{ redis?: Redis | undefined }>(
  async (app, opts) => {
    const bus: InvalidationBus = opts.redis ? new RedisBus(opts.redis) : new LocalBus();
    app.decorate('invalidation', bus);
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'cache' },
);
