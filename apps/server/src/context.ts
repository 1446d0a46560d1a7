import type { FastifyBaseLogger } from 'fastify';
import type { AccessLevel, Language } from '@healthbook/shared';
import type { OrgScope } from './db/scope';
import type { SessionUserRecord } from './modules/users/users.repository';

/** Who acts: the signed-in user, as authentication found them (once per request). */
export interface Actor {
  readonly userId: number;
  readonly orgId: number;
  readonly access: AccessLevel;
  readonly roles: readonly string[];
  readonly isSuperadmin: boolean;
  readonly sessionId: string;
  /** The user row loaded with the session (organisation and confirmed devices included). */
  readonly user: SessionUserRecord;
}

/**
 * What a service needs to know about whoever asks, built alike from an HTTP request, a
 * WebSocket connection, a scheduled job or the operator CLI: never a FastifyRequest.
 */
export interface ServiceContext {
  readonly actor: Actor | null;
  /** The language of answers and of mail that has no other language to go by. */
  readonly lang: Language;
  /** The client address, for the audit trail (null for jobs and the CLI). */
  readonly ip: string | null;
  readonly log: FastifyBaseLogger;
}

/** A context with a signed-in actor (every route of the authenticated context). */
export interface SignedInContext extends ServiceContext {
  readonly actor: Actor;
  /**
   * The patient whose record the client is viewing (the `X-Patient-Id` header a caring person's
   * app sends): the patient `patients.grant` acts on when a request names none. Absent: the
   * actor's own record. It grants nothing by itself: the policy decides as for `?patient=`.
   */
  readonly viewing?: number | undefined;
}

/** A job or an operator command: nobody signed in, no address. */
export function systemContext(log: FastifyBaseLogger, lang: Language = 'en'): ServiceContext {
  return { actor: null, lang, ip: null, log };
}

/** The scope of the actor's own organisation. */
export const ownScope = (ctx: SignedInContext): OrgScope => ({ orgId: ctx.actor.orgId });
