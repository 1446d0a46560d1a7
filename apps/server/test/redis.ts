import { Redis } from 'ioredis';

/** Whether the local Redis answers (tests of several processes skip without it). */
export async function redisReachable(): Promise<boolean> {
  const probe = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  const reachable = await probe.connect().then(
    () => true,
    () => false,
  );
  probe.disconnect();
  return reachable;
}
