import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TURN_CREDENTIAL_TTL_S, iceServers, turnCredential } from './turn-credentials';

describe('TURN credentials from a shared secret (the TURN REST scheme coturn checks)', () => {
  it('makes "<expiry>:<label>" and the base64 HMAC-SHA1 of it under the secret', () => {
    const { username, credential } = turnCredential('north-wind-secret', new Date('2026-12-01T10:00:00.000Z'), 'abc');
    expect(username).toBe('1796119200:abc');
    // The value coturn computes for the same secret and username (RFC 2104 HMAC-SHA1, base64).
    expect(credential).toBe(createHmac('sha1', 'north-wind-secret').update('1796119200:abc').digest('base64'));
    expect(credential).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });

  it('labels each issue with something opaque and new, never the same twice', () => {
    const a = turnCredential('s', new Date(0)).username.split(':')[1];
    const b = turnCredential('s', new Date(0)).username.split(':')[1];
    expect(a).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(a).not.toBe(b);
  });

  it('gives STUN as it is and TURN with credentials valid for the TTL', () => {
    const now = new Date('2026-12-01T10:00:00.000Z');
    const { iceServers: servers, expiresAt } = iceServers({ urls: ['stun:turn.example:3478', 'turn:turn.example:3478?transport=udp', 'turns:turn.example:5349'], secret: 'x' }, now);
    expect(expiresAt?.getTime()).toBe(now.getTime() + TURN_CREDENTIAL_TTL_S * 1000);
    expect(servers[0]).toEqual({ urls: ['stun:turn.example:3478'] });
    expect(servers[1]?.urls).toEqual(['turn:turn.example:3478?transport=udp', 'turns:turn.example:5349']);
    expect(servers[1]?.username).toMatch(new RegExp(`^${Math.floor(expiresAt!.getTime() / 1000)}:`));
  });

  it('leaves TURN out without a secret, and gives nothing without URLs (peer to peer only)', () => {
    expect(iceServers({ urls: ['turn:turn.example:3478'], secret: undefined })).toEqual({ iceServers: [], expiresAt: null });
    expect(iceServers({ urls: [], secret: 'x' })).toEqual({ iceServers: [], expiresAt: null });
  });
});
