import { formatDay, formatMoment, translate, zoneOf } from '@healthbook/shared';
import type { Db } from '../db/client';
import { orgScope } from '../db/scope';
import { renderMail } from '../lib/mail-templates';
import type { Mailer } from '../plugins/mail';
import { fullName } from '../modules/appointments/appointments.presenter';
import { AppointmentsRepository } from '../modules/appointments/appointments.repository';
import { REMINDER_HORIZON_DAYS, eventReminders } from '../modules/calendar/calendar.service';
import { CalendarRepository } from '../modules/calendar/calendar.repository';
import { RemindersRepository, type DueReminder } from '../modules/calendar/reminders.repository';
import { mailTarget } from '../modules/users/users.presenter';
import { UsersRepository } from '../modules/users/users.repository';

export interface ReminderRun {
  sent: number;
  skipped: number;
  failed: number;
}

/**
 * Sends the reminders that are due, each once: a batch is claimed with FOR UPDATE SKIP LOCKED
 * (several processes on one PostgreSQL never take the same row), then each is sent and marked.
 * A reminder of a cancelled appointment or of an occurrence that has begun is not sent; a
 * failed send is retried a minute later. A process that stops between sending and marking
 * leaves its claim to expire, and the reminder is sent again: at least once, never twice by
 * two live processes.
 */
export async function sendDueReminders(db: Db, mailer: Mailer, now = new Date(), limit = 50): Promise<ReminderRun> {
  const repo = new RemindersRepository(db);
  const run: ReminderRun = { sent: 0, skipped: 0, failed: 0 };
  for (const reminder of await repo.claimDue(now, limit)) {
    try {
      const message = await reminderMail(db, reminder, now);
      if (!message) {
        await repo.finish(reminder.id, new Date(reminder.occurrence_start) <= now ? 'missed' : 'cancelled');
        run.skipped++;
        continue;
      }
      await mailer.send(message);
      await repo.finish(reminder.id, 'sent');
      run.sent++;
    } catch {
      await repo.retryLater(reminder.id, reminder.attempts);
      run.failed++;
    }
  }
  return run;
}

/** The e-mail of a reminder in its recipient's language, or null when there is nothing to remind of any more. */
async function reminderMail(db: Db, reminder: DueReminder, now: Date) {
  if (new Date(reminder.occurrence_start) <= now) return null;
  const user = await new UsersRepository(db, orgScope(reminder.org_id)).findById(reminder.user_id);
  if (!user || !user.is_active) return null;
  const target = mailTarget(user, 'en');
  const base = { name: target.name, orgName: target.orgName };
  if (reminder.appointment_id !== null) {
    const row = await new AppointmentsRepository(db, orgScope(reminder.org_id)).byId(reminder.appointment_id);
    if (!row || row.status !== 'booked') return null;
    return renderMail('appointmentReminder', target.lang, target.email, {
      ...base,
      provider: fullName(row.provider_first_name, row.provider_last_name),
      when: formatMoment(row.start_time, target.lang, zoneOf(user.settings, row.provider_timezone), { weekday: true }),
      reason: row.reason_for_visit,
    });
  }
  const event = await CalendarRepository.reminderEvent(db, reminder.org_id, reminder.event_id!);
  if (!event) return null;
  return renderMail('eventReminder', target.lang, target.email, {
    ...base,
    title: event.title,
    type: translate(target.lang, `records:eventTypes.${event.type}`),
    // An all-day event is a day of its own zone; a time is told in the recipient's zone (else the event's), named.
    when: event.all_day
      ? formatDay(reminder.occurrence_start, target.lang, event.timezone, { weekday: true })
      : formatMoment(reminder.occurrence_start, target.lang, zoneOf(user.settings, event.timezone), { weekday: true }),
    description: event.description ?? '',
  });
}

/**
 * Extends the reminders of recurring events to the coming REMINDER_HORIZON_DAYS (their first
 * ones are made when the event is saved). Idempotent: a reminder already there is kept.
 */
export async function extendRecurringReminders(db: Db, now = new Date()): Promise<number> {
  const rows = await CalendarRepository.recurringWithReminders(db, now);
  const until = new Date(now.getTime() + REMINDER_HORIZON_DAYS * 86_400_000);
  const reminders = rows.flatMap((row) => eventReminders(row, row.patient_user_id!, now, until));
  await new RemindersRepository(db).add(reminders);
  return reminders.length;
}
