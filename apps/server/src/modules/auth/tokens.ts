import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { ACCESS_TOKEN_TTL_S, LIMITED_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S, type AccessLevel } from '@healthbook/shared';

export interface AccessTokenClaims {
  token_type: 'access';
  user_id: number;
  org: number;
  access: AccessLevel;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}
export interface RefreshTokenClaims {
  token_type: 'refresh';
  user_id: number;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}

/**
 * HS256 JWTs. Only HS256 is accepted (an `alg: none` or RS256 token is refused); each kind
 * carries its `token_type`, so a refresh token is never taken as an access token.
 */
export class TokenService {
  private readonly signAccessFull;
  private readonly signAccessLimited;
  private readonly signRefreshToken;
  private readonly verify;

  constructor(secret: string) {
    this.signAccessFull = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_S * 1000 });
    this.signAccessLimited = createSigner({ key: secret, algorithm: 'HS256', expiresIn: LIMITED_TOKEN_TTL_S * 1000 });
    this.signRefreshToken = createSigner({ key: secret, algorithm: 'HS256', expiresIn: REFRESH_TOKEN_TTL_S * 1000 });
    this.verify = createVerifier({ key: secret, algorithms: ['HS256'], cache: 1000 });
  }

  signAccess(claims: { user_id: number; org: number; access: AccessLevel; sid: string }): string {
    const payload = { token_type: 'access', ...claims, jti: randomUUID() };
    return claims.access === 'full' ? this.signAccessFull(payload) : this.signAccessLimited(payload);
  }

  signRefresh(claims: { user_id: number; sid: string; jti: string }): string {
    return this.signRefreshToken({ token_type: 'refresh', ...claims });
  }

  verifyAccess(token: string): AccessTokenClaims | null {
    const claims = this.safeVerify(token);
    return claims?.token_type === 'access' && typeof claims.sid === 'string' ? (claims as unknown as AccessTokenClaims) : null;
  }

  /** With `ignoreExpiry`, for logout: an expired refresh token still names the session to end. */
  verifyRefresh(token: string): RefreshTokenClaims | null {
    const claims = this.safeVerify(token);
    return claims?.token_type === 'refresh' && typeof claims.sid === 'string' ? (claims as unknown as RefreshTokenClaims) : null;
  }

  private safeVerify(token: string): Record<string, unknown> | null {
    try {
      return this.verify(token) as Record<string, unknown>;
    } catch {
      return null;
    }
  }
}
