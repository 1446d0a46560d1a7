import { describe, expect, it } from 'vitest';
import { checkCustomExpiry, checkShare, expiryInstant, initialShareValues, latestExpiry, parsePreselection, shareBody, type ShareFormValues } from './share-form';

const NOW = new Date('2026-11-24T10:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const values = (extra: Partial<ShareFormValues> = {}): ShareFormValues => ({
  ...initialShareValues(parsePreselection(new URLSearchParams()), 'en'),
  categories: ['condition'],
  recipientName: 'Dr Eleni Kosta',
  recipientEmail: 'eleni@example.com',
  ...extra,
});

describe('what other pages preselect', () => {
  const parse = (query: string) => parsePreselection(new URLSearchParams(query));

  it('takes a whole category', () => {
    expect(parse('category=lab')).toEqual({ kind: 'records', categories: ['lab'], records: [], documents: [], pickCategory: 'lab' });
  });

  it('takes a record of a category, not the whole category', () => {
    expect(parse('record=12&category=lab')).toEqual({ kind: 'records', categories: [], records: [{ id: 12, category: 'lab' }], documents: [], pickCategory: 'lab' });
  });

  it('takes a document, or documents with none chosen', () => {
    expect(parse('document=5')).toEqual({ kind: 'documents', categories: [], records: [], documents: [5], pickCategory: null });
    expect(parse('kind=documents')).toMatchObject({ kind: 'documents', documents: [] });
  });

  it('leaves out what it does not understand', () => {
    expect(parse('')).toEqual({ kind: 'records', categories: [], records: [], documents: [], pickCategory: null });
    expect(parse('category=nonsense')).toMatchObject({ categories: [], pickCategory: null });
    // A record needs its category; ids are positive integers.
    expect(parse('record=12')).toMatchObject({ records: [] });
    expect(parse('record=-1&category=lab')).toMatchObject({ records: [], categories: ['lab'] });
    expect(parse('record=1e3&category=lab')).toMatchObject({ records: [] });
    expect(parse('document=0')).toMatchObject({ kind: 'records', documents: [] });
    expect(parse('document=99999999999')).toMatchObject({ kind: 'records', documents: [] });
    expect(parse('document=5&document=5&document=6')).toMatchObject({ documents: [5, 6] });
  });
});

describe('the expiry', () => {
  it('counts the presets from now', () => {
    expect(expiryInstant({ expiresIn: '1h', expiresAt: '' }, NOW)).toEqual(new Date(NOW.getTime() + HOUR));
    expect(expiryInstant({ expiresIn: '1d', expiresAt: '' }, NOW)).toEqual(new Date(NOW.getTime() + DAY));
    expect(expiryInstant({ expiresIn: '7d', expiresAt: '' }, NOW)).toEqual(new Date(NOW.getTime() + 7 * DAY));
    expect(expiryInstant({ expiresIn: '30d', expiresAt: '' }, NOW)).toEqual(new Date(NOW.getTime() + 30 * DAY));
  });

  it('is the moment chosen, when one is', () => {
    expect(expiryInstant({ expiresIn: 'custom', expiresAt: '2026-12-01T08:30:00.000Z' }, NOW)).toEqual(new Date('2026-12-01T08:30:00Z'));
    expect(expiryInstant({ expiresIn: 'custom', expiresAt: '' }, NOW)).toBeNull();
    expect(expiryInstant({ expiresIn: 'custom', expiresAt: 'invalid' }, NOW)).toBeNull();
  });

  it('may be chosen in the future, at most 90 days ahead', () => {
    expect(latestExpiry(NOW)).toEqual(new Date(NOW.getTime() + 90 * DAY));
    expect(checkCustomExpiry('', NOW)).toBe('validation:shareExpiryRequired');
    expect(checkCustomExpiry('invalid', NOW)).toBe('sharing:form.expiryInvalid');
    expect(checkCustomExpiry(NOW.toISOString(), NOW)).toBe('validation:shareExpiryPast');
    expect(checkCustomExpiry(new Date(NOW.getTime() - 1).toISOString(), NOW)).toBe('validation:shareExpiryPast');
    expect(checkCustomExpiry(new Date(NOW.getTime() + 60_000).toISOString(), NOW)).toBeNull();
    expect(checkCustomExpiry(latestExpiry(NOW).toISOString(), NOW)).toBeNull();
    expect(checkCustomExpiry(new Date(latestExpiry(NOW).getTime() + 60_000).toISOString(), NOW)).toBe('validation:shareExpiryTooFar');
  });
});

