import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolGates } from '../db/client';
import { BacklogRepository } from '../modules/operations/operations.repository';

/**
 * Prometheus metrics (issue 26, §3), for an operator's monitoring: requests by route pattern
 * (never a path with an id in it), their latency, the event loop's lag and the process's own
 * figures, the database pool, chat sockets and the live-chat queue, the reminders waiting to go,
 * and mail that could not be sent. No label ever holds a patient's data, an id or a token.
 *
 * Off unless asked for: METRICS_TOKEN serves GET /metrics on the product's port to a scraper
 * sending `Authorization: Bearer <token>`; METRICS_PORT serves it on its own listener
 * (METRICS_HOST, loopback by default) that the public proxy never reaches. Both may be on.
 */
export interface MetricsOptions {
  token: string | undefined;
  port: number | undefined;
  host: string;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The status as its class: a label of five values, whatever the answers. */
const statusClass = (code: number) => `${Math.floor(code / 100)}xx`;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function buildRegistry(app: FastifyInstance): Registry {
  const registry = new Registry();
  const backlog = new BacklogRepository(app.db);
  collectDefaultMetrics({ register: registry, prefix: 'healthbook_' });

  const requests = new Counter({ name: 'healthbook_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status class', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({ name: 'healthbook_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method and route pattern', labelNames: ['method', 'route'], buckets: SECONDS, registers: [registry] });
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern (/api/v1/hr/:category/:id/), or "unmatched": a path someone typed never becomes a label.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: statusClass(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });

  new Gauge({
    name: 'healthbook_db_pool_connections',
    help: 'PostgreSQL connections handed out (busy) and requests waiting for one (waiting)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const gate = poolGates.get(app.db);
      this.set({ state: 'busy' }, gate?.stats.busy ?? 0);
      this.set({ state: 'waiting' }, gate?.stats.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'healthbook_chat_sockets',
    help: 'Chat WebSockets open on this process',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('chatHub') ? app.chatHub.size : 0);
    },
  });
  new Gauge({
    name: 'healthbook_chat_queue_length',
    help: 'Live chats waiting for a provider or coach (all organisations)',
    registers: [registry],
    async collect() {
      this.set(await backlog.chatsQueued());
    },
  });
  new Gauge({
    name: 'healthbook_reminders_due',
    help: 'Reminders due and not yet sent (the job backlog)',
    registers: [registry],
    async collect() {
      this.set(await backlog.remindersDue());
    },
  });
  new Counter({
    name: 'healthbook_mail_failures_total',
    help: 'E-mails that could not be sent',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(app.backgroundMail.failures);
    },
  });
  return registry;
}

async function answer(registry: Registry): Promise<{ type: string; body: string }> {
  return { type: registry.contentType, body: await registry.metrics() };
}

/** The registry and, with METRICS_PORT, its own listener (on the root context: every request is counted). */
export default fp<MetricsOptions>(
  async (app, opts) => {
    if (!opts.token && opts.port === undefined) return;
    const registry = buildRegistry(app);
    app.decorate('metrics', registry);
    if (opts.port === undefined) return;

    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      answer(registry).then(
        ({ type, body }) => res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body),
        (err: unknown) => {
          app.log.error({ err }, 'metrics could not be collected');
          res.writeHead(500).end();
        },
      );
    });
    // Listening once the app is ready (ready() and listen() wait for it), so a scraper finds it as soon as the product answers.
    app.addHook('onReady', (done) => {
      server.once('error', done);
      server.listen(opts.port, opts.host, () => {
        server.off('error', done);
        const address = server.address();
        app.log.info({ metrics: typeof address === 'object' && address ? `${address.address}:${address.port}` : opts.port }, 'metrics are served for Prometheus');
        done();
      });
    });
    app.addHook('onClose', (_app, done) => {
      if (server.listening) server.close(() => done());
      else done();
    });
    app.decorate('metricsServer', server);
  },
  { name: 'metrics', dependencies: ['db'] },
);

/** GET /metrics on the product's own port, for a scraper with METRICS_TOKEN (in the public context: it carries no user's token). */
export async function metricsRoutes(app: FastifyInstance, opts: { token: string }): Promise<void> {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!app.metrics || !sameSecret(given, opts.token)) return reply.code(401).header('WWW-Authenticate', 'Bearer').header('Cache-Control', 'no-store').send({ detail: 'A metrics token is needed.' });
    const { type, body } = await answer(app.metrics);
    return reply.header('Cache-Control', 'no-store').type(type).send(body);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics?: Registry;
    metricsServer?: http.Server;
  }
}
