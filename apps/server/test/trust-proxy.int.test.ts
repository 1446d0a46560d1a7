import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './build-app';
import { buildOrganization, buildUser } from './factories';

/**
 * TRUST_PROXY: behind the one reverse proxy of compose.yaml (TRUST_PROXY=1) the client's address is
 * the one the proxy puts in X-Forwarded-For (it is what the audit log keeps and the per-IP limits
 * count); without it, a client's own X-Forwarded-For is never believed.
 */

let behindProxy: TestApp;
let direct: TestApp;

beforeAll(async () => {
  behindProxy = await buildTestApp({ env: { TRUST_PROXY: '1' } });
  direct = await buildTestApp();
});
afterAll(async () => {
  await behindProxy?.close();
  await direct?.close();
});

/** Signs a new user in from the proxy's address with the given X-Forwarded-For; answers the audited address. */
async function auditedAddress(t: TestApp, forwardedFor: string) {
  const org = await buildOrganization(t.app, { name: `proxy-${Math.random().toString(36).slice(2, 8)}` });
  const user = await buildUser(t.app, { org, email: `u${Math.random().toString(36).slice(2)}@example.test` });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/login/',
    payload: { email: user.email, password: user.password, org: org.id },
    headers: { 'x-forwarded-for': forwardedFor },
    remoteAddress: '172.18.0.5',
  });
  expect(res.statusCode).toBe(200);
  const row = await t.db.selectFrom('audit_log').select('ip').where('subject', '=', `${org.id}:${user.email}`).where('action', '=', 'login').executeTakeFirstOrThrow();
  return row.ip;
}

describe('TRUST_PROXY', () => {
  it('=1: the address the proxy forwards is the client’s, whatever the client itself claimed before it', async () => {
    expect(await auditedAddress(behindProxy, '203.0.113.7')).toBe('203.0.113.7');
    expect(await auditedAddress(behindProxy, '10.9.9.9, 198.51.100.4')).toBe('198.51.100.4');
  });

  it('unset: X-Forwarded-For is ignored; the peer is the client', async () => {
    expect(await auditedAddress(direct, '203.0.113.7')).toBe('172.18.0.5');
  });

  it('=1: each client the proxy names has its own sign-in allowance; unset, naming another address escapes nothing', async () => {
    const limited = await buildTestApp({ env: { TRUST_PROXY: '1' }, perIpLimitFloor: 0, config: { authRateLimit: 2 } });
    const unlimited = await buildTestApp({ perIpLimitFloor: 0, config: { authRateLimit: 2 } });
    try {
      const from = (t: TestApp, client: string) =>
        t.app.inject({ method: 'POST', url: '/api/v1/reset_password/', payload: { org_id: 1, email: 'a@example.test' }, remoteAddress: '172.18.0.5', headers: { 'x-forwarded-for': client } });
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await from(limited, '203.0.113.1')).statusCode);
      expect(codes[2]).toBe(429);
      expect((await from(limited, '203.0.113.2')).statusCode).not.toBe(429);
      const spoofed = [];
      for (let i = 0; i < 3; i++) spoofed.push((await from(unlimited, `198.51.100.${i}`)).statusCode);
      expect(spoofed[2]).toBe(429);
    } finally {
      await limited.close();
      await unlimited.close();
    }
  });
});
