import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema } from '@healthbook/shared';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
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
};

