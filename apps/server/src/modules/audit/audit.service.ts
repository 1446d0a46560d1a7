import type { AuditAction } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import { AuditRepository, type AuditOutcome } from './audit.repository';
import { servicePlugin } from '../../lib/service-plugin';

export type { AuditOutcome };

export interface AuditEvent {
  /** One of the declared actions (packages/shared audit.ts): each has a sentence the patient reads. */
  action: AuditAction;
  outcome: AuditOutcome;
  /** Defaults to the context's actor. */
  actorUserId?: number | null;
  /** The organisation whose trail this belongs to; defaults to the actor's. */
  orgId?: number | null;
  /** What the event is about (an account key such as "org:email", "user:12"); never a secret. */
  subject?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

/**
 * The audit trail of security events and health-data access: who, when, from where, what,
 * how it ended. Never passwords, codes or tokens.
 */
export class AuditLog {
  constructor(private readonly db: Db) {}

  /** Writes one event; inside a transaction pass its `trx` so the event commits (or not) with the change. */
  async record(ctx: Pick<ServiceContext, 'actor' | 'ip'>, event: AuditEvent, db: Db = this.db): Promise<void> {
    await this.recordMany(ctx, [event], db);
  }

  /** Several events at once (one statement): a read of many patients' data writes one row on each patient's trail. */
  async recordMany(ctx: Pick<ServiceContext, 'actor' | 'ip'>, events: readonly AuditEvent[], db: Db = this.db): Promise<void> {
    if (events.length === 0) return;
    await new AuditRepository(db).insertMany(
      events.map((event) => ({
        action: event.action,
        outcome: event.outcome,
        actor_user_id: event.actorUserId !== undefined ? event.actorUserId : (ctx.actor?.userId ?? null),
        org_id: event.orgId !== undefined ? event.orgId : (ctx.actor?.orgId ?? null),
        ip: ctx.ip,
        subject: event.subject ?? null,
        detail: event.detail ?? {},
      })),
    );
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    audit: AuditLog;
  }
}

export default servicePlugin('audit', ['db'], (app) => new AuditLog(app.db));
