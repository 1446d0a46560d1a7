import path from 'node:path';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { prepareDatabase } from './db/setup';
import { LocalStorage } from './plugins/storage';
import { cleanupExpired } from './modules/maintenance/cleanup';

/** Starts one process serving the API and the built web app, and stops it gracefully on SIGTERM/SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const pretty = process.stdout.isTTY && config.env !== 'production';
  const bootLog = pino({ level: config.logLevel });
  const storage = new LocalStorage(path.join(config.dataDir, 'files'));
  const db = await prepareDatabase(config, storage, bootLog);
  let redis: Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  }
  const app = await buildApp(config, { db, storage, prettyLogs: pretty, ...(redis ? { rateLimitRedis: redis } : {}) });
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));

  // Hourly: drop sessions, codes and tokens that can no longer be used.
  const cleanup = setInterval(() => {
    cleanupExpired(app.db).then(
      (removed) => app.log.info({ removed }, 'expired sessions and codes removed'),
      (err: unknown) => app.log.error({ err }, 'cleanup failed'),
    );
  }, 60 * 60 * 1000);
  cleanup.unref();
  app.addHook('onClose', async () => clearInterval(cleanup));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: config.databaseUrl ? 'postgresql' : 'pglite', mail: app.mailer.mode, web: Boolean(config.webDist) },
    `HealthBook is ready at ${config.publicUrl}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
