import type { Redis } from 'ioredis';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema, LivenessSchema, ReadinessSchema, type Readiness } from '@healthbook/shared';

/** How long a readiness check waits for each dependency. */
const CHECK_MS = 2000;

/** Whether `check` answers within CHECK_MS without throwing. */
async function answers(check: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), CHECK_MS)))]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The system's own routes: a ping for the web app's page-timeout screen, and health for load
 * balancers and orchestrators: /api/health/live (the process answers: restart it otherwise),
 * /api/health/ready (it can serve now: the database, Redis when configured, the file store;
 * take it out of rotation otherwise, and while it stops), /api/health (as it always was).
 */
export const systemRoutes: FastifyPluginAsyncZod<{ redis?: Redis | undefined }> = async (app, opts) => {
  app.route({
    method: 'HEAD',
    url: '/api/ping',
    schema: { tags: ['system'], summary: 'Connectivity check for the page-timeout screen' },
    handler: async (_request, reply) => reply.header('Cache-Control', 'no-store').code(200).send(),
  });

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check, for load balancers and operators',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const database = (await app.checkDatabase()) ? 'ok' : 'unavailable';
      reply.header('Cache-Control', 'no-store');
      return reply.code(database === 'ok' ? 200 : 503).send({
        status: database === 'ok' ? 'ok' : 'unavailable',
        database,
        uptime_s: Math.round(process.uptime()),
      });
    },
  );

  app.get(
    '/api/health/live',
    {
      schema: { tags: ['system'], summary: 'Liveness: the process answers (for a restart policy)', response: { 200: LivenessSchema } },
    },
    async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' as const, uptime_s: Math.round(process.uptime()) }),
  );

  app.get(
    '/api/health/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: this process can serve requests now (for a load balancer)',
        description: `200 when the database, Redis (when REDIS_URL is set) and the file store (DATA_DIR/files or STORAGE_URL) each answer within ${CHECK_MS / 1000} s; 503 otherwise, naming which does not. From SIGTERM on, every request (this one too) is 503 while the process finishes what it has.`,
        response: { 200: ReadinessSchema, 503: ReadinessSchema },
      },
    },
    async (_request, reply) => {
      const [database, redis, storage] = await Promise.all([
        app.checkDatabase(CHECK_MS).then((ok): 'ok' | 'unavailable' => (ok ? 'ok' : 'unavailable')),
        opts.redis ? answers(() => opts.redis!.ping()) : ('not configured' as const),
        app.storage.check ? answers(() => app.storage.check!()) : ('ok' as const),
      ]);
      const down = [database, redis, storage].includes('unavailable');
      const status: Readiness['status'] = down ? 'unavailable' : 'ok';
      return reply
        .header('Cache-Control', 'no-store')
        .code(status === 'ok' ? 200 : 503)
        .send({ status, database, redis, storage });
    },
  );
};
