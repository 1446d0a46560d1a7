import pg from 'pg';
import { pgliteClients, pgPools, poolNotifications, type CHANGE_CHANNELS, type Db } from './client';

export interface ChangeListener {
  /** A notification's payload. */
  message(payload: string): void;
  /**
   * false whenever notifications may be missed (the listening connection is down or not yet up),
   * true once listening again. Whatever was kept in memory meanwhile may be out of date.
   */
  live(isLive: boolean): void;
}

/**
 * Hears PostgreSQL notifications on `channel` for as long as the returned stop function is not
 * called. PGlite (one process, in it) always hears them, when the change commits. On a server a
 * dedicated connection LISTENs, reconnecting with backoff when it drops; and every pooled
 * connection LISTENs too, so that this process hears its own change before the statement that
 * committed it answers (a request's write is seen by the next request, with no race).
 */
export async function listenForChanges(db: Db, channel: (typeof CHANGE_CHANNELS)[number], listener: ChangeListener): Promise<() => Promise<void>> {
  const pglite = pgliteClients.get(db);
  if (pglite) {
    const unlisten = await pglite.listen(channel, (payload) => listener.message(payload));
    listener.live(true);
    return async () => {
      listener.live(false);
      if (!pglite.closed) await unlisten().catch(() => undefined);
    };
  }
  const pool = pgPools.get(db);
  if (!pool) throw new Error('listenForChanges: unknown database');
  const own = poolNotifications.get(pool);
  const onOwn = (payload: string) => listener.message(payload);
  own?.on(channel, onOwn);
  const stop = keepListening(pool.options.connectionString ?? '', channel, listener);
  return async () => {
    own?.off(channel, onOwn);
    await stop();
  };
}

/** The listening connection's application_name (pg_stat_activity shows it to operators). */
export const LISTENER_NAME = 'healthbook-listener';

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;
/**
 * The listening connection proves itself this often: a connection that stalls (a network
 * partition, a frozen server) says nothing, and notifications sent meanwhile would be missed.
 * An answer later than HEARTBEAT_TIMEOUT_MS counts as a lost connection.
 */
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_TIMEOUT_MS = 1_000;

/** Ends a connection at once, whether or not the server answers. */
function destroy(client: pg.Client): void {
  client.end().catch(() => undefined);
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

function keepListening(url: string, channel: string, listener: ChangeListener): () => Promise<void> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retryMs = FIRST_RETRY_MS;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client) => {
    if (current !== client) return;
    current = undefined;
    clearInterval(heartbeat);
    listener.live(false);
    destroy(client);
    if (stopped) return;
    timer = setTimeout(connect, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };

  const connect = () => {
    if (stopped) return;
    const client = new pg.Client({ connectionString: url, keepAlive: true, application_name: LISTENER_NAME });
    current = client;
    client.on('notification', (message) => {
      if (message.channel === channel) listener.message(message.payload ?? '');
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${channel}`))
      .then(() => {
        if (current !== client) return;
        retryMs = FIRST_RETRY_MS;
        listener.live(true);
        heartbeat = setInterval(() => {
          const late = setTimeout(() => lost(client), HEARTBEAT_TIMEOUT_MS);
          late.unref();
          client.query('select 1').then(
            () => clearTimeout(late),
            () => {
              clearTimeout(late);
              lost(client);
            },
          );
        }, HEARTBEAT_MS);
        heartbeat.unref();
      })
      .catch(() => lost(client));
  };

  connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    clearInterval(heartbeat);
    const client = current;
    current = undefined;
    listener.live(false);
    if (client) destroy(client);
  };
}
