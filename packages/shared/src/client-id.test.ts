import { describe, expect, it } from 'vitest';
import { CLIENT_ID_PATTERN, RESERVED_CLIENT_IDS, isReservedClientId, normalizeClientId, translate, validateNewClientId } from './index';

describe('validateNewClientId', () => {
  it.each(['acme', 'st-lukes', 'clinic2', 'a', 'north-west-health', 'a1-b2'])('accepts %s', (id) => {
    expect(validateNewClientId(id)).toBe(true);
  });

  it.each([
    ['', 'validation:clientIdRequired'],
    ['Acme', 'validation:clientIdFormat'],
    ['acme_health', 'validation:clientIdFormat'],
    ['-acme', 'validation:clientIdFormat'],
    ['acme-', 'validation:clientIdFormat'],
    ['2care', 'validation:clientIdFormat'],
    ['123', 'validation:clientIdFormat'],
    ['acme health', 'validation:clientIdFormat'],
    [' acme', 'validation:clientIdFormat'],
    ['ακμή', 'validation:clientIdFormat'],
    ['acme.health', 'validation:clientIdFormat'],
    ['a'.repeat(33), 'validation:clientIdLength'],
    ['login', 'validation:clientIdReserved'],
    ['register', 'validation:clientIdReserved'],
    ['api', 'validation:clientIdReserved'],
    ['password', 'validation:clientIdReserved'],
    ['email', 'validation:clientIdReserved'],
    ['logout', 'validation:clientIdReserved'],
    ['dev', 'validation:clientIdReserved'],
    ['assets', 'validation:clientIdReserved'],
    ['code-retrieval', 'validation:clientIdReserved'],
  ])('refuses %j with %s', (id, key) => {
    expect(validateNewClientId(id)).toBe(key);
  });

  it('reserves 404 (the not-found page) even though the pattern already refuses it', () => {
    expect(isReservedClientId('404')).toBe(true);
  });

  it('every id it accepts is also a valid path segment for the router and the server', () => {
    for (const id of ['acme', 'st-lukes', 'z9']) {
      expect(validateNewClientId(id)).toBe(true);
      expect(CLIENT_ID_PATTERN.test(id)).toBe(true);
      expect(normalizeClientId(id)).toBe(id);
    }
  });

  it('the reserved list is lower case, sorted and without duplicates', () => {
    const list = [...RESERVED_CLIENT_IDS];
    expect(list).toEqual([...new Set(list)].sort());
    for (const id of list) expect(id).toBe(id.toLowerCase());
  });

  it('has a message in both languages for each refusal', () => {
    for (const key of ['validation:clientIdRequired', 'validation:clientIdLength', 'validation:clientIdFormat', 'validation:clientIdReserved', 'validation:clientIdTaken']) {
      for (const lang of ['en', 'el'] as const) expect(translate(lang, key)).not.toBe(key.split(':')[1]);
    }
  });
});
