import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';

export type AuditOutcome = 'success' | 'failure' | 'denied';

export interface AuditEvent {
  action: string;
  outcome: AuditOutcome;
  actorUserId?: number | null;
  orgId?: number | null;
  /** What the event is about (an account key such as "org:email"); never a secret. */
  subject?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

/**
 * The audit trail of security events and health-data access: who, when, from where, what,
 * how it ended. Never passwords, codes or tokens.
 */
export class AuditLog {
  constructor(private readonly db: Db) {}

  async record(request: Pick<FastifyRequest, 'ip' | 'auth'> | null, event: AuditEvent, db: Db = this.db): Promise<void> {
    await db
      .insertInto('audit_log')
      .values({
        action: event.action,
        outcome: event.outcome,
        actor_user_id: event.actorUserId ?? request?.auth?.userId ?? null,
        org_id: event.orgId ?? request?.auth?.orgId ?? null,
        ip: request?.ip ?? null,
        subject: event.subject ?? null,
        detail: JSON.stringify(event.detail ?? {}),
      })
      .execute();
  }

  /** Failures of one action on one subject since a moment, newest first (for throttling). */
  async recentFailures(action: string, subject: string, since: Date, limit: number): Promise<Date[]> {
    const rows = await this.db
      .selectFrom('audit_log')
      .select('at')
      .where('action', '=', action)
      .where('subject', '=', subject)
      .where('outcome', '=', 'failure')
      .where('at', '>', since)
      .orderBy('at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => new Date(r.at));
  }
}
