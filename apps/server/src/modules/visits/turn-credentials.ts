import { createHmac, randomBytes } from 'node:crypto';

/**
 * TURN credentials for a video visit, made from a secret shared with the TURN server (the "TURN
 * REST API" scheme, draft-uberti-behave-turn-rest, which coturn implements with `use-auth-secret`
 * and `static-auth-secret`): the username is "<expiry in Unix seconds>:<label>", the password the
 * base64 HMAC-SHA1 of the username under the secret. The TURN server checks both without asking
 * us, and refuses them once the expiry has passed. The label is opaque (coturn logs usernames):
 * never a name, an e-mail or an id.
 */

/** One entry of RTCConfiguration.iceServers. */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

/** How long credentials stay valid: a visit's length and then some, so a long call can renew its relay. */
export const TURN_CREDENTIAL_TTL_S = 4 * 3600;

export function turnCredential(secret: string, expiresAt: Date, label = randomBytes(9).toString('base64url')): { username: string; credential: string } {
  const username = `${Math.floor(expiresAt.getTime() / 1000)}:${label}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

/**
 * The ICE servers a participant's browser gets: the STUN URLs as they are, the TURN URLs with
 * fresh credentials (none without TURN_SECRET: the TURN URLs are then left out, since a relay
 * would refuse them). Empty: peer to peer on the networks that allow it.
 */
export function iceServers(turn: { urls: readonly string[]; secret: string | undefined }, now: Date = new Date(), ttlS = TURN_CREDENTIAL_TTL_S): { iceServers: IceServer[]; expiresAt: Date | null } {
  const stun = turn.urls.filter((u) => u.startsWith('stun:') || u.startsWith('stuns:'));
  const relays = turn.urls.filter((u) => u.startsWith('turn:') || u.startsWith('turns:'));
  const servers: IceServer[] = stun.length ? [{ urls: stun }] : [];
  if (!relays.length || !turn.secret) return { iceServers: servers, expiresAt: null };
  const expiresAt = new Date(now.getTime() + ttlS * 1000);
  return { iceServers: [...servers, { urls: relays, ...turnCredential(turn.secret, expiresAt) }], expiresAt };
}
