import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry, JournalMoods, JournalPage } from '@healthbook/shared';
import { latestToday } from '../src/modules/records/records.service';
import { buildTestApp, type TestApp } from './build-app';
import { pdfWords } from './pdf-text';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * The journal: writing, reading, changing and deleting entries; search, tag and date filters;
 * the mood series; the checks (each naming its field, nothing stored); private entries; and the
 * refusals: another patient, another organisation, the feature turned off, no session.
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  const org = await buildOrganization(t.app, { name: 'journal-org' });
  const other = await buildOrganization(t.app, { name: 'journal-other' });
  people.alice = await buildUser(t.app, { org, dob: '1980-06-15' });
  people.bob = await buildUser(t.app, { org, dob: '1975-01-01' });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });
const write = async (who: string, body: object) => {
  const res = await call(who, 'POST', '/api/v1/journal/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<JournalEntry>();
};
const count = async () => Number((await t.db.selectFrom('journal_entries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('journal entries', () => {
  it('writes, reads, changes and deletes an entry; private by default', async () => {
    const created = await write('alice', { entry_date: '2026-01-10', title: '  A calm morning ', text: 'Walked by the sea.', mood: 4, tags: ['walk', ' sea ', 'Walk'] });
    expect(created).toMatchObject({ entry_date: '2026-01-10', title: 'A calm morning', text: 'Walked by the sea.', mood: 4, tags: ['walk', 'sea'], private: true });

    const read = await call('alice', 'GET', `/api/v1/journal/${created.id}/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);

    const patched = await call('alice', 'PATCH', `/api/v1/journal/${created.id}/`, { mood: 5, private: false });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<JournalEntry>()).toMatchObject({ title: 'A calm morning', mood: 5, private: false, tags: ['walk', 'sea'] });

    const put = await call('alice', 'PUT', `/api/v1/journal/${created.id}/`, { entry_date: '2026-01-11', title: 'Replaced' });
    expect(put.statusCode, put.body).toBe(200);
    // PUT replaces: the fields not given take their defaults (private again).
    expect(put.json<JournalEntry>()).toMatchObject({ entry_date: '2026-01-11', title: 'Replaced', text: '', mood: null, tags: [], private: true });

    expect((await call('alice', 'DELETE', `/api/v1/journal/${created.id}/`)).statusCode).toBe(204);
    expect((await call('alice', 'GET', `/api/v1/journal/${created.id}/`)).statusCode).toBe(404);
    expect((await call('alice', 'DELETE', `/api/v1/journal/${created.id}/`)).statusCode).toBe(404);
  });

  it('lists newest first, searches title, text and tags, filters by tag and dates, pages', async () => {
    await write('bob', { entry_date: '2026-02-01', title: 'Headache day', text: 'Stayed in.', mood: 2, tags: ['migraine'] });
    await write('bob', { entry_date: '2026-02-03', title: 'Better', text: 'Ελαφριά βόλτα στο πάρκο.', mood: 4, tags: ['walk'] });
    await write('bob', { entry_date: '2026-02-02', title: 'Tired', text: 'Slept badly', tags: ['Sleep'] });

    const all = (await call('bob', 'GET', '/api/v1/journal/')).json<JournalPage>();
    expect(all.count).toBe(3);
    expect(all.results.map((e) => e.entry_date)).toEqual(['2026-02-03', '2026-02-02', '2026-02-01']);

    const titles = async (query: string) => (await call('bob', 'GET', `/api/v1/journal/?${query}`)).json<JournalPage>().results.map((e) => e.title);
    expect(await titles('search=headache')).toEqual(['Headache day']);
    expect(await titles(`search=${encodeURIComponent('βολτα')}`)).toEqual(['Better']);
    expect(await titles('search=MIGRAINE')).toEqual(['Headache day']);
    expect(await titles('search=100%25')).toEqual([]);
    expect(await titles('tag=sleep')).toEqual(['Tired']);
    expect(await titles('date_from=2026-02-02&date_to=2026-02-02')).toEqual(['Tired']);
    const page2 = (await call('bob', 'GET', '/api/v1/journal/?page=2&page_size=2')).json<JournalPage>();
    expect(page2).toMatchObject({ count: 3, page: 2, page_size: 2 });
    expect(page2.results.map((e) => e.title)).toEqual(['Headache day']);

    const moods = (await call('bob', 'GET', '/api/v1/journal/moods/')).json<JournalMoods>();
    expect(moods.map((m) => [m.date, m.mood])).toEqual([
      ['2026-02-01', 2],
      ['2026-02-03', 4],
    ]);
    const ranged = (await call('bob', 'GET', '/api/v1/journal/moods/?date_from=2026-02-02')).json<JournalMoods>();
    expect(ranged.map((m) => m.mood)).toEqual([4]);
  });

  it('refuses bad input, naming the field, and stores nothing', async () => {
    const before = await count();
    const today = latestToday();
    const future = new Date(Date.parse(today) + 2 * 86_400_000).toISOString().slice(0, 10);
    const cases: Array<[object, string, string]> = [
      [{ entry_date: '2026-01-01' }, 'title', 'Give the entry a title.'],
      [{ entry_date: '2026-01-01', title: '   ' }, 'title', 'Give the entry a title.'],
      [{ entry_date: '2026-01-01', title: 'x'.repeat(201) }, 'title', 'A title has at most 200 characters.'],
      [{ entry_date: '2026-01-01', title: 'ok', text: 'x'.repeat(20_001) }, 'text', 'An entry’s text has at most 20,000 characters.'],
      [{ entry_date: '2026-01-01', title: 'ok', mood: 6 }, 'mood', 'Choose a mood from 1 to 5.'],
      [{ entry_date: '2026-01-01', title: 'ok', mood: 2.5 }, 'mood', 'Choose a mood from 1 to 5.'],
      [{ entry_date: '2026-01-01', title: 'ok', mood: 0 }, 'mood', 'Choose a mood from 1 to 5.'],
      [{ entry_date: '2026-01-01', title: 'ok', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags', 'An entry has at most 10 tags.'],
      [{ entry_date: '2026-01-01', title: 'ok', tags: ['x'.repeat(41)] }, 'tags.0', 'A tag has at most 40 characters.'],
      [{ entry_date: future, title: 'ok' }, 'entry_date', 'The date cannot be in the future'],
      [{ entry_date: '1970-01-01', title: 'ok' }, 'entry_date', 'The selected date is before your birth date'],
      [{ entry_date: '2026-02-30', title: 'ok' }, 'entry_date', ''],
    ];
    for (const [body, field, message] of cases) {
      const res = await call('alice', 'POST', '/api/v1/journal/', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      const answer = res.json<Record<string, string[]>>();
      expect(Object.keys(answer), res.body).toContain(field);
      if (message) expect(answer[field]![0]!.replace("'", '’')).toBe(message);
    }
    // In Greek too.
    const el = await call('alice', 'POST', '/api/v1/journal/', { entry_date: '2026-01-01', title: '' }, 'el');
    expect(el.json()).toEqual({ title: ['Δώστε έναν τίτλο στην καταχώριση.'] });
    // A change is checked as well.
    const entry = await write('alice', { entry_date: '2026-01-05', title: 'Kept' });
    const bad = await call('alice', 'PATCH', `/api/v1/journal/${entry.id}/`, { mood: 9 });
    expect(bad.statusCode).toBe(400);
    expect((await call('alice', 'GET', `/api/v1/journal/${entry.id}/`)).json<JournalEntry>().mood).toBeNull();
    expect(await count()).toBe(before + 1);
  });
});

describe('the PDF export', () => {
  it('has a Journal section when asked; private entries only with include_private', async () => {
    const org = await buildOrganization(t.app, { name: 'journal-pdf' });
    const carol = await buildUser(t.app, { org, dob: '1985-01-01' });
    tokens.carol = (await signIn(t.app, { email: carol.email, password: carol.password, org_id: carol.org_id })).access;
    await write('carol', { entry_date: '2026-04-01', title: 'Shared thoughts', text: 'Seeing friends helped.', mood: 4, tags: ['friends'], private: false });
    await write('carol', { entry_date: '2026-04-02', title: 'Secret worries', text: 'Only for me.', mood: 2 });
    const pdfOf = async (body: object) => {
      const made = await call('carol', 'POST', '/api/v1/hr/export/', { language: 'en', ...body });
      expect(made.statusCode, made.body).toBe(201);
      return pdfWords((await call('carol', 'GET', made.json<{ url: string }>().url)).rawPayload);
    };
    const shared = await pdfOf({ journal: true });
    expect(shared).toContain('Journal (1)');
    expect(shared).toContain('Shared thoughts');
    expect(shared).toContain('4 of 5 (good)');
    expect(shared).toContain('friends');
    expect(shared).toContain('Seeing friends helped.');
    expect(shared).not.toContain('Secret worries');
    const all = await pdfOf({ journal: true, include_private: true });
    expect(all).toContain('Journal (2)');
    expect(all).toContain('Secret worries');
    expect(await pdfOf({ types: ['allergy'] })).not.toContain('Journal');
    const made = await call('carol', 'POST', '/api/v1/hr/export/', { language: 'el', journal: true });
    const el = pdfWords((await call('carol', 'GET', made.json<{ url: string }>().url)).rawPayload);
    expect(el).toContain('Προσωπικό ημερολόγιο (1)');
    expect(el).toContain('4 από 5 (καλή)');
  });
});

describe('who may see a journal', () => {
  it('another patient of the organisation: 404 on every route, audited as denied; nothing changed', async () => {
    const entry = await write('alice', { entry_date: '2026-03-01', title: 'Mine alone', mood: 3, private: false });
    const patient = entry.patient;
    for (const who of ['bob', 'stranger']) {
      expect((await call(who, 'GET', `/api/v1/journal/?patient=${patient}`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/v1/journal/moods/?patient=${patient}`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/v1/journal/${entry.id}/?patient=${patient}`)).statusCode).toBe(404);
      expect((await call(who, 'POST', `/api/v1/journal/?patient=${patient}`, { entry_date: '2026-03-01', title: 'Intruder' })).statusCode).toBe(404);
      expect((await call(who, 'PATCH', `/api/v1/journal/${entry.id}/?patient=${patient}`, { title: 'Changed' })).statusCode).toBe(404);
      expect((await call(who, 'DELETE', `/api/v1/journal/${entry.id}/?patient=${patient}`)).statusCode).toBe(404);
      // Their own journal does not hold another's entry either.
      expect((await call(who, 'GET', `/api/v1/journal/${entry.id}/`)).statusCode).toBe(404);
      expect((await call(who, 'PATCH', `/api/v1/journal/${entry.id}/`, { title: 'Changed' })).statusCode).toBe(404);
      expect((await call(who, 'DELETE', `/api/v1/journal/${entry.id}/`)).statusCode).toBe(404);
    }
    expect((await call('alice', 'GET', `/api/v1/journal/${entry.id}/`)).json<JournalEntry>().title).toBe('Mine alone');
    const denied = await t.db.selectFrom('audit_log').select('id').where('action', '=', 'patient_access').where('outcome', '=', 'denied').where('subject', '=', `patient:${patient}`).execute();
    expect(denied.length).toBeGreaterThan(0);
  });

  it('with the feature turned off: 403', async () => {
    const org = await buildOrganization(t.app, { name: 'journal-off' });
    const patient = await buildUser(t.app, { org, dob: '1990-01-01' });
    const admin = await buildUser(t.app, { org, roles: ['org_admin'] });
    const [pt, at] = await Promise.all([patient, admin].map(async (u) => (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access));
    const features = (await t.app.inject({ method: 'POST', url: '/api/v1/features/get-features/', headers: bearer(at!), payload: { organization_id: org.id } })).json<Array<{ id: number; key: string }>>();
    const journal = features.find((f) => f.key === 'journal')!;
    const set = await t.app.inject({ method: 'PUT', url: `/api/v1/features/${journal.id}/`, headers: bearer(at!), payload: { organization_id: org.id, feature_status: 'disabled' } });
    expect(set.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/journal/', headers: bearer(pt!) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/journal/moods/', headers: bearer(pt!) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/journal/', headers: bearer(pt!), payload: { entry_date: '2026-01-01', title: 'x' } })).statusCode).toBe(403);
  });

  it('without a session: 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/journal/' })).statusCode).toBe(401);
  });
});
