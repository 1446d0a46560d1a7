// On PostgreSQL too (vitest.config.ts): sessions ended through one process, seen by another.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_NAME } from '../src/db/notifications';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * Signed-in requests are answered from each process's session cache, which the database keeps
 * true: whatever changes a session, its user, their second factors or their organisation
 * (the API, an operator's SQL, another process) is seen by the very next request.
 */
let t: TestApp;
let org: { id: number; name: string };

beforeAll(async () => {
  t = await buildTestApp({ perIpLimitFloor: 10_000 });
  org = await buildOrganization(t.app, { name: 'cache-clinic', org_name: 'Cache Clinic' });
});
afterAll(async () => {
  await t?.close();
});

const creds = (u: BuiltUser) => ({ email: u.email, password: u.password, org_id: u.org_id });
const me = (token: string, app = t.app) => app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(token) });

async function signedIn() {
  const user = await buildUser(t.app, { org });
  const { access, refresh } = await signIn(t.app, creds(user));
  // Twice: the second answer comes from the cache.
  expect((await me(access)).statusCode).toBe(200);
  expect((await me(access)).statusCode).toBe(200);
  return { user, access, refresh };
}

describe('a change written straight into the database is seen by the next request', () => {
  it('a session revoked by SQL: 401', async () => {
    const { user, access } = await signedIn();
    await t.db.updateTable('sessions').set({ revoked_at: sql`now()`, revoked_reason: 'operator' }).where('user_id', '=', user.id).execute();
    expect((await me(access)).statusCode).toBe(401);
  });

  it('a session deleted, or ended by SQL: 401', async () => {
    const a = await signedIn();
    await t.db.deleteFrom('sessions').where('user_id', '=', a.user.id).execute();
    expect((await me(a.access)).statusCode).toBe(401);
    const b = await signedIn();
    await t.db.updateTable('sessions').set({ expires_at: sql`now() - interval '1 second'` }).where('user_id', '=', b.user.id).execute();
    expect((await me(b.access)).statusCode).toBe(401);
  });

  it('a user deactivated by SQL: 401; their details changed: the new ones', async () => {
    const a = await signedIn();
    await t.db.updateTable('users').set({ first_name: 'Renamed' }).where('id', '=', a.user.id).execute();
    expect((await me(a.access)).json()).toMatchObject({ first_name: 'Renamed' });
    await t.db.updateTable('users').set({ is_active: false }).where('id', '=', a.user.id).execute();
    expect((await me(a.access)).statusCode).toBe(401);
  });

  it('the organisation renamed by SQL: its new name', async () => {
    const other = await buildOrganization(t.app, { name: 'cache-renamed', org_name: 'Before' });
    const user = await buildUser(t.app, { org: other });
    const { access } = await signIn(t.app, creds(user));
    expect((await me(access)).json().user_org_details[0].org_name).toBe('Before');
    await t.db.updateTable('organizations').set({ org_name: 'After' }).where('id', '=', other.id).execute();
    expect((await me(access)).json().user_org_details[0].org_name).toBe('After');
  });

  it('a second factor confirmed by SQL shows at once; other users are not forgotten', async () => {
    const a = await signedIn();
    const b = await signedIn();
    expect((await me(a.access)).json().has_mfa_enabled).toBe(false);
    await t.db
      .insertInto('mfa_devices')
      .values({ uuid: crypto.randomUUID(), org_id: org.id, user_id: a.user.id, device_type: 'email', confirmed: true })
      .execute();
    expect((await me(a.access)).json().has_mfa_enabled).toBe(true);
    expect((await me(b.access)).statusCode).toBe(200);
  });
});

describe('changes through the API', () => {
  it('a password change ends the other sessions at once; this one stays', async () => {
    const { user, access } = await signedIn();
    const other = await signIn(t.app, creds(user));
    expect((await me(other.access)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/me/password/',
      headers: bearer(access),
      payload: { current_password: user.password, password: 'Brand-New#Pass9' },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(other.access)).statusCode).toBe(401);
    expect((await me(access)).statusCode).toBe(200);
  });

  it('100 parallel requests right after a logout: every one 401', async () => {
    const { access, refresh } = await signedIn();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/logout/', payload: { refresh } })).statusCode).toBe(204);
    const answers = await Promise.all(Array.from({ length: 100 }, () => me(access)));
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([401]));
  });

  it('a profile update is answered by the next request', async () => {
    const { access } = await signedIn();
    const res = await t.app.inject({ method: 'PUT', url: '/api/v1/me/', headers: bearer(access), payload: { first_name: 'Updated' } });
    expect(res.statusCode).toBe(200);
    expect((await me(access)).json()).toMatchObject({ first_name: 'Updated' });
  });
});

describe.runIf(testDbKind() === 'postgres')('several processes on one database', () => {
  it('a logout through one is refused by the other at once', async () => {
    const second = await buildTestApp({ databaseUrl: t.databaseUrl!, perIpLimitFloor: 10_000 });
    try {
      const { access, refresh } = await signedIn();
      expect((await me(access, second.app)).statusCode).toBe(200);
      expect((await me(access, second.app)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/logout/', payload: { refresh } })).statusCode).toBe(204);
      // The notification crosses between two connections: milliseconds, not a time limit.
      const started = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - started < 2000) status = (await me(access, second.app)).statusCode;
      console.log(`[session-cache] a logout through one process refused by another after ${Date.now() - started} ms`);
      expect(status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('while the listening connection is down, every request reads the database; it comes back on its own', async () => {
    const { user, access } = await signedIn();
    const listeners = () =>
      sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${LISTENER_NAME} and datname = current_database()`.execute(t.db);
    const before = (await listeners()).rows;
    expect(before.length).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTENER_NAME} and datname = current_database()`.execute(t.db);
    // Revoked by SQL while nobody listens for it: the cache must not answer.
    await t.db.updateTable('users').set({ first_name: 'Unheard' }).where('id', '=', user.id).execute();
    expect((await me(access)).json()).toMatchObject({ first_name: 'Unheard' });
    const started = Date.now();
    let back: Array<{ pid: number }> = [];
    while (Date.now() - started < 10_000) {
      back = (await listeners()).rows;
      if (back.length > 0 && back[0]!.pid !== before[0]!.pid) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`[session-cache] the listening connection came back after ${Date.now() - started} ms`);
    expect(back.length).toBeGreaterThan(0);
    await t.db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', user.id).execute();
    expect((await me(access)).statusCode).toBe(401);
  });
});
