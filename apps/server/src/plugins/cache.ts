import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { LocalBus, RedisBus, type MessageBus } from '../lib/shared-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** Messages between server processes (cache invalidation, live chat): Redis pub/sub with REDIS_URL, else in-process. */
    bus: MessageBus;
  }
}

export default fp<{ redis?: Redis | undefined }>(
  async (app, opts) => {
    const bus: MessageBus = opts.redis ? new RedisBus(opts.redis) : new LocalBus();
    app.decorate('bus', bus);
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'cache' },
);
