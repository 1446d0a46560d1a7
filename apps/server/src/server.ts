import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, hasTurnRelay } from './config';
import { DATA_DIR_IN_USE_EXIT_CODE, DataDirInUseError, loadConfigOwningDataDir } from './db/data-dir-lock';
import { DATABASE_UNAVAILABLE_EXIT_CODE, DatabaseUnavailableError, prepareDatabase } from './db/setup';
import { createStorage } from './plugins/storage';
import { startScheduler } from './jobs/scheduler';
import { openOperatorChannel } from './operator/channel';
import { runCommand } from './operator/commands';
import { firstStartHint } from './operator/first-start';

/** However a shutdown goes, the process is gone this long after the signal. */
const HARD_STOP_MS = 10_000;

const openConnections = (server: Server) =>
  new Promise<number>((resolve) => server.getConnections((err, count) => resolve(err ? 0 : count)));

/** Waits until no connection is open, or `graceMs` has passed, whichever comes first. */
async function lingerWhileConnected(server: Server, graceMs: number) {
  const until = Date.now() + graceMs;
  while (Date.now() < until && server.listening && (await openConnections(server)) > 0) {
    await sleep(Math.min(25, Math.max(0, until - Date.now())));
  }
}

/** Starts one process serving the API and the built web app, and stops it gracefully on SIGTERM/SIGINT. */
async function main() {
  // An embedded database's DATA_DIR is locked before anything in it is opened; the lock lasts
  // as long as the process (the OS releases it at exit, however the process ends).
  let config;
  try {
    ({ config } = loadConfigOwningDataDir());
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    if (err instanceof DataDirInUseError) {
      console.error(err.message);
      process.exit(DATA_DIR_IN_USE_EXIT_CODE);
    }
    throw err;
  }
  const pretty = process.stdout.isTTY && config.env !== 'production';
  const bootLog = pino({ level: config.logLevel });
  const storage = createStorage(config);
  let db;
  try {
    db = await prepareDatabase(config, storage, bootLog);
  } catch (err) {
    if (err instanceof DatabaseUnavailableError) {
      console.error(err.message);
      process.exit(DATABASE_UNAVAILABLE_EXIT_CODE);
    }
    throw err;
  }
  let redis: Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  }
  const app = await buildApp(config, { db, storage, prettyLogs: pretty, ...(redis ? { rateLimitRedis: redis } : {}) });
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));

  // Scheduled work: reminders (once across processes), slots and recurring reminders kept
  // rolling, and the hourly removal of sessions, codes and tokens that can no longer be used.
  startScheduler(app);

  // Stopping: from the signal on, every new request gets 503 + Retry-After + Connection: close while
  // requests in flight finish. The listener stays open while connections remain, up to
  // SHUTDOWN_GRACE_MS, so a request that arrives on a keep-alive connection gets that 503 instead
  // of a reset; then close() stops listening, waits for what is in flight and closes the database.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.beginShutdown();
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing requests in flight, new ones get 503');
    const timer = setTimeout(() => {
      app.log.error(`shutdown took longer than ${HARD_STOP_MS / 1000} s; exiting`);
      process.exit(1);
    }, HARD_STOP_MS);
    timer.unref();
    try {
      await lingerWhileConnected(app.server, config.shutdownGraceMs);
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // The operator's commands reach the embedded database through this process (which owns it),
  // over a socket in DATA_DIR only the machine's operator can open. On PostgreSQL the CLI
  // connects to the database itself.
  if (!config.databaseUrl) {
    const channel = await openOperatorChannel(
      config.dataDir,
      (argv, io) =>
        runCommand(argv, { db: app.db, mailer: app.mailer, storage: app.storage, publicUrl: config.publicUrl, organizations: app.organizations, log: app.log, installation: config, ...io }),
      app.log,
    );
    if (channel) app.addHook('onClose', async () => channel.close());
  }

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: config.databaseUrl ? 'postgresql' : 'pglite', mail: app.mailer.mode, web: Boolean(config.webDist), video: hasTurnRelay(config.turn) ? 'turn relay' : 'peer to peer only' },
    `HealthBook is ready at ${config.publicUrl}`,
  );
  // A real installation's first start: one line saying what to run next.
  const hint = await firstStartHint(app.db);
  if (hint) app.log.warn(hint);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
