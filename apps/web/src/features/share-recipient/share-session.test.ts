import { afterEach, describe, expect, it } from 'vitest';
import { entryOf, isWellFormedLink, shareSession } from './share-session';

const UID = 'AbCdEf12';
const TOKEN = 'tok_0123456789-abcdefXYZ';

describe('share links', () => {
  it('accepts the uid and token shapes the server accepts, nothing else', () => {
    expect(isWellFormedLink(UID, TOKEN)).toBe(true);
    expect(isWellFormedLink('short', TOKEN)).toBe(false);
    expect(isWellFormedLink(UID, 'too-short')).toBe(false);
    expect(isWellFormedLink(UID, `${TOKEN}%20`)).toBe(false);
    expect(isWellFormedLink(`${UID}.`, TOKEN)).toBe(false);
    expect(isWellFormedLink(undefined, TOKEN)).toBe(false);
    expect(isWellFormedLink(UID, 'x'.repeat(129))).toBe(false);
  });

  it('reads the kind and method from the address segment', () => {
    expect(entryOf('sharedrecords')).toEqual({ kind: 'records', method: 'link' });
    expect(entryOf('shareddocs')).toEqual({ kind: 'documents', method: 'link' });
    expect(entryOf('sharedqrcoderecords')).toEqual({ kind: 'records', method: 'qr' });
    expect(entryOf('sharedrecord')).toBeNull();
    expect(entryOf(undefined)).toBeNull();
  });
});

describe('shareSession', () => {
  afterEach(() => sessionStorage.clear());

  it('keeps the link opened in this tab, then the verified session', () => {
    expect(shareSession.load()).toBeNull();
    shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
    expect(shareSession.load()).toEqual({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
    expect(shareSession.session()).toBeNull();

    shareSession.update({ kind: 'documents', firstName: 'Maria' });
    shareSession.setSession('sess-1', '2099-01-01T00:00:00Z');
    expect(shareSession.session()).toBe('sess-1');
    expect(shareSession.load()).toMatchObject({ kind: 'documents', firstName: 'Maria', session: 'sess-1' });
  });

  it('lives in session storage only', () => {
    shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'qr' });
    shareSession.setSession('sess-1', '2099-01-01T00:00:00Z');
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(1);
  });

  it('forgets a session past its end, and one dropped after a 401', () => {
    shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
    shareSession.setSession('sess-1', '2020-01-01T00:00:00Z');
    expect(shareSession.session(new Date('2025-01-01T00:00:00Z'))).toBeNull();
    shareSession.setSession('sess-2', '2099-01-01T00:00:00Z');
    shareSession.dropSession();
    expect(shareSession.session()).toBeNull();
    expect(shareSession.load()).toMatchObject({ uid: UID, token: TOKEN });
  });

  it('the same link opened again keeps what was learnt; another link replaces it all', () => {
    shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'qr' });
    shareSession.update({ kind: 'documents' });
    shareSession.setSession('sess-1', '2099-01-01T00:00:00Z');
    shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'qr' });
    expect(shareSession.load()).toMatchObject({ kind: 'documents', session: 'sess-1' });

    shareSession.start({ uid: 'Other1234', token: TOKEN, kind: 'records', method: 'link' });
    expect(shareSession.load()).toEqual({ uid: 'Other1234', token: TOKEN, kind: 'records', method: 'link' });
  });

  it('ignores anything else found under its key, and clears', () => {
    sessionStorage.setItem('shareRecipient', '{"uid":1}');
    expect(shareSession.load()).toBeNull();
    sessionStorage.setItem('shareRecipient', 'not json');
    expect(shareSession.load()).toBeNull();
    shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
    shareSession.clear();
    expect(shareSession.load()).toBeNull();
  });
});
