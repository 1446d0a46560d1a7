import { CHAT_PROVIDER_TYPES, type AuditAction, type ChatProviderType } from '@healthbook/shared';
import type { Actor, ServiceContext } from '../../context';
import type { AuditLog } from '../audit/audit.service';

/** The provider types a staff member serves in the live chat (their roles provider and coach). */
export const chatTypesOf = (actor: Pick<Actor, 'roles'>): ChatProviderType[] => CHAT_PROVIDER_TYPES.filter((t) => actor.roles.includes(t));

/** A provider: a user with the provider role (telehealth appointments). */
export const isProvider = (actor: Pick<Actor, 'roles'>): boolean => actor.roles.includes('provider');

/** What a care-team scope is opened for: a provider's appointments, or a chat staff member's queue and conversations. */
export type CareTeamWork = 'appointments' | 'chat';

type AuditDetail = Record<string, string | number | boolean | null>;

/**
 * The staff side of the one door (patient-scope.ts is the patient side): the patients a provider
 * or a peer coach serves are those of their own caseload, never the organisation's. A provider
 * reaches the appointments booked with them; a chat staff member the queues of the types they
 * serve and the conversations they took. Repositories of that work (ProviderAppointmentsRepository,
 * StaffChatRepository) take this value and filter every query by its staff member; it is made only
 * by the patients policy (PatientsService.openCareTeam), which refuses anyone without the role.
 * Every read of a patient's data through it goes on that patient's trail ("who saw my record").
 */
export class CareTeamScope {
  readonly #minted = true;
  readonly orgId: number;
  readonly staffUserId: number;
  readonly work: CareTeamWork;
  /** The chat queues served (empty for appointments). */
  readonly chatTypes: readonly ChatProviderType[];
  readonly #audit: AuditLog;

  constructor(init: { actor: Pick<Actor, 'orgId' | 'userId' | 'roles'>; work: CareTeamWork; audit: AuditLog }) {
    this.orgId = init.actor.orgId;
    this.staffUserId = init.actor.userId;
    this.work = init.work;
    this.chatTypes = init.work === 'chat' ? chatTypesOf(init.actor) : [];
    this.#audit = init.audit;
  }

  static isScope(value: unknown): value is CareTeamScope {
    return typeof value === 'object' && value !== null && #minted in value;
  }

  /** The chat types of a request, narrowed to those served (one asked for, or all). */
  servedTypes(asked?: ChatProviderType): ChatProviderType[] {
    return asked ? this.chatTypes.filter((t) => t === asked) : [...this.chatTypes];
  }

  /** A read of one patient's data by the staff member, on that patient's trail. */
  auditRead(ctx: ServiceContext, action: AuditAction, patientId: number, detail: AuditDetail = {}): Promise<void> {
    return this.#audit.record(ctx, { action, outcome: 'success', subject: `patient:${patientId}`, detail });
  }

  /** A list that showed several patients' data: one row on each patient's trail, with what of theirs was seen. */
  async auditReads<R extends { patient_id: number }>(ctx: ServiceContext, action: AuditAction, rows: readonly R[], detail: (count: number, first: R) => AuditDetail): Promise<void> {
    const perPatient = new Map<number, { count: number; first: R }>();
    for (const row of rows) {
      const seen = perPatient.get(row.patient_id);
      if (seen) seen.count++;
      else perPatient.set(row.patient_id, { count: 1, first: row });
    }
    await this.#audit.recordMany(
      ctx,
      [...perPatient].map(([patientId, { count, first }]) => ({ action, outcome: 'success' as const, subject: `patient:${patientId}`, detail: detail(count, first) })),
    );
  }
}
