import fp from 'fastify-plugin';
import { PATIENT_HEADER } from '@healthbook/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, ServiceContext, SignedInContext } from '../context';
import { HttpError } from '../lib/http-errors';
import { listenForChanges } from '../db/notifications';
import { SessionCache } from '../modules/auth/session-cache';
import { TokenService } from '../modules/auth/tokens';
import { findSessionUser, type SessionUserRecord } from '../modules/users/users.repository';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, once the authenticated context's hook has run; null elsewhere. */
    actor: Actor | null;
    /** The service context of this request (actor, language, address, logger). */
    readonly ctx: ServiceContext;
    /** The context of a signed-in request; a 401 if nobody is signed in (never, inside the authenticated context). */
    signedIn(): SignedInContext;
  }
  interface FastifyInstance {
    tokens: TokenService;
    /** The authenticated context's onRequest hook: a live session with full access (or limited, where the route allows it). */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** The actor of a live, fully signed-in session (a socket opened with a ticket checks it again while open); null once it ended. */
    sessionActor(sessionId: string, userId: number): Promise<Actor | null>;
    /** Called after a user's (`u<id>`) or an organisation's (`o<id>`) sessions changed (sign-out, password, deactivation), in every process. */
    onSessionsChanged(watch: (payload: string) => void): void;
  }
  interface FastifyContextConfig {
    /** The route also serves a sign-in waiting for its second factor (POST /api/v1/verify/). */
    allowLimited?: boolean;
  }
}

const actorOf = (user: SessionUserRecord, sessionId: string): Actor => ({
  userId: user.id,
  orgId: user.org_id,
  access: user.session_access,
  roles: user.roles,
  isSuperadmin: user.is_superadmin,
  sessionId,
  user,
});

const unauthorized = (key: string) => new HttpError(401, key, {}, { 'WWW-Authenticate': 'Bearer realm="api"' });

/**
 * Authentication: a valid HS256 access token whose session is live and whose access level is
 * the session's current one (a limited token stops working once its session is upgraded by the
 * second factor). Runs once per request, as the authenticated context's onRequest hook. The
 * session and its user come from the session cache, which the database keeps true.
 */
export default fp<{ jwtSecret: string }>(
  async (app, { jwtSecret }) => {
    app.decorate('tokens', new TokenService(jwtSecret));
    const sessions = new SessionCache();
    const watchers = new Set<(payload: string) => void>();
    app.decorate('onSessionsChanged', (watch: (payload: string) => void) => void watchers.add(watch));
    const stopListening = await listenForChanges(app.db, 'healthbook_sessions', {
      message: (payload) => {
        sessions.changed(payload);
        for (const watch of watchers) watch(payload);
      },
      live: (isLive) => sessions.setLive(isLive),
    });
    app.addHook('onClose', stopListening);
    app.decorateRequest('actor', null);
    app.decorateRequest('ctx', {
      getter(this: FastifyRequest): ServiceContext {
        return { actor: this.actor, lang: this.lang, ip: this.ip, log: this.log };
      },
    });
    app.decorateRequest('signedIn', function (this: FastifyRequest): SignedInContext {
      const actor = this.actor;
      if (!actor) throw unauthorized('errors:notAuthenticated');
      return { actor, lang: this.lang, ip: this.ip, log: this.log, viewing: viewingPatient(this.headers[VIEWING_HEADER]) };
    });

    app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
      const header = request.headers.authorization;
      if (!header) throw unauthorized('errors:notAuthenticated');
      const [scheme, token] = header.split(' ');
      if (scheme !== 'Bearer' || !token) throw unauthorized('errors:notAuthenticated');
      const claims = app.tokens.verifyAccess(token);
      if (!claims) throw unauthorized('errors:tokenInvalid');
      const user = await sessions.get(claims.sid, () => findSessionUser(app.db, claims.sid));
      if (!user || user.id !== claims.user_id || user.session_access !== claims.access) throw unauthorized('errors:sessionEnded');
      if (claims.access !== 'full' && !request.routeOptions.config.allowLimited) throw new HttpError(403, 'errors:secondFactorRequired');
      request.actor = actorOf(user, claims.sid);
    });
    app.decorate('sessionActor', async (sessionId: string, userId: number) => {
      const user = await sessions.get(sessionId, () => findSessionUser(app.db, sessionId));
      return user && user.id === userId && user.session_access === 'full' ? actorOf(user, sessionId) : null;
    });
  },
  { name: 'auth', dependencies: ['db', 'i18n'] },
);

/** The header a client sends to act on a record it was let into (see SignedInContext.viewing). */
export const VIEWING_HEADER = PATIENT_HEADER.toLowerCase();

/** Absent: undefined (the actor's own record). Malformed: 0, a patient no one has (404), never silently the actor's own. */
function viewingPatient(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[1-9][0-9]{0,9}$/.test(header)) return 0;
  const id = Number(header);
  return id <= 2147483647 ? id : 0;
}
