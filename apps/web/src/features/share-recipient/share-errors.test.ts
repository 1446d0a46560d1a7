import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { contentFailureTarget, failureMessage, failurePage, shareFailure } from './share-errors';

describe('shareFailure', () => {
  it('maps each answer of the public routes', () => {
    expect(shareFailure(new ApiError(404, { detail: 'Not found.' }))).toBe('expired');
    expect(shareFailure(new ApiError(410, { detail: 'x', reason: 'expired' }))).toBe('expired');
    expect(shareFailure(new ApiError(410, { detail: 'x', reason: 'revoked' }))).toBe('revoked');
    expect(shareFailure(new ApiError(410, { detail: 'x', reason: 'locked' }))).toBe('locked');
    expect(shareFailure(new ApiError(410, null))).toBe('expired');
    expect(shareFailure(new ApiError(401, { detail: 'x' }))).toBe('session');
    expect(shareFailure(new ApiError(429, { detail: 'x' }))).toBe('throttled');
    expect(shareFailure(new ApiError(400, { code: ['Wrong code. 4 attempts left.'] }))).toBe('rejected');
    expect(shareFailure(new ApiError(500, null))).toBe('failed');
    expect(shareFailure(new TypeError('Failed to fetch'))).toBe('failed');
  });
});

describe('failurePage', () => {
  it('leads expired and revoked shares to their pages, the revoked QR share to its own', () => {
    expect(failurePage('expired', 'healthbook', 'link')).toBe('/healthbook/share-record-link-expired');
    expect(failurePage('expired', 'healthbook', 'qr')).toBe('/healthbook/share-record-link-expired');
    expect(failurePage('revoked', 'healthbook', 'link')).toBe('/healthbook/share-record-link-revoked');
    expect(failurePage('revoked', 'healthbook', 'qr')).toBe('/healthbook/share-health-record-link-revoked');
    for (const failure of ['locked', 'session', 'throttled', 'rejected', 'failed'] as const) expect(failurePage(failure, 'healthbook', 'link')).toBeNull();
  });
});

describe('failureMessage', () => {
  it("is the server's words, or the fallback", () => {
    expect(failureMessage(new ApiError(400, { code: ['Wrong code. 4 attempts left.'] }), 'Wrong.')).toBe('Wrong code. 4 attempts left.');
    expect(failureMessage(new ApiError(429, { detail: 'Request was throttled.' }), 'Too many.')).toBe('Request was throttled.');
    expect(failureMessage(new ApiError(502, '<html>'), 'Failed.')).toBe('Failed.');
    expect(failureMessage(new TypeError('x'), 'Failed.')).toBe('Failed.');
  });
});

describe('contentFailureTarget', () => {
  const qr = { kind: 'records', method: 'qr' } as const;
  const docs = { kind: 'documents', method: 'link' } as const;
  it('a session that is over: the check again; a share that is over: its page; a file not found or a failure: the page stays', () => {
    expect(contentFailureTarget(new ApiError(401, { detail: 'x' }), 'hb', docs)).toEqual({ to: '/hb/health-vault/health-vault-recipient-verification', verifyAgain: true });
    expect(contentFailureTarget(new ApiError(401, { detail: 'x' }), 'hb', qr)).toEqual({ to: '/hb/health-record/recipient-qr-code-verification', verifyAgain: true });
    expect(contentFailureTarget(new ApiError(410, { detail: 'x', reason: 'revoked' }), 'hb', qr)).toEqual({ to: '/hb/share-health-record-link-revoked', verifyAgain: false });
    expect(contentFailureTarget(new ApiError(410, { detail: 'x', reason: 'expired' }), 'hb', docs)).toEqual({ to: '/hb/share-record-link-expired', verifyAgain: false });
    expect(contentFailureTarget(new ApiError(404, { detail: 'x' }), 'hb', docs)).toBeNull();
    expect(contentFailureTarget(new ApiError(500, null), 'hb', docs)).toBeNull();
    expect(contentFailureTarget(new ApiError(429, { detail: 'x' }), 'hb', docs)).toBeNull();
  });
});
