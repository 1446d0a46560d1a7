import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AccessLevel } from '@healthbook/shared';
import { HttpError } from '../lib/http-errors';
import { AuditLog } from '../modules/audit/audit.service';
import { TokenService } from '../modules/auth/tokens';
import { UsersRepository, type SessionUserRecord } from '../modules/users/users.repository';

/** Who is asking: set once per request by requireAuth. */
export interface AuthContext {
  userId: number;
  orgId: number;
  access: AccessLevel;
  roles: string[];
  isSuperadmin: boolean;
  sessionId: string;
  /** The user row as loaded with the session (with organisation and confirmed devices). */
  user: SessionUserRecord;
}

export interface RequireAuthOptions {
  /** 'full' (default): a finished sign-in; 'any': also a sign-in waiting for its second factor. */
  access?: 'full' | 'any';
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    tokens: TokenService;
    audit: AuditLog;
    users: UsersRepository;
    requireAuth(options?: RequireAuthOptions): preHandlerHookHandler;
  }
}

const unauthorized = (key: string) => new HttpError(401, key, {}, { 'WWW-Authenticate': 'Bearer realm="api"' });

/**
 * Authentication runs once per request that asks for it: a valid HS256 access token whose
 * session is live and whose access level is the session's current one (a limited token stops
 * working once its session is upgraded by the second factor).
 */
export default fp<{ jwtSecret: string }>(
  async (app, { jwtSecret }) => {
    app.decorate('tokens', new TokenService(jwtSecret));
    app.decorate('audit', new AuditLog(app.db));
    app.decorate('users', new UsersRepository(app.db));
    app.decorateRequest('auth', null);

    app.decorate('requireAuth', (options: RequireAuthOptions = {}) => {
      const required = options.access ?? 'full';
      return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
        const header = request.headers.authorization;
        if (!header) throw unauthorized('errors:notAuthenticated');
        const [scheme, token] = header.split(' ');
        if (scheme !== 'Bearer' || !token) throw unauthorized('errors:notAuthenticated');
        const claims = app.tokens.verifyAccess(token);
        if (!claims) throw unauthorized('errors:tokenInvalid');
        const user = await app.users.findBySession(claims.sid);
        if (!user || user.id !== claims.user_id || user.session_access !== claims.access) throw unauthorized('errors:sessionEnded');
        if (required === 'full' && claims.access !== 'full') throw new HttpError(403, 'errors:secondFactorRequired');
        request.auth = {
          userId: user.id,
          orgId: user.org_id,
          access: claims.access,
          roles: user.roles,
          isSuperadmin: user.is_superadmin,
          sessionId: claims.sid,
          user,
        };
      };
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
