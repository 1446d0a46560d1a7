// On PostgreSQL too (vitest.config.ts): 24 bookings of one slot at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppointmentDetail, CalendarItem, Provider, ProviderAvailability, ProviderSchedule, UserDto } from '@healthbook/shared';
import { sendDueReminders } from '../src/jobs/reminders';
import type { MailMessage, Mailer } from '../src/plugins/mail';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * Telehealth (/api/v1/provider/…, /api/v1/appointments/…): a provider publishes a schedule, a
 * patient books one of its slots (exactly once under a race), either side cancels, both are
 * told with an .ics, reminders go only for what still stands, and nobody else sees or touches
 * an appointment.
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true, perIpLimitFloor: 10_000 });
  const hb = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()) as { id: number };
  const other = await buildOrganization(t.app, { name: 'telehealth-other' });
  people.doctor = await buildUser(t.app, { org: hb, first_name: 'Anna', last_name: 'Doctor', roles: ['professional', 'provider'] });
  people.patient = await buildUser(t.app, { org: hb, first_name: 'Petros', last_name: 'Patient' });
  people.neighbour = await buildUser(t.app, { org: hb });
  people.notProvider = await buildUser(t.app, { org: hb, roles: ['professional'] });
  people.colleague = await buildUser(t.app, { org: hb, first_name: 'Chris', last_name: 'Colleague', roles: ['professional', 'provider'] });
  people.farDoctor = await buildUser(t.app, { org: other, roles: ['provider'] });
  people.stranger = await buildUser(t.app, { org: other });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  const res = await call('doctor', 'PUT', '/api/v1/provider/me/schedule/', schedule);
  expect(res.statusCode, res.body).toBe(200);
  await call('doctor', 'PUT', '/api/v1/provider/me/profile/', { speciality: 'Dermatology', speciality_el: 'Δερματολογία', credentials: 'MD', languages: ['Greek', 'English'], biography: 'Skin.' });
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: string | null, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...(who ? bearer(tokens[who]!) : {}), 'accept-language': lang }, ...(payload ? { payload } : {}) });

