import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'forward' | 'stall' | 'down';

/**
 * A TCP proxy in front of a real server, for tests of a database that misbehaves:
 * - forward: bytes pass both ways;
 * - stall: connections stay open but nothing passes (as a frozen server: bytes wait in the
 *   kernel's buffers and pass again on forward); new connections are accepted and stall too;
 * - down: every connection is cut and new ones are refused.
 */
export interface TcpProxy {
  port: number;
  url(databaseUrl: string): string;
  setMode(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let server: net.Server;
  let port = 0;

  const applyMode = (pair: { client: net.Socket; upstream: net.Socket }) => {
    if (mode === 'stall') {
      pair.client.pause();
      pair.upstream.pause();
    } else if (mode === 'forward') {
      pair.client.resume();
      pair.upstream.resume();
    }
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer({ pauseOnConnect: true }, (client) => {
        const upstream = net.connect(target);
        const pair = { client, upstream };
        pairs.add(pair);
        const drop = () => {
          pairs.delete(pair);
          client.destroy();
          upstream.destroy();
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream);
        upstream.pipe(client);
        applyMode(pair);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    url(databaseUrl: string) {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async setMode(next: ProxyMode) {
      const was = mode;
      mode = next;
      if (next === 'down') {
        for (const pair of [...pairs]) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
        await new Promise<void>((resolve) => server.close(() => resolve()));
        return;
      }
      if (was === 'down') await listen();
      for (const pair of pairs) applyMode(pair);
    },
    async close() {
      mode = 'down';
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}
