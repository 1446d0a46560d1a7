import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedShare, ExportLink, HealthRecord } from '@healthbook/shared';
import { buildTestApp, captureLogs, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * The logs hold no personal data (issue 26, §3): a patient's journey through the API — signing
 * in, records typed and read, a share to a named recipient with a message, a PDF and its link,
 * the calendar's private feed, a password reset, mistakes — is logged as JSON, one line per
 * request (method, route pattern, status, time), and none of the patient's name, e-mail,
 * password, tokens, record texts, the recipient's name or address, or a link's secret appears.
 */

let t: TestApp;
let patient: BuiltUser;
let token: string;
let requests = 0;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = bearer(token)) => {
  requests++;
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
};

beforeAll(async () => {
  t = await buildTestApp();
  const org = await buildOrganization(t.app, { name: 'quiet-clinic', org_name: 'Quiet Clinic' });
  patient = await buildUser(t.app, { org, first_name: 'Philippa', last_name: 'Wolstenholme', dob: '1961-03-04', email: 'philippa.wolstenholme@private.example' });
  requests++;
  token = (await signIn(t.app, { email: patient.email, password: patient.password, org_id: patient.org_id })).access;
});
afterAll(() => t?.close());

describe('the logs of a patient’s journey', () => {
  it('say one line per request, and nothing of the patient, their record or their secrets', async () => {
    const logs = captureLogs(t.app);
    requests = 0;
    const created = await call('POST', '/api/v1/hr/condition/', { name: 'Marfanoid habitus', note: 'Told nobody but the cardiologist' });
    expect(created.statusCode).toBe(201);
    const id = created.json<HealthRecord>().id;
    expect((await call('GET', `/api/v1/hr/condition/${id}/`)).statusCode).toBe(200);
    expect((await call('PUT', `/api/v1/hr/condition/${id}/`, { name: 'Marfanoid habitus', note: 'Also the geneticist' })).statusCode).toBe(200);
    // A mistake: the bad value is in the answer, never in the log.
    expect((await call('POST', '/api/v1/hr/condition/', { name: 'Marfanoid habitus', start_date: 'Wolstenholme-day' })).statusCode).toBe(400);

    const share = await call('POST', '/api/v1/sharing/', { recipient_name: 'Dr Evangelista Papadimitriou', recipient_email: 'evangelista@outside.example', categories: ['condition'], message: 'Please read before Tuesday' });
    expect(share.statusCode, share.body).toBe(201);
    const [uid, secret] = new URL(share.json<CreatedShare>().url).pathname.split('/').slice(-2);
    expect((await call('POST', '/api/v1/sharing/public/code/', { uid, token: secret }, {})).statusCode).toBe(200);

    const made = await call('POST', '/api/v1/hr/export/', { types: ['condition'] });
    expect(made.statusCode).toBe(201);
    const link = made.json<ExportLink>().url;
    expect((await call('GET', link)).statusCode).toBe(200);

    const feed = await call('POST', '/api/v1/calendar/feed/');
    expect(feed.statusCode, feed.body).toBeLessThan(300);
    const feedUrl = (feed.json<{ url: string }>()).url;
    expect((await call('GET', new URL(feedUrl, 'http://x').pathname, undefined, {})).statusCode).toBe(200);

    expect((await call('POST', '/api/v1/reset_password/', { org_id: patient.org_id, email: patient.email }, {})).statusCode).toBeLessThan(300);
    await t.app.inject({ method: 'GET', url: `/api/v1/nothing/here/${encodeURIComponent(patient.email)}` });
    requests++;
    await t.app.backgroundMail.drain();
    logs.restore();

    const lines = logs.lines.flatMap((l) => l.split('\n')).filter(Boolean);
    const log = lines.join('\n');
    const secrets = [patient.first_name, patient.last_name, patient.email, patient.password, token, 'Marfanoid', 'cardiologist', 'geneticist', 'Evangelista', 'Papadimitriou', 'evangelista@outside', 'before Tuesday', secret!, link.split('/').at(-2)!, new URL(feedUrl, 'http://x').pathname.split('/').at(-1)!.replace(/\.ics$/, '')];
    for (const s of secrets) expect(log, `the logs hold "${s}"`).not.toContain(s);

    // JSON lines; the requests each once, with the route's pattern and the time taken.
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; route?: string; status?: number; ms?: number; reqId?: string });
    const perRequest = parsed.filter((l) => l.msg === 'request');
    expect(perRequest).toHaveLength(requests);
    expect(perRequest.every((l) => typeof l.ms === 'number' && typeof l.status === 'number' && typeof l.reqId === 'string')).toBe(true);
    expect(perRequest.map((l) => l.route)).toContain('/api/v1/hr/condition/:id/');
    expect(perRequest.map((l) => l.route)).toContain('unmatched');
    expect(parsed.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
  });
});