describe('the form’s rules', () => {
  it('accept a complete share', () => {
    expect(checkShare(values(), NOW)).toEqual({});
  });

  it('need something chosen: a category or a record that is not private, or a document', () => {
    expect(checkShare(values({ categories: [] }), NOW)).toEqual({ categories: 'validation:shareNothingChosen' });
    expect(checkShare(values({ categories: [], records: [{ id: 3, category: 'lab' }] }), NOW)).toEqual({});
    expect(checkShare(values({ categories: [], records: [{ id: 3, category: 'lab' }] }), NOW, new Set([3]))).toEqual({ categories: 'validation:shareNothingChosen' });
    expect(checkShare(values({ kind: 'documents' }), NOW)).toEqual({ documents: 'validation:shareNothingChosen' });
    expect(checkShare(values({ kind: 'documents', documents: [4] }), NOW)).toEqual({});
  });

  it('take the insurance cards alone as something chosen, and send them only with records', () => {
    expect(checkShare(values({ categories: [], insurance: true }), NOW)).toEqual({});
    expect(shareBody(values({ categories: [], insurance: true })).insurance).toBe(true);
    expect(shareBody(values({ kind: 'documents', documents: [4], insurance: true })).insurance).toBe(false);
    expect(shareBody(values()).insurance).toBe(false);
  });

  it('need the recipient’s name and e-mail', () => {
    expect(checkShare(values({ recipientName: ' \u200B ', recipientEmail: '' }), NOW)).toEqual({
      recipientName: 'validation:recipientNameRequired',
      recipientEmail: 'validation:emailRequired',
    });
    expect(checkShare(values({ recipientName: '1234', recipientEmail: 'not-an-address' }), NOW)).toEqual({
      recipientName: 'validation:nameNeedsLetter',
      recipientEmail: 'validation:emailInvalid',
    });
  });

  it('check a custom expiry only', () => {
    expect(checkShare(values({ expiresIn: 'custom', expiresAt: '' }), NOW)).toEqual({ expiresAt: 'validation:shareExpiryRequired' });
    expect(checkShare(values({ expiresIn: '30d', expiresAt: 'invalid' }), NOW)).toEqual({});
  });
});

describe('the body sent', () => {
  it('holds what the kind holds, the recipient, the method and the preset', () => {
    expect(shareBody(values({ categories: ['condition', 'lab'], records: [{ id: 3, category: 'allergy' }], documents: [9], message: '  Before Monday  ' }))).toEqual({
      kind: 'records',
      categories: ['condition', 'lab'],
      record_ids: [3],
      document_ids: [],
      insurance: false,
      recipient_name: 'Dr Eleni Kosta',
      recipient_email: 'eleni@example.com',
      method: 'link',
      expires_in: '7d',
      message: 'Before Monday',
      language: 'en',
    });
  });

  it('leaves out records of a category chosen whole, and private ones', () => {
    const body = shareBody(values({ categories: ['lab'], records: [{ id: 3, category: 'lab' }, { id: 4, category: 'allergy' }, { id: 5, category: 'allergy' }] }), new Set([5]));
    expect(body.record_ids).toEqual([4]);
  });

  it('sends documents only for a documents share, and a custom expiry as an instant', () => {
    const body = shareBody(values({ kind: 'documents', documents: [7, 8], records: [{ id: 3, category: 'lab' }], method: 'qr', expiresIn: 'custom', expiresAt: '2026-12-01T08:30:00.000Z', language: 'el' }));
    expect(body).toMatchObject({ kind: 'documents', categories: [], record_ids: [], document_ids: [7, 8], method: 'qr', expires_in: 'custom', expires_at: '2026-12-01T08:30:00.000Z', language: 'el' });
    expect(body).not.toHaveProperty('message');
  });
});
