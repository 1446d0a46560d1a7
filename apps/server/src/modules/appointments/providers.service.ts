import { DateTime } from 'luxon';
import {
  AVAILABILITY_HORIZON_DAYS,
  type Provider,
  type ProviderAvailability,
  type ProviderProfileBody,
  type ProviderSchedule,
  type ProviderScheduleBody,
} from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import { windowInstants } from '../calendar/recurrence';
import { presentProvider } from './appointments.presenter';
import { ProvidersRepository, SlotsRepository, type ProviderRow } from './appointments.repository';
import { isProvider } from '../patients/care-team-scope';
import { scheduleProblems, slotsOf, type Schedule } from './availability';

/** The days a window of availability may span. */
const MAX_AVAILABILITY_DAYS = 62;

/**
 * Providers of an organisation: their profiles, the schedule each publishes, and the slots the
 * schedule is cut into, materialised from today to AVAILABILITY_HORIZON_DAYS ahead (the
 * scheduler rolls the horizon on every day).
 */
export class ProvidersService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  private repo(orgId: number, db: Db = this.db) {
    return new ProvidersRepository(db, orgScope(orgId));
  }

  /** The signed-in provider's own row (made on first use); anyone without the provider role: 403. */
  private async own(ctx: SignedInContext): Promise<ProviderRow> {
    if (!isProvider(ctx.actor)) throw new HttpError(403, 'errors:providersOnly');
    const repo = this.repo(ctx.actor.orgId);
    await repo.ensure(ctx.actor.userId);
    const row = await repo.get(ctx.actor.userId);
    if (!row) throw new HttpError(403, 'errors:providersOnly');
    return row;
  }

  async specialities(ctx: SignedInContext): Promise<string[]> {
    return this.repo(ctx.actor.orgId).specialities(ctx.lang);
  }

  async list(ctx: SignedInContext, query: { speciality?: string; date?: string; tz?: string }): Promise<Provider[]> {
    const now = new Date();
    const slots = new SlotsRepository(this.db, orgScope(ctx.actor.orgId));
    const window = query.date ? windowInstants(query.date, query.date, query.tz ?? 'UTC') : undefined;
    const [rows, first, firstInWindow] = await Promise.all([
      this.repo(ctx.actor.orgId).list(query.speciality?.trim() || undefined),
      slots.firstFree(now),
      window ? slots.firstFree(now, window) : Promise.resolve(undefined),
    ]);
    return rows.filter((row) => !firstInWindow || firstInWindow.has(row.user_id)).map((row) => presentProvider(row, first.get(row.user_id)));
  }

  /** A provider of the actor's organisation; anyone else (another organisation's, not a provider): 404. */
  async get(ctx: SignedInContext, providerId: number): Promise<Provider> {
    const row = await this.repo(ctx.actor.orgId).get(providerId);
    if (!row) throw notFound();
    const first = await new SlotsRepository(this.db, orgScope(ctx.actor.orgId)).firstFree(new Date());
    return presentProvider(row, first.get(row.user_id));
  }

  async availability(ctx: SignedInContext, providerId: number, query: { start: string; end: string; tz?: string }): Promise<ProviderAvailability> {
    if (query.end < query.start) throw new FieldError({ end: ['validation:endBeforeStart'] });
    const { from, to } = windowInstants(query.start, query.end, query.tz ?? 'UTC');
    if (to.getTime() - from.getTime() > MAX_AVAILABILITY_DAYS * 86_400_000) throw new FieldError({ end: [{ key: 'validation:windowTooWide', vars: { days: MAX_AVAILABILITY_DAYS } }] });
    const row = await this.repo(ctx.actor.orgId).get(providerId);
    if (!row) throw notFound();
    const slots = await new SlotsRepository(this.db, orgScope(ctx.actor.orgId)).free(providerId, from, to, new Date());
    return {
      provider_id: providerId,
      slots: slots.map((s) => ({ availability_det_id: s.id, start_time: new Date(s.start_time).toISOString(), end_time: new Date(s.end_time).toISOString() })),
    };
  }

  async profile(ctx: SignedInContext): Promise<Provider> {
    const row = await this.own(ctx);
    return presentProvider(row, (await new SlotsRepository(this.db, orgScope(row.org_id)).firstFree(new Date())).get(row.user_id));
  }

  async updateProfile(ctx: SignedInContext, body: ProviderProfileBody): Promise<Provider> {
    await this.own(ctx);
    await this.repo(ctx.actor.orgId).updateProfile(ctx.actor.userId, {
      ...(body.speciality !== undefined ? { speciality: body.speciality?.trim() || null } : {}),
      ...(body.speciality_el !== undefined ? { speciality_el: body.speciality_el?.trim() || null } : {}),
      ...(body.credentials !== undefined ? { credentials: body.credentials?.trim() || null } : {}),
      ...(body.languages !== undefined ? { languages: [...new Set(body.languages.map((l) => l.trim()))] } : {}),
      ...(body.biography !== undefined ? { biography: body.biography?.trim() || null } : {}),
    });
    await this.audit.record(ctx, { action: 'provider_profile_update', outcome: 'success', subject: `user:${ctx.actor.userId}` });
    return this.profile(ctx);
  }

  async schedule(ctx: SignedInContext): Promise<ProviderSchedule> {
    return this.presentSchedule(await this.own(ctx));
  }

  /** Publishes a new schedule: the slots from now to the horizon follow it at once (bookings stand). */
  async saveSchedule(ctx: SignedInContext, body: ProviderScheduleBody): Promise<ProviderSchedule> {
    await this.own(ctx);
    const schedule: Schedule = { slot_minutes: body.slot_minutes, timezone: body.timezone, weekly: body.weekly, exceptions: [...body.exceptions].sort((a, b) => a.date.localeCompare(b.date)) };
    const problems = scheduleProblems(schedule);
    if (Object.keys(problems).length) throw new FieldError(problems);
    await this.db.transaction().execute(async (trx) => {
      await this.repo(ctx.actor.orgId, trx).saveSchedule(ctx.actor.userId, schedule);
      await publishSlots(trx, ctx.actor.orgId, ctx.actor.userId, schedule, new Date());
    });
    await this.audit.record(ctx, { action: 'provider_schedule_update', outcome: 'success', subject: `user:${ctx.actor.userId}`, detail: { ranges: schedule.weekly.length, exceptions: schedule.exceptions.length } });
    return this.schedule(ctx);
  }

  private async presentSchedule(row: ProviderRow): Promise<ProviderSchedule> {
    return {
      slot_minutes: row.slot_minutes,
      timezone: row.timezone,
      weekly: row.weekly,
      exceptions: row.exceptions,
      open_slots: await new SlotsRepository(this.db, orgScope(row.org_id)).countFree(row.user_id, new Date()),
      horizon_days: AVAILABILITY_HORIZON_DAYS,
    };
  }
}

/** Makes a provider's slots from `now` to the horizon those of the schedule (idempotent: the scheduler calls it daily). */
export async function publishSlots(db: Db, orgId: number, providerId: number, schedule: Schedule, now: Date): Promise<void> {
  const today = DateTime.fromJSDate(now, { zone: schedule.timezone });
  const desired = slotsOf(schedule, today.toISODate()!, today.plus({ days: AVAILABILITY_HORIZON_DAYS }).toISODate()!).filter((s) => s.start > now);
  await new SlotsRepository(db, orgScope(orgId)).publish(providerId, desired, now);
}

/** Rolls every provider's slots on to the horizon (the scheduler, once a day and at start). */
export async function rollAllSlots(db: Db, now = new Date()): Promise<number> {
  const providers = await ProvidersRepository.withSchedules(db);
  for (const p of providers) await publishSlots(db, p.org_id, p.user_id, p, now);
  return providers.length;
}

declare module 'fastify' {
  interface FastifyInstance {
    providers: ProvidersService;
  }
}

export default servicePlugin('providers', ['db', 'audit-service'], (app) => new ProvidersService(app.db, app.audit));
