// On PostgreSQL too (vitest.config.ts): the caps on events and series under creates sent at once (an advisory lock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarEvent, CalendarFeed, CalendarItem } from '@healthbook/shared';
import { sendDueReminders, extendRecurringReminders } from '../src/jobs/reminders';
import type { MailMessage, Mailer } from '../src/plugins/mail';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * The calendar API (/api/v1/calendar/…): events one-off and recurring, expanded per window in
 * their own time zone; the rules and refusals; other patients and organisations kept out; the
 * private feed; and reminders sent once.
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const hb = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()) as { id: number };
  const other = await buildOrganization(t.app, { name: 'calendar-other' });
  people.alice = await buildUser(t.app, { org: hb, first_name: 'Alice' });
  people.bob = await buildUser(t.app, { org: hb });
  people.stranger = await buildUser(t.app, { org: other });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: string | null, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...(who ? bearer(tokens[who]!) : {}), 'accept-language': lang }, ...(payload ? { payload } : {}) });

const event = (over: Record<string, unknown> = {}) => ({
  title: 'Physiotherapy',
  type: 'Excercise',
  start_time: '2026-03-23T16:00:00Z',
  end_time: '2026-03-23T17:00:00Z',
  ...over,
});

async function create(who: string, body: object): Promise<CalendarEvent> {
  const res = await call(who, 'POST', '/api/v1/calendar/events/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const window = async (who: string, start: string, end: string, tz = 'UTC'): Promise<CalendarItem[]> => {
  const res = await call(who, 'GET', `/api/v1/calendar/events/?start=${start}&end=${end}&tz=${encodeURIComponent(tz)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('events', () => {
  it('creates a one-off event with the colour of its type, reads, replaces and deletes it', async () => {
    const created = await create('alice', event({ description: 'Knee', reminder_minutes: 30 }));
    expect(created).toMatchObject({ title: 'Physiotherapy', type: 'Excercise', color: 'green', is_recurring: false, recurrence: null, reminder_minutes: 30, start_time: '2026-03-23T16:00:00.000Z' });
    expect((await call('alice', 'GET', `/api/v1/calendar/events/${created.event_id}/`)).json()).toMatchObject({ event_id: created.event_id, description: 'Knee' });

    const replaced = await call('alice', 'PUT', `/api/v1/calendar/events/${created.event_id}/`, event({ title: 'Blood test', type: 'Exam', start_time: '2026-03-24T08:00:00+02:00', end_time: '2026-03-24T08:30:00+02:00' }));
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ title: 'Blood test', color: 'deep-purple', start_time: '2026-03-24T06:00:00.000Z', description: null, reminder_minutes: null });

    expect((await call('alice', 'DELETE', `/api/v1/calendar/events/${created.event_id}/`)).statusCode).toBe(204);
    expect((await call('alice', 'GET', `/api/v1/calendar/events/${created.event_id}/`)).statusCode).toBe(404);
    expect((await call('alice', 'DELETE', `/api/v1/calendar/events/${created.event_id}/`)).statusCode).toBe(404);
  });

  it('expands a weekly series in its own zone (09:00 in Athens on both sides of the clock change), once per occurrence', async () => {
    const series = await create('alice', event({ title: 'Medicine', type: 'Medicine', start_time: '2026-03-23T07:00:00Z', end_time: '2026-03-23T07:15:00Z', recurrence: 'RRULE:BYDAY=MO,TH;FREQ=WEEKLY;COUNT=6', timezone: 'Europe/Athens' }));
    expect(series).toMatchObject({ is_recurring: true, recurrence: 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6', color: 'indigo' });
    const items = (await window('alice', '2026-03-01', '2026-04-30', 'Europe/Athens')).filter((i) => i.event_id === series.event_id);
    expect(items.map((i) => i.start_time)).toEqual([
      '2026-03-23T07:00:00.000Z',
      '2026-03-26T07:00:00.000Z',
      // Clocks go forward on 29 March: 09:00 is now 06:00 UTC.
      '2026-03-30T06:00:00.000Z',
      '2026-04-02T06:00:00.000Z',
      '2026-04-06T06:00:00.000Z',
      '2026-04-09T06:00:00.000Z',
    ]);
    expect(items.every((i) => i.kind === 'event' && i.is_recurring)).toBe(true);
    // A window in the middle holds only its own occurrences; one after the series none.
    expect((await window('alice', '2026-03-30', '2026-04-02', 'Europe/Athens')).filter((i) => i.event_id === series.event_id)).toHaveLength(2);
    expect((await window('alice', '2026-05-01', '2026-05-31')).filter((i) => i.event_id === series.event_id)).toHaveLength(0);

    // Editing a series is refused, nothing changes; deleting it removes every occurrence.
    const put = await call('alice', 'PUT', `/api/v1/calendar/events/${series.event_id}/`, event());
    expect(put.statusCode).toBe(400);
    expect(put.json().detail).toMatch(/recurring event cannot be edited/i);
    expect((await call('alice', 'GET', `/api/v1/calendar/events/${series.event_id}/`)).json()).toMatchObject({ title: 'Medicine' });
    expect((await call('alice', 'DELETE', `/api/v1/calendar/events/${series.event_id}/`)).statusCode).toBe(204);
    expect((await window('alice', '2026-03-01', '2026-04-30')).filter((i) => i.event_id === series.event_id)).toHaveLength(0);
  });

  it('shows a change at once (the window cache follows the patient data version)', async () => {
    const before = await window('alice', '2027-01-01', '2027-01-31');
    const created = await create('alice', event({ start_time: '2027-01-10T10:00:00Z', end_time: '2027-01-10T11:00:00Z' }));
    const after = await window('alice', '2027-01-01', '2027-01-31');
    expect(after.length).toBe(before.length + 1);
    await call('alice', 'DELETE', `/api/v1/calendar/events/${created.event_id}/`);
    expect(await window('alice', '2027-01-01', '2027-01-31')).toHaveLength(before.length);
  });

  it.each([
    ['malformed start', '/api/v1/calendar/events/?start=2026-13-01&end=2026-12-31', 'start'],
    ['end before start', '/api/v1/calendar/events/?start=2026-02-01&end=2026-01-31', 'end'],
    ['a window wider than 366 days', '/api/v1/calendar/events/?start=2026-01-01&end=2027-01-02', 'end'],
    ['an unknown zone', '/api/v1/calendar/events/?start=2026-01-01&end=2026-01-02&tz=Mars/Olympus', 'tz'],
  ])('refuses %s with a field error', async (_name, url, field) => {
    const res = await call('alice', 'GET', url);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toContain(field);
  });

  it.each([
    ['an unknown type', { type: 'Party' }, 'type'],
    ['a colour of another type', { color: 'red' }, 'color'],
    ['an end before the start', { end_time: '2026-03-23T15:00:00Z' }, 'end_time'],
    ['a time without offset', { start_time: '2026-03-23T16:00:00' }, 'start_time'],
    ['an invalid rule', { recurrence: 'FREQ=HOURLY' }, 'recurrence'],
    ['UNTIL and COUNT together', { recurrence: 'FREQ=DAILY;COUNT=3;UNTIL=20260401' }, 'recurrence'],
    ['weekdays on a monthly rule', { recurrence: 'FREQ=MONTHLY;BYDAY=MO' }, 'recurrence'],
    ['an empty title', { title: '   ' }, 'title'],
    ['an unknown field', { colour: 'blue' }, 'non_field_errors'],
  ])('refuses %s, in the field, and keeps nothing', async (_name, over, field) => {
    const count = async () => Number((await t.db.selectFrom('calendar_events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const res = await call('alice', 'POST', '/api/v1/calendar/events/', event(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toContain(field);
    expect(await count()).toBe(before);
  });

  it('answers in Greek', async () => {
    const res = await call('alice', 'POST', '/api/v1/calendar/events/', event({ end_time: '2026-03-23T15:00:00Z' }), 'el');
    expect(res.json().end_time[0]).toBe('Το τέλος πρέπει να είναι μετά την αρχή.');
  });

  it("keeps other patients and organisations out: another's event is 404 to read, change or delete, and never in their window", async () => {
    const mine = await create('alice', event({ start_time: '2026-06-01T10:00:00Z', end_time: '2026-06-01T11:00:00Z' }));
    for (const who of ['bob', 'stranger']) {
      expect((await call(who, 'GET', `/api/v1/calendar/events/${mine.event_id}/`)).statusCode).toBe(404);
      expect((await call(who, 'PUT', `/api/v1/calendar/events/${mine.event_id}/`, event())).statusCode).toBe(404);
      expect((await call(who, 'DELETE', `/api/v1/calendar/events/${mine.event_id}/`)).statusCode).toBe(404);
      expect((await window(who, '2026-06-01', '2026-06-01')).map((i) => i.event_id)).not.toContain(mine.event_id);
    }
    const alicePatient = (await t.db.selectFrom('patients').select('id').where('user_id', '=', people.alice!.id).executeTakeFirstOrThrow()).id;
    expect((await call('bob', 'GET', `/api/v1/calendar/events/?start=2026-06-01&end=2026-06-01&patient=${alicePatient}`)).statusCode).toBe(404);
    expect((await call('bob', 'POST', `/api/v1/calendar/events/?patient=${alicePatient}`, event())).statusCode).toBe(404);
    expect((await call('alice', 'GET', `/api/v1/calendar/events/${mine.event_id}/`)).statusCode).toBe(200);
    expect((await call(null, 'GET', '/api/v1/calendar/events/?start=2026-06-01&end=2026-06-01')).statusCode).toBe(401);
  });
});

describe('the calendar feed', () => {
  it('gives a webcal address once, serves the calendar as iCalendar, and stops when reset or turned off', async () => {
    await create('alice', event({ title: 'Feed series', start_time: new Date(Date.now() + 86_400_000).toISOString(), end_time: new Date(Date.now() + 90_000_000).toISOString(), recurrence: 'FREQ=DAILY;COUNT=3' }));
    expect((await call('alice', 'GET', '/api/v1/calendar/feed/')).json()).toEqual({ active: false, created_at: null, url: null });
    const made = (await call('alice', 'POST', '/api/v1/calendar/feed/')).json() as CalendarFeed;
    expect(made.url).toMatch(/^webcal:\/\/[^/]+\/api\/v1\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await call('alice', 'GET', '/api/v1/calendar/feed/')).json()).toMatchObject({ active: true, url: null });
    const path = new URL(made.url!.replace('webcal:', 'http:')).pathname;

    const feed = await t.app.inject({ method: 'GET', url: path });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    expect(feed.body).toContain('BEGIN:VCALENDAR');
    expect(feed.body).toContain('SUMMARY:Feed series');
    expect(feed.body).toContain('RRULE:FREQ=DAILY;COUNT=3');
    // Another patient's calendar is not in it.
    await create('bob', event({ title: 'Bob only', start_time: new Date(Date.now() + 86_400_000).toISOString(), end_time: new Date(Date.now() + 90_000_000).toISOString() }));
    expect((await t.app.inject({ method: 'GET', url: path })).body).not.toContain('Bob only');

    const reset = (await call('alice', 'POST', '/api/v1/calendar/feed/')).json() as CalendarFeed;
    expect(reset.url).not.toBe(made.url);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const newPath = new URL(reset.url!.replace('webcal:', 'http:')).pathname;
    expect((await t.app.inject({ method: 'GET', url: newPath })).statusCode).toBe(200);
    expect((await call('alice', 'DELETE', '/api/v1/calendar/feed/')).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: newPath })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/calendar/feed/not-a-token.ics' })).statusCode).toBe(400);
  });
});

describe('reminders', () => {
  class CountingMailer implements Mailer {
    readonly mode = 'outbox' as const;
    readonly sent: MailMessage[] = [];
    async send(message: MailMessage) {
      this.sent.push(message);
    }
  }

  it("e-mails each reminder once, in the patient's language, and none for a deleted event", async () => {
    const soon = Date.now() + 10 * 60_000;
    const kept = await create('alice', event({ title: 'Inhaler check', type: 'Reminder', start_time: new Date(soon).toISOString(), end_time: new Date(soon + 600_000).toISOString(), reminder_minutes: 5 }));
    const dropped = await create('alice', event({ title: 'Dropped', type: 'Reminder', start_time: new Date(soon).toISOString(), end_time: new Date(soon + 600_000).toISOString(), reminder_minutes: 5 }));
    await call('alice', 'DELETE', `/api/v1/calendar/events/${dropped.event_id}/`);

    const at = new Date(soon - 4 * 60_000);
    const mailer = new CountingMailer();
    // Several runs at once (as several processes would): each due reminder is taken by one of them.
    const runs = await Promise.all([sendDueReminders(t.db, mailer, at), sendDueReminders(t.db, mailer, at), sendDueReminders(t.db, mailer, at)]);
    const mine = mailer.sent.filter((m) => m.to === people.alice!.email);
    expect(mine.map((m) => m.subject)).toEqual([expect.stringContaining('Reminder: Inhaler check')]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBeGreaterThanOrEqual(1);
    expect(mine[0]!.text).toContain('Inhaler check');
    expect(mailer.sent.some((m) => m.subject.includes('Dropped'))).toBe(false);
    // A later run sends nothing more.
    await sendDueReminders(t.db, mailer, at);
    expect(mailer.sent.filter((m) => m.to === people.alice!.email)).toHaveLength(1);
    expect(kept.reminder_minutes).toBe(5);
  });

  it.runIf(testDbKind() === 'postgres')('sends each reminder once when two server processes share one PostgreSQL', async () => {
    const second = await buildTestApp({ databaseUrl: t.databaseUrl! });
    try {
      const soon = Date.now() + 20 * 60_000;
      for (let i = 0; i < 30; i++) {
        await create('bob', event({ title: `Dose ${i}`, type: 'Medicine', start_time: new Date(soon).toISOString(), end_time: new Date(soon + 60_000).toISOString(), reminder_minutes: 10 }));
      }
      const at = new Date(soon - 9 * 60_000);
      const a = new CountingMailer();
      const b = new CountingMailer();
      // Each process runs several batches at once; batches of 7 make them contend for the same rows.
      await Promise.all([...Array.from({ length: 4 }, () => sendDueReminders(t.db, a, at, 7)), ...Array.from({ length: 4 }, () => sendDueReminders(second.db, b, at, 7))]);
      await Promise.all([sendDueReminders(t.db, a, at), sendDueReminders(second.db, b, at)]);
      const doses = [...a.sent, ...b.sent].filter((m) => m.subject.includes('Dose '));
      expect(doses).toHaveLength(30);
      expect(new Set(doses.map((m) => m.subject)).size).toBe(30);
    } finally {
      await second.close();
    }
  });

  it('extends recurring reminders without doubling them', async () => {
    const start = Date.now() + 2 * 86_400_000;
    const series = await create('bob', event({ title: 'Daily pill', type: 'Medicine', start_time: new Date(start).toISOString(), end_time: new Date(start + 600_000).toISOString(), recurrence: 'FREQ=DAILY', reminder_minutes: 10 }));
    const count = async () => (await t.db.selectFrom('reminders').select('id').where('event_id', '=', series.event_id).execute()).length;
    const first = await count();
    expect(first).toBeGreaterThanOrEqual(10);
    await extendRecurringReminders(t.db);
    await extendRecurringReminders(t.db);
    expect(await count()).toBe(first);
  });
});
