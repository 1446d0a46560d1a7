// A video visit that can be joined now, for the video visit journeys (video-visit*.spec.ts).
import { expect } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, api, apiLogin, linkParams, mailLink, registeredPatient, uniqueEmail, uniqueName } from './accounts';
import { waitForMail } from './mailbox';

export interface Booked {
  slot: number;
  patient: { email: string; password: string; name: string };
  provider: { email: string; password: string; name: string };
}

/** HH:MM and YYYY-MM-DD of an instant in a zone. */
const wall = (at: Date, timeZone: string) => {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
};

/**
 * A provider of their own (no other journey touches their schedule), speaking `language`, with one
 * 30-minute slot starting at the next minute but one, booked by a new patient: its visit can be
 * joined at once.
 */
export async function appointmentStartingNow(prefix: string, language: 'en' | 'el' = 'en'): Promise<Booked> {
  const admin = await apiLogin(ADMIN, DEMO_PASSWORD);
  const provider = { email: uniqueEmail(`${prefix}-doc`), password: 'Video#Visit2026', first: uniqueName('Iris'), last: 'Videodoc' };
  const invited = await api('/api/v1/admin/people/staff/', { token: admin, body: { first_name: provider.first, last_name: provider.last, email: provider.email, role: 'provider', speciality: 'General practice', language } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const setup = await api('/api/v1/account_setup/', { body: { ...linkParams(mailLink(await waitForMail(provider.email, /choose your password|επιλέξτε συνθηματικό/))), password: provider.password } });
  expect(setup.status, JSON.stringify(setup.body)).toBeLessThan(300);
  const providerToken = await apiLogin(provider.email, provider.password);

  // An exception today, in a zone where its half hour does not cross midnight.
  const start = new Date(Math.ceil((Date.now() + 90_000) / 60_000) * 60_000);
  const end = new Date(start.getTime() + 30 * 60_000);
  const timezone = ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles'].find((tz) => wall(start, tz).day === wall(end, tz).day)!;
  const from = wall(start, timezone);
  const schedule = await api('/api/v1/provider/me/schedule/', {
    method: 'PUT',
    token: providerToken,
    body: { slot_minutes: 30, timezone, weekly: [], exceptions: [{ date: from.day, start: from.time, end: wall(end, timezone).time }] },
  });
  expect(schedule.status, JSON.stringify(schedule.body)).toBe(200);

  const patient = await registeredPatient(prefix);
  const token = await apiLogin(patient.email, patient.password);
  const providers = await api<Array<{ provider_id: number; provider_name: string }>>('/api/v1/provider/list/', { method: 'GET', token });
  const providerId = providers.body.find((p) => p.provider_name === `${provider.first} ${provider.last}`)!.provider_id;
  const free = await api<{ slots: Array<{ availability_det_id: number; start_time: string }> }>(`/api/v1/provider/${providerId}/availability/?start=${from.day}&end=${from.day}&tz=${encodeURIComponent(timezone)}`, { method: 'GET', token });
  const slot = free.body.slots.find((s) => Date.parse(s.start_time) === start.getTime())!;
  const booked = await api('/api/v1/provider/book_appointment/', { token, body: { provider_id: providerId, availability_det_id: slot.availability_det_id, reason_for_visit: 'Rash on the arm' } });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  return {
    slot: slot.availability_det_id,
    patient: { email: patient.email, password: patient.password, name: `${patient.first_name} ${patient.last_name}` },
    provider: { email: provider.email, password: provider.password, name: `${provider.first} ${provider.last}` },
  };
}
