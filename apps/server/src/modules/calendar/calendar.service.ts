import {
  CALENDAR_MAX_WINDOW_DAYS,
  EVENT_MAX_DURATION_DAYS,
  colorOfType,
  formatRecurrence,
  parseRecurrence,
  translate,
  type CalendarEvent,
  type CalendarEventBody,
  type CalendarItem,
  type CalendarWindowQuery,
  type EventType,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import { VersionedCache } from '../../lib/versioned-cache';
import { appointmentItem } from '../appointments/appointments.presenter';
import { PatientAppointmentsRepository } from '../appointments/appointments.repository';
import type { AuditLog } from '../audit/audit.service';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { assertRoomForEvent, windowBound } from './calendar.limits';
import { CalendarRepository, type CalendarEventRow, type CalendarEventValues } from './calendar.repository';
import { daysInWindow, occurrencesBetween, seriesEnd, windowInstants } from './recurrence';
import { RemindersRepository, type NewReminder } from './reminders.repository';

/** Reminders of recurring events are made this far ahead (the scheduler extends them). */
export const REMINDER_HORIZON_DAYS = 14;

const iso = (value: Date | string) => new Date(value).toISOString();

export function presentEvent(row: CalendarEventRow): CalendarEvent {
  return {
    event_id: row.id,
    title: row.title,
    description: row.description,
    color: row.color as CalendarEvent['color'],
    type: row.type as CalendarEvent['type'],
    start_time: iso(row.start_time),
    end_time: iso(row.end_time),
    all_day: row.all_day,
    is_recurring: row.recurrence !== null,
    recurrence: row.recurrence,
    reminder_minutes: row.reminder_minutes,
    timezone: row.timezone,
    patient_id: row.patient_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function eventItem(row: CalendarEventRow, start: Date, end: Date): CalendarItem {
  return {
    kind: 'event',
    event_id: row.id,
    title: row.title,
    description: row.description,
    color: row.color as CalendarItem['color'],
    type: row.type as CalendarItem['type'],
    start_time: start.toISOString(),
    end_time: end.toISOString(),
    all_day: row.all_day,
    is_recurring: row.recurrence !== null,
    recurrence: row.recurrence,
    reminder_minutes: row.reminder_minutes,
  };
}

/** The occurrences of an event in [from, to): itself, or its series'. */
export function occurrencesOf(row: Pick<CalendarEventRow, 'start_time' | 'end_time' | 'recurrence' | 'timezone'>, from: Date, to: Date): Array<{ start: Date; end: Date }> {
  const start = new Date(row.start_time);
  const end = new Date(row.end_time);
  if (!row.recurrence) return start < to && end > from ? [{ start, end }] : [];
  return occurrencesBetween({ start, end, rule: row.recurrence, timezone: row.timezone }, from, to);
}

/** The reminders of an event's occurrences whose reminder time falls in [from, to). */
export function eventReminders(row: CalendarEventRow, userId: number, from: Date, to: Date): NewReminder[] {
  if (row.reminder_minutes === null) return [];
  const lead = row.reminder_minutes * 60_000;
  return occurrencesOf(row, new Date(from.getTime() + lead), new Date(to.getTime() + lead))
    .map((o) => ({ org_id: row.org_id, user_id: userId, event_id: row.id, occurrence_start: o.start, remind_at: new Date(o.start.getTime() - lead) }))
    .filter((r) => r.remind_at >= from && r.remind_at < to);
}

/**
 * A patient's calendar: events (one-off or recurring, expanded in their own time zone for the
 * window asked) and appointments. Whose calendar and what the actor may do is the patients
 * policy's decision; reads by anyone but the owner are audited. Windows are cached under the
 * patient's data_version, which every change of events or appointments moves on.
 */
export class CalendarService {
  private readonly windows = new VersionedCache({ maxBytes: 32 * 1024 * 1024, sizeOf: (v) => String((v as { json: string }).json).length, ttlMs: 60_000 });

  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly audit: AuditLog,
  ) {}

  private repo(grant: PatientScope, db: Db = this.db) {
    return new CalendarRepository(db, grant);
  }

  /** A window's items as JSON text (serialised once per version of the patient's data, and kept so). */
  async window(ctx: SignedInContext, query: CalendarWindowQuery): Promise<{ json: string; items: number }> {
    if (query.end < query.start) throw new FieldError({ end: ['validation:endBeforeStart'] });
    if (daysInWindow(query.start, query.end) > CALENDAR_MAX_WINDOW_DAYS) throw new FieldError({ end: [{ key: 'validation:windowTooWide', vars: { days: CALENDAR_MAX_WINDOW_DAYS } }] });
    const grant = await this.patients.open(ctx, 'calendar', query.patient);
    const zone = query.tz ?? 'UTC';
    const key = JSON.stringify([grant.patient.id, grant.patient.data_version, query.start, query.end, zone, ctx.lang]);
    const answer = await this.windows.get(key, async () => {
      const { from, to } = windowInstants(query.start, query.end, zone);
      const [events, appointments] = await Promise.all([
        this.repo(grant).inWindow(from, to),
        new PatientAppointmentsRepository(this.db, grant).list({ from, to, status: 'booked' }),
      ]);
      const out: CalendarItem[] = [];
      // At most CALENDAR_WINDOW_MAX_OCCURRENCES, expanded in slices (calendar.limits.ts).
      const bound = windowBound();
      for (const row of events) {
        for (const o of occurrencesOf(row, from, to)) out.push(eventItem(row, o.start, o.end));
        await bound.check(out.length);
      }
      for (const row of appointments) {
        out.push(appointmentItem(row, translate(ctx.lang, 'emails:calendar.appointmentWith', { name: `${row.provider_first_name} ${row.provider_last_name}` })));
      }
      out.sort((a, b) => a.start_time.localeCompare(b.start_time) || a.event_id - b.event_id);
      return { json: JSON.stringify(out), items: out.length };
    });
    await grant.auditRead(ctx, { start: query.start, end: query.end, items: answer.items });
    return answer;
  }

  async get(ctx: SignedInContext, id: number, patientId?: number): Promise<CalendarEvent> {
    const grant = await this.patients.open(ctx, 'calendar', patientId);
    const row = await this.repo(grant).get(id);
    if (!row) throw notFound();
    await grant.auditRead(ctx, { event: id });
    return presentEvent(row);
  }

  async create(ctx: SignedInContext, body: CalendarEventBody, patientId?: number): Promise<CalendarEvent> {
    const grant = await this.patients.open(ctx, 'calendar', patientId, 'write');
    const values = checkEvent(body);
    const row = await this.db.transaction().execute(async (trx) => {
      await assertRoomForEvent(this.repo(grant, trx), values.recurrence !== null);
      const created = await this.repo(grant, trx).insert(values, ctx.actor.userId);
      await this.remind(trx, grant, created);
      return created;
    });
    await this.audit.record(ctx, { action: 'calendar_event_create', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { event: row.id } });
    return presentEvent(row);
  }

  /** Replaces a one-off event. A series is not edited (its occurrences would move under the patient's feet): delete it and make a new one. */
  async update(ctx: SignedInContext, id: number, body: CalendarEventBody, patientId?: number): Promise<CalendarEvent> {
    const grant = await this.patients.open(ctx, 'calendar', patientId, 'write');
    const values = checkEvent(body);
    const row = await this.db.transaction().execute(async (trx) => {
      const repo = this.repo(grant, trx);
      const current = await repo.get(id);
      if (!current) throw notFound();
      if (current.recurrence !== null) throw new HttpError(400, 'errors:recurringEventNotEditable');
      const updated = (await repo.update(id, values))!;
      await new RemindersRepository(trx).removeUnsent(id);
      await this.remind(trx, grant, updated);
      return updated;
    });
    await this.audit.record(ctx, { action: 'calendar_event_update', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { event: id } });
    return presentEvent(row);
  }

  /** Deletes an event, a whole series included; its reminders go with it. */
  async remove(ctx: SignedInContext, id: number, patientId?: number): Promise<void> {
    const grant = await this.patients.open(ctx, 'calendar', patientId, 'write');
    if (!(await this.repo(grant).remove(id))) throw notFound();
    await this.audit.record(ctx, { action: 'calendar_event_delete', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { event: id } });
  }

  /** The event's reminders for the coming REMINDER_HORIZON_DAYS (to the patient's account, when they have one). */
  private async remind(db: Db, grant: PatientScope, row: CalendarEventRow): Promise<void> {
    if (grant.patient.user_id === null) return;
    const now = new Date();
    await new RemindersRepository(db).add(eventReminders(row, grant.patient.user_id, now, new Date(now.getTime() + REMINDER_HORIZON_DAYS * 86_400_000)));
  }
}

/**
 * The rules beyond the JSON types: the end after the start and within EVENT_MAX_DURATION_DAYS,
 * the colour of the type (given or not), the rule in its canonical form, and the end of the
 * series (for the window index).
 */
export function checkEvent(body: CalendarEventBody): CalendarEventValues {
  const start = new Date(body.start_time);
  const end = new Date(body.end_time);
  const errors: Record<string, string[]> = {};
  if (end <= start) errors.end_time = ['validation:endBeforeStart'];
  else if (end.getTime() - start.getTime() > EVENT_MAX_DURATION_DAYS * 86_400_000) errors.end_time = ['validation:eventTooLong'];
  const type = body.type as EventType;
  if (body.color && body.color !== colorOfType(type)) errors.color = ['validation:colorOfType'];
  let recurrence: string | null = null;
  if (body.recurrence) {
    const parsed = parseRecurrence(body.recurrence);
    if (!parsed.ok) errors.recurrence = [`validation:${parsed.problem}`];
    else if (parsed.value.until && parsed.value.until < start) errors.recurrence = ['validation:recurrenceUntil'];
    else recurrence = formatRecurrence(parsed.value);
  }
  if (Object.keys(errors).length) throw new FieldError(errors);
  const timezone = body.timezone ?? 'UTC';
  return {
    title: body.title.trim(),
    description: body.description?.trim() ? body.description.trim() : null,
    type,
    color: colorOfType(type),
    start_time: start,
    end_time: end,
    all_day: body.all_day ?? false,
    recurrence,
    series_end: recurrence ? seriesEnd({ start, end, rule: recurrence, timezone }) : end,
    timezone,
    reminder_minutes: body.reminder_minutes ?? null,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    calendar: CalendarService;
  }
}

export default servicePlugin('calendar', ['db', 'audit-service', 'patients-service'], (app) => new CalendarService(app.db, app.patients, app.audit));