// Every day, all day, in UTC: there is always a free slot tomorrow.
const schedule = { slot_minutes: 30, timezone: 'UTC', weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '00:00', end: '23:30' })), exceptions: [] };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function freeSlots(who = 'patient', providerId = people.doctor!.id, start = day(1), end = day(2)) {
  const res = await call(who, 'GET', `/api/v1/provider/${providerId}/availability/?start=${start}&end=${end}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ProviderAvailability).slots;
}

const book = (who: string, slotId: number, providerId = people.doctor!.id, reason = 'Itchy rash') =>
  call(who, 'POST', '/api/v1/provider/book_appointment/', { provider_id: providerId, availability_det_id: slotId, reason_for_visit: reason });

const cancel = (who: string, a: { provider_id: number; availability_det_id: number }, fromProvider = false, notes = 'Cannot come') =>
  call(who, 'POST', '/api/v1/provider/cancel_appointment/', { provider_id: a.provider_id, availability_det_id: a.availability_det_id, cancellation_notes: notes, is_cancel_from_provider: fromProvider });

async function outbox(to: string) {
  await t.app.backgroundMail.drain();
  return t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();
}

describe('providers and their schedule', () => {
  it('publishes slots from the schedule and lists the provider with the next free slot', async () => {
    const mine = (await call('doctor', 'GET', '/api/v1/provider/me/schedule/')).json() as ProviderSchedule;
    expect(mine).toMatchObject({ slot_minutes: 30, timezone: 'UTC', horizon_days: 56 });
    expect(mine.open_slots).toBeGreaterThan(56 * 40);
    const list = (await call('patient', 'GET', '/api/v1/provider/list/?speciality=dermatology')).json() as Provider[];
    expect(list.map((p) => p.provider_id)).toEqual([people.doctor!.id]);
    expect(list[0]).toMatchObject({ provider_name: 'Anna Doctor', speciality: 'Dermatology', speciality_el: 'Δερματολογία', languages: ['Greek', 'English'] });
    expect(new Date(list[0]!.next_available!).getTime()).toBeGreaterThan(Date.now());
    expect((await call('patient', 'GET', '/api/v1/provider/specialities/')).json()).toEqual(expect.arrayContaining(['Dermatology', 'General practice', 'Cardiology']));
    // Given in both languages: found by either wording, and offered in Greek to a Greek reader.
    const greek = (await call('patient', 'GET', `/api/v1/provider/list/?speciality=${encodeURIComponent('δερματολογία')}`)).json() as Provider[];
    expect(greek.map((p) => p.provider_id)).toEqual([people.doctor!.id]);
    const offered = (await call('patient', 'GET', '/api/v1/provider/specialities/', undefined, 'el')).json() as string[];
    expect(offered).toContain('Δερματολογία');
    expect(offered).not.toContain('Dermatology');
    const slots = await freeSlots();
    expect(slots.length).toBeGreaterThan(40);
    expect(slots.every((s) => new Date(s.end_time).getTime() - new Date(s.start_time).getTime() === 30 * 60_000)).toBe(true);
  });

  it('refuses overlapping hours and a range shorter than a slot, by field, and keeps the schedule', async () => {
    const res = await call('doctor', 'PUT', '/api/v1/provider/me/schedule/', {
      ...schedule,
      weekly: [
        { weekday: 1, start: '09:00', end: '12:00' },
        { weekday: 1, start: '11:00', end: '13:00' },
        { weekday: 2, start: '09:00', end: '09:10' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['weekly.1', 'weekly.2']);
    expect((await call('doctor', 'GET', '/api/v1/provider/me/schedule/')).json()).toMatchObject({ weekly: schedule.weekly });
  });

  it('gives the console to providers only, and hides providers of other organisations and users who are not providers', async () => {
    expect((await call('patient', 'GET', '/api/v1/provider/me/schedule/')).statusCode).toBe(403);
    expect((await call('notProvider', 'PUT', '/api/v1/provider/me/schedule/', schedule)).statusCode).toBe(403);
    expect((await call('patient', 'GET', '/api/v1/provider/me/appointments/')).statusCode).toBe(403);
    // Refused at the care-team door, and audited there.
    const refused = await t.db.selectFrom('audit_log').select(['outcome', 'detail']).where('action', '=', 'care_team_access').where('actor_user_id', '=', people.patient!.id).execute();
    expect(refused).toEqual([expect.objectContaining({ outcome: 'denied', detail: { work: 'appointments' } })]);
    expect((await call('patient', 'GET', `/api/v1/provider/${people.notProvider!.id}/`)).statusCode).toBe(404);
    expect((await call('patient', 'GET', `/api/v1/provider/${people.farDoctor!.id}/`)).statusCode).toBe(404);
    expect((await call('stranger', 'GET', `/api/v1/provider/${people.doctor!.id}/`)).statusCode).toBe(404);
    expect((await call('stranger', 'GET', '/api/v1/provider/list/')).json()).toEqual([]);
  });
});

describe('booking', () => {
  it('books a slot, tells both sides with an .ics, lists it for the patient (/me, calendar) and the provider, and cancels it', async () => {
    // A slot more than a day ahead, so that both reminders (a day and an hour before) are still to come.
    const later = () => freeSlots('patient', people.doctor!.id, day(2), day(3));
    const [slot] = await later();
    const res = await book('patient', slot!.availability_det_id);
    expect(res.statusCode, res.body).toBe(201);
    const booked = res.json() as AppointmentDetail;
    expect(booked).toMatchObject({ status: 'booked', provider_name: 'Anna Doctor', patient_name: 'Petros Patient', reason_for_visit: 'Itchy rash', start_time: slot!.start_time });
    expect(booked.appointment_time).toMatch(/^\d{2}:\d{2} (AM|PM)$/);
    // The slot is no longer free.
    expect((await later()).map((s) => s.availability_det_id)).not.toContain(slot!.availability_det_id);

    const me = (await call('patient', 'GET', '/api/v1/me/')).json() as UserDto;
    expect(me.patient_appointment_details).toEqual([
      expect.objectContaining({ availability_det_id: slot!.availability_det_id, provider_id: people.doctor!.id, provider_name: 'Anna Doctor', provider_speciality: 'Dermatology', provider_speciality_el: 'Δερματολογία', appointment_date: booked.appointment_date, appointment_time: booked.appointment_time }),
    ]);
    const items = (await call('patient', 'GET', `/api/v1/calendar/events/?start=${day(0)}&end=${day(4)}`)).json() as CalendarItem[];
    expect(items.filter((i) => i.kind === 'appointment')).toEqual([expect.objectContaining({ event_id: slot!.availability_det_id, color: 'blue', type: 'Appointment', title: 'Appointment with Anna Doctor' })]);
    expect(((await call('doctor', 'GET', '/api/v1/provider/me/appointments/')).json() as AppointmentDetail[]).map((a) => a.appointment_id)).toContain(booked.appointment_id);

    const toPatient = await outbox(people.patient!.email);
    const toDoctor = await outbox(people.doctor!.email);
    expect(toPatient.at(-1)).toMatchObject({ subject: 'Your appointment with Anna Doctor is booked' });
    expect(toDoctor.at(-1)!.subject).toMatch(/^New booking: Petros Patient/);
    const ics = Buffer.from(toPatient.at(-1)!.attachments![0]!.base64, 'base64').toString();
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain(`UID:appointment-${booked.appointment_id}@`);

    // Reminders: one day and one hour before.
    const reminders = await t.db.selectFrom('reminders').selectAll().where('appointment_id', '=', booked.appointment_id).execute();
    expect(reminders.map((r) => new Date(slot!.start_time).getTime() - new Date(r.remind_at).getTime()).sort((a, b) => a - b)).toEqual([3_600_000, 86_400_000]);

    const cancelled = await cancel('patient', booked);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelled_by_provider: false, cancellation_notes: 'Cannot come' });
    expect((await cancel('patient', booked)).statusCode).toBe(409);
    expect(((await call('patient', 'GET', '/api/v1/me/')).json() as UserDto).patient_appointment_details).toEqual([]);
    // The slot is free again, and nothing will remind of what was cancelled.
    expect((await later()).map((s) => s.availability_det_id)).toContain(slot!.availability_det_id);
    const mailer = new CountingMailer();
    await sendDueReminders(t.db, mailer, new Date(Date.now() + 3 * 86_400_000));
    expect(mailer.sent.filter((m) => m.to === people.patient!.email)).toEqual([]);
    const cancelMail = (await outbox(people.patient!.email)).at(-1)!;
    expect(cancelMail.subject).toBe('Your appointment with Anna Doctor is cancelled');
    expect(Buffer.from(cancelMail.attachments![0]!.base64, 'base64').toString()).toContain('METHOD:CANCEL');
  });

  it('lets exactly one of many simultaneous bookings of a slot through; the others get 409', async () => {
    const slot = (await freeSlots())[3]!;
    const contenders = ['patient', 'neighbour', 'doctor', 'notProvider'];
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => book(contenders[i % contenders.length]!, slot.availability_det_id)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c !== 201).every((c) => c === 409)).toBe(true);
    const rows = await t.db.selectFrom('appointments').select('id').where('slot_id', '=', slot.availability_det_id).where('status', '=', 'booked').execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a past slot, an unknown or foreign provider, a slot of another provider, and an empty reason, keeping nothing', async () => {
    const count = async () => (await t.db.selectFrom('appointments').select('id').execute()).length;
    const before = await count();
    const past = await t.db
      .insertInto('availability_slots')
      .values({ org_id: people.doctor!.org_id, provider_id: people.doctor!.id, start_time: new Date(Date.now() - 3_600_000), end_time: new Date(Date.now() - 1_800_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await book('patient', past.id)).statusCode).toBe(400);
    const [slot] = await freeSlots();
    expect((await book('patient', slot!.availability_det_id, people.notProvider!.id)).statusCode).toBe(404);
    expect((await book('patient', slot!.availability_det_id, people.farDoctor!.id)).statusCode).toBe(404);
    expect((await book('stranger', slot!.availability_det_id)).statusCode).toBe(404);
    const gp = (await t.db.selectFrom('users').select('id').where('email', '=', 'provider@healthbook.example').executeTakeFirstOrThrow()).id;
    expect((await book('patient', slot!.availability_det_id, gp)).statusCode).toBe(404);
    const empty = await book('patient', slot!.availability_det_id, people.doctor!.id, '   ');
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json())).toEqual(['reason_for_visit']);
    expect(await count()).toBe(before);
  });

  it("keeps an appointment to its patient and provider: others can neither read nor cancel it; the provider's cancellation says so", async () => {
    const [slot] = await freeSlots('patient', people.doctor!.id, day(2), day(3));
    const booked = (await book('patient', slot!.availability_det_id)).json() as AppointmentDetail;
    // A provider of the same organisation is as much a stranger to it as anyone: the provider side is the care-team scope of the appointment's own provider.
    for (const who of ['neighbour', 'stranger', 'notProvider', 'colleague']) {
      expect((await call(who, 'GET', `/api/v1/appointments/${slot!.availability_det_id}/`)).statusCode).toBe(404);
      expect((await cancel(who, booked)).statusCode).toBe(404);
      expect((await cancel(who, booked, true)).statusCode).toBe(404);
    }
    // The patient cannot cancel "as the provider".
    expect((await cancel('patient', booked, true)).statusCode).toBe(404);
    expect((await call('doctor', 'GET', `/api/v1/appointments/${slot!.availability_det_id}/`)).json()).toMatchObject({ patient_name: 'Petros Patient' });
    const wrongDate = await call('patient', 'POST', '/api/v1/provider/cancel_appointment/', { provider_id: booked.provider_id, availability_det_id: booked.availability_det_id, appointment_date: '2001-01-01' });
    expect(wrongDate.statusCode).toBe(400);
    expect((await call('patient', 'GET', `/api/v1/appointments/${slot!.availability_det_id}/`)).json()).toMatchObject({ status: 'booked' });

    const colleagueConsole = (await call('colleague', 'GET', '/api/v1/provider/me/appointments/')).json() as AppointmentDetail[];
    expect(colleagueConsole.map((a) => a.availability_det_id)).not.toContain(booked.availability_det_id);
    const byDoctor = await cancel('doctor', booked, true, 'Called away to the hospital');
    expect(byDoctor.statusCode, byDoctor.body).toBe(200);
    expect(byDoctor.json()).toMatchObject({ status: 'cancelled', cancelled_by_provider: true });
    const mail = (await outbox(people.patient!.email)).at(-1)!;
    expect(mail.subject).toBe('Anna Doctor cancelled your appointment');
    expect(mail.text_body).toContain('Called away to the hospital');
    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('action', 'in', ['appointment_read', 'appointment_cancel']).where('actor_user_id', '=', people.doctor!.id).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['appointment_read', 'appointment_cancel']));
  });

  it('answers 403 when the organisation turned telehealth off', async () => {
    const stranger = await call('stranger', 'GET', '/api/v1/provider/list/');
    expect(stranger.statusCode).toBe(200);
    const northwind = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'northwind').executeTakeFirstOrThrow()).id;
    const john = await buildUser(t.app, { org: { id: northwind } });
    const token = (await signIn(t.app, { email: john.email, password: john.password, org_id: northwind })).access;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/provider/list/', headers: bearer(token) });
    expect(res.statusCode).toBe(403);
  });
});

class CountingMailer implements Mailer {
  readonly mode = 'outbox' as const;
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
  }
}
