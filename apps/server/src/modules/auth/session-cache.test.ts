import { describe, expect, it } from 'vitest';
import type { SessionUserRecord } from '../users/users.repository';
import { SessionCache, type SessionAnswer } from './session-cache';

const user = (id: number, orgId = 1) => ({ id, org_id: orgId, first_name: `User ${id}`, roles: ['patient'] }) as unknown as SessionUserRecord;
const answer = (id: number, orgId = 1, endsInMs = 60_000): SessionAnswer => ({ user: user(id, orgId), endsAtMs: Date.now() + endsInMs });

/** A loader that counts its calls. */
function loader(make: () => SessionAnswer | undefined) {
  const calls = { n: 0 };
  return { calls, load: async () => (calls.n++, make()) };
}

describe('SessionCache', () => {
  it('reads the database every time until the change channel is heard', async () => {
    const cache = new SessionCache();
    const { calls, load } = loader(() => answer(1));
    await cache.get('s1', load);
    await cache.get('s1', load);
    expect(calls.n).toBe(2);
    cache.setLive(true);
    await cache.get('s1', load);
    await cache.get('s1', load);
    expect(calls.n).toBe(3);
    cache.setLive(false);
    await cache.get('s1', load);
    expect(calls.n).toBe(4);
  });

  it('forgets a user\'s sessions, and only theirs, on u<id>; an organisation\'s on o<id>; everything on anything else', async () => {
    const cache = new SessionCache();
    cache.setLive(true);
    const one = loader(() => answer(1, 10));
    const two = loader(() => answer(2, 20));
    await cache.get('a', one.load);
    await cache.get('b', one.load);
    await cache.get('c', two.load);
    cache.changed('u1');
    await cache.get('a', one.load);
    await cache.get('b', one.load);
    await cache.get('c', two.load);
    expect([one.calls.n, two.calls.n]).toEqual([4, 1]);
    cache.changed('o20');
    await cache.get('a', one.load);
    await cache.get('c', two.load);
    expect([one.calls.n, two.calls.n]).toEqual([4, 2]);
    cache.changed('?');
    expect(cache.size).toBe(0);
  });

  it('does not keep what a load read before a change it did not see', async () => {
    const cache = new SessionCache();
    cache.setLive(true);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stale = cache.get('s', async () => {
      await gate;
      return answer(1);
    });
    cache.changed('u1');
    release();
    await stale;
    const fresh = loader(() => answer(1));
    await cache.get('s', fresh.load);
    expect(fresh.calls.n).toBe(1);
  });

  it('answers concurrent misses with one load, and never a session past its end', async () => {
    const cache = new SessionCache();
    cache.setLive(true);
    const { calls, load } = loader(() => answer(1));
    await Promise.all(Array.from({ length: 50 }, () => cache.get('s', load)));
    expect(calls.n).toBe(1);
    const ending = loader(() => answer(2, 1, -1));
    await cache.get('e', ending.load);
    await cache.get('e', ending.load);
    expect(ending.calls.n).toBe(2);
  });

  it('hands out answers that cannot be changed by one request under the next', async () => {
    const cache = new SessionCache();
    cache.setLive(true);
    const { load } = loader(() => answer(1));
    await cache.get('s', load);
    const shared = (await cache.get('s', load))!;
    expect(() => {
      (shared as { first_name: string }).first_name = 'Changed';
    }).toThrow(TypeError);
    expect(() => (shared.roles as string[]).push('admin')).toThrow(TypeError);
  });
});
