import type { PatientScope } from '../../modules/patients/patient-scope';
import { DateTime } from 'luxon';
import type { CalendarEventBody } from '@healthbook/shared';
import type { Db } from '../client';
import { orgScope } from '../scope';
import type { Schedule } from '../../modules/appointments/availability';
import { AppointmentsRepository, SlotsRepository } from '../../modules/appointments/appointments.repository';
import { publishSlots } from '../../modules/appointments/providers.service';
import { CalendarRepository } from '../../modules/calendar/calendar.repository';
import { APPOINTMENT_REMINDER_MINUTES } from '@healthbook/shared';
import { REMINDER_HORIZON_DAYS, checkEvent, eventReminders } from '../../modules/calendar/calendar.service';
import { RemindersRepository } from '../../modules/calendar/reminders.repository';

/** The demo clinic's zone. */
export const DEMO_TIMEZONE = 'Europe/Athens';

export interface DemoProvider {
  email: string;
  speciality: string;
  /** The speciality in Greek: both are given, each reader sees theirs. */
  speciality_el: string;
  credentials: string;
  languages: string[];
  biography: string;
  schedule: Schedule;
}

const weekdays = (days: number[], ranges: Array<[string, string]>) => days.flatMap((weekday) => ranges.map(([start, end]) => ({ weekday, start, end })));

export const DEMO_PROVIDERS: DemoProvider[] = [
  {
    email: 'provider@healthbook.example',
    speciality: 'General practice',
    speciality_el: 'Γενική ιατρική',
    credentials: 'MD, MSc in Family Medicine',
    languages: ['Greek', 'English'],
    biography: 'Family doctor with twenty years of practice in Athens. Long-term conditions, prevention and check-ups for the whole family.',
    schedule: { slot_minutes: 30, timezone: DEMO_TIMEZONE, weekly: weekdays([1, 2, 3, 4, 5], [['09:00', '13:00'], ['14:00', '17:00']]), exceptions: [] },
  },
  {
    email: 'cardiology@healthbook.example',
    speciality: 'Cardiology',
    speciality_el: 'Καρδιολογία',
    credentials: 'MD, PhD, FESC',
    languages: ['Greek', 'English', 'French'],
    biography: 'Cardiologist: high blood pressure, palpitations, heart failure follow-up and cardiac rehabilitation.',
    schedule: { slot_minutes: 45, timezone: DEMO_TIMEZONE, weekly: weekdays([2, 4], [['10:00', '16:00']]), exceptions: [] },
  },
];

/** The demo providers' profiles and published slots. */
export async function seedDemoProviders(db: Db, orgId: number, userIds: Map<string, number>, now: Date): Promise<void> {
  for (const p of DEMO_PROVIDERS) {
    const userId = userIds.get(p.email)!;
    await db
      .insertInto('providers')
      .values({
        user_id: userId,
        org_id: orgId,
        speciality: p.speciality,
        speciality_el: p.speciality_el,
        credentials: p.credentials,
        languages: p.languages,
        biography: p.biography,
        slot_minutes: p.schedule.slot_minutes,
        timezone: p.schedule.timezone,
        weekly: JSON.stringify(p.schedule.weekly),
        exceptions: JSON.stringify(p.schedule.exceptions),
      })
      .execute();
    await publishSlots(db, orgId, userId, p.schedule, now);
  }
}

/** Wall-clock time in the demo zone, `days` days from today. */
const at = (today: string, days: number, hour: number, minute = 0) => DateTime.fromISO(today, { zone: DEMO_TIMEZONE }).plus({ days }).set({ hour, minute });

/**
 * The demo patient's calendar: a daily medicine with a reminder, a series of physiotherapy
 * sessions, an exam, and a booked appointment with the general practitioner (the first free
 * slot from three days on), so that the drawer, the calendar and the dashboard show something.
 */
export async function seedDemoCalendar(db: Db, who: { scope: PatientScope; orgId: number; patientId: number; userId: number; providerId: number }, today: string): Promise<void> {
  const events: CalendarEventBody[] = [
    {
      title: 'Levothyroxine 75 mcg',
      description: 'Take on an empty stomach, 30 minutes before breakfast.',
      type: 'Medicine',
      start_time: at(today, 0, 7, 30).toISO()!,
      end_time: at(today, 0, 7, 45).toISO()!,
      recurrence: 'FREQ=DAILY',
      reminder_minutes: 15,
      timezone: DEMO_TIMEZONE,
    },
    {
      title: 'Physiotherapy',
      description: 'Knee strengthening exercises at the clinic.',
      type: 'Excercise',
      start_time: at(today, 1, 18).toISO()!,
      end_time: at(today, 1, 19).toISO()!,
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=12',
      reminder_minutes: 60,
      timezone: DEMO_TIMEZONE,
    },
    {
      title: 'Asthma review: spirometry',
      description: 'Bring the inhaler and the symptom diary.',
      type: 'Exam',
      start_time: at(today, 6, 10).toISO()!,
      end_time: at(today, 6, 10, 45).toISO()!,
      reminder_minutes: 1440,
      timezone: DEMO_TIMEZONE,
    },
  ];
  const calendar = new CalendarRepository(db, who.scope);
  const reminders = new RemindersRepository(db);
  const now = new Date();
  const horizon = new Date(now.getTime() + REMINDER_HORIZON_DAYS * 86_400_000);
  for (const event of events) {
    const row = await calendar.insert(checkEvent(event), who.userId);
    await reminders.add(eventReminders(row, who.userId, now, horizon));
  }

  const from = at(today, 3, 0).toJSDate();
  const [slot] = await new SlotsRepository(db, orgScope(who.orgId)).free(who.providerId, from, at(today, 30, 0).toJSDate(), from);
  if (slot) {
    const id = await new AppointmentsRepository(db, orgScope(who.orgId)).insert({
      patient_id: who.patientId,
      provider_id: who.providerId,
      slot,
      reason_for_visit: 'Follow-up of the thyroid and vitamin D results.',
      booked_by: who.userId,
    });
    const start = new Date(slot.start_time);
    await reminders.add(APPOINTMENT_REMINDER_MINUTES.map((m) => ({ org_id: who.orgId, user_id: who.userId, appointment_id: id, occurrence_start: start, remind_at: new Date(start.getTime() - m * 60_000) })));
  }
}
