import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cleanupExpired } from '../src/modules/maintenance/cleanup';
import { useTestApp } from './build-app';
import { buildOrganization, buildUser, signIn } from './factories';

describe('cleanup of expired sessions and codes', () => {
  const t = useTestApp();

  it('removes long-ended sessions and spent codes, keeps live ones', async () => {
    const org = await buildOrganization(t.app, { name: 'cleanup-clinic' });
    const user = await buildUser(t.app, { org, email: 'c@example.test' });
    const live = await signIn(t.app, { email: user.email, password: user.password, org_id: org.id });
    const old = await signIn(t.app, { email: user.email, password: user.password, org_id: org.id });
    const oldSid = JSON.parse(Buffer.from(old.access.split('.')[1]!, 'base64url').toString()).sid as string;
    await t.db.updateTable('sessions').set({ revoked_at: sql`now() - interval '40 days'` }).where('id', '=', oldSid).execute();
    await t.db
      .insertInto('mfa_codes')
      .values({ org_id: org.id, user_id: user.id, code_hash: 'x', expires_at: new Date(Date.now() - 1000) })
      .execute();

    const removed = await cleanupExpired(t.db);
    expect(removed).toMatchObject({ sessions: 1, mfaCodes: 1 });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: { authorization: `Bearer ${live.access}` } });
    expect(res.statusCode).toBe(200);
  });
});
