import { describe, expect, it } from 'vitest';
import {
  CLIENT_ID_MAX_LENGTH,
  hexColorSchema,
  isFutureDate,
  isSupportedLanguage,
  isValidEmail,
  normalizeClientId,
  pickLanguage,
  todayIso,
  validateDobNotFuture,
  validateEmailField,
  validatePasswordField,
} from './index';

describe('pickLanguage', () => {
  it.each([
    ['el', 'el'],
    ['el-GR', 'el'],
    ['EL-gr', 'el'],
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['el-GR,el;q=0.9,en-US;q=0.8,en;q=0.7', 'el'],
    ['en-US,el;q=0.9', 'en'],
    // Quality values decide, not the order.
    ['en;q=0.5, el;q=0.8', 'el'],
    ['fr-FR, el;q=0.5, en;q=0.4', 'el'],
    ['de, fr;q=0.9, en;q=0.1, el;q=0.2', 'el'],
    // Same quality: the first one listed wins.
    ['el;q=0.7, en;q=0.7', 'el'],
    ['en;q=0.7, el;q=0.7', 'en'],
    // q=0 means "not this one".
    ['el;q=0, en;q=0.1', 'en'],
    ['el;q=0', 'en'],
    // Whitespace around parts and parameters.
    ['  el-GR ; q=0.9 , en ; q=0.5', 'el'],
  ])('%j -> %s', (header, expected) => {
    expect(pickLanguage(header)).toBe(expected);
  });

  it.each([['fr'], ['de-DE,fr;q=0.9'], ['*'], ['zz-invalid'], [';q=1'], ['el;q=abc']])('falls back to en for %j', (header) => {
    expect(pickLanguage(header)).toBe('en');
  });

  it.each([[''], [undefined], [null]])('answers en for an empty header (%j)', (header) => {
    expect(pickLanguage(header)).toBe('en');
  });
});

describe('isSupportedLanguage', () => {
  it('knows en and el only', () => {
    expect(isSupportedLanguage('en')).toBe(true);
    expect(isSupportedLanguage('el')).toBe(true);
    expect(isSupportedLanguage('el-GR')).toBe(false);
    expect(isSupportedLanguage('fr')).toBe(false);
    expect(isSupportedLanguage(undefined)).toBe(false);
    expect(isSupportedLanguage(1)).toBe(false);
  });
});

describe('normalizeClientId', () => {
  it.each([
    ['healthbook', 'healthbook'],
    ['HealthBook', 'healthbook'],
    ['NORTHWIND', 'northwind'],
    ['acme-clinic_2', 'acme-clinic_2'],
    ['9lives', '9lives'],
    ['a', 'a'],
    ['a'.repeat(CLIENT_ID_MAX_LENGTH), 'a'.repeat(CLIENT_ID_MAX_LENGTH)],
  ])('%s -> %s', (raw, expected) => {
    expect(normalizeClientId(raw)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['too long', 'a'.repeat(CLIENT_ID_MAX_LENGTH + 1)],
    ['a space', 'north wind'],
    ['a leading dash', '-abc'],
    ['a leading underscore', '_abc'],
    ['a slash', 'a/b'],
    ['a dot', 'a.b'],
    ['a percent sign', 'a%20b'],
    ['Greek letters', 'υγεία'],
    ['surrounding spaces', ' healthbook '],
  ])('answers null for %s', (_label, raw) => {
    expect(normalizeClientId(raw)).toBeNull();
  });

  it.each([[undefined], [null]])('answers null for %j', (raw) => {
    expect(normalizeClientId(raw)).toBeNull();
  });
});

describe('isValidEmail', () => {
  it.each(['maria@example.test', 'john.carter+hb@northwind.example', 'a@b.co'])('accepts %s', (v) => {
    expect(isValidEmail(v)).toBe(true);
  });

  it.each(['', 'maria', 'maria@', '@example.test', 'maria@example', 'maria @example.test', 'maria@example.c', `${'a'.repeat(250)}@b.co`])(
    'rejects %j',
    (v) => {
      expect(isValidEmail(v)).toBe(false);
    },
  );
});

describe('sign-in field validation answers true or a locale key', () => {
  it('e-mail', () => {
    expect(validateEmailField('maria@example.test')).toBe(true);
    expect(validateEmailField('  maria@example.test  ')).toBe(true);
    expect(validateEmailField('')).toBe('validation:emailRequired');
    expect(validateEmailField('   ')).toBe('validation:emailRequired');
    expect(validateEmailField('maria')).toBe('validation:emailInvalid');
  });

  it('password', () => {
    expect(validatePasswordField('anything')).toBe(true);
    expect(validatePasswordField('')).toBe('validation:passwordRequired');
  });
});

describe('hexColorSchema', () => {
  it.each(['#0476d9', '#00695C', '#ABCDEF'])('accepts %s', (c) => {
    expect(hexColorSchema.safeParse(c).success).toBe(true);
  });

  it.each(['0476d9', '#fff', '#0476d9ff', 'blue', '#gggggg', ''])('rejects %j with a locale key', (c) => {
    const r = hexColorSchema.safeParse(c);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('validation:colorInvalid');
  });
});

describe('dates of birth are not in the future', () => {
  it('isFutureDate compares YYYY-MM-DD with today (UTC), today itself not counting as future', () => {
    expect(isFutureDate('2024-05-11', '2024-05-10')).toBe(true);
    expect(isFutureDate('2024-05-10', '2024-05-10')).toBe(false);
    expect(isFutureDate('1985-04-23', '2024-05-10')).toBe(false);
    expect(isFutureDate('2025-01-01', '2024-12-31')).toBe(true);
    // A Date is read in UTC: 23:30 in Athens on 10 May is still 10 May in UTC until 03:00.
    expect(isFutureDate('2024-05-11', new Date('2024-05-10T23:30:00Z'))).toBe(true);
    expect(isFutureDate('2024-05-10', new Date('2024-05-10T00:00:00Z'))).toBe(false);
    expect(isFutureDate('9999-12-31')).toBe(true);
    expect(isFutureDate('1900-01-01')).toBe(false);
  });

  it('todayIso is the UTC date', () => {
    expect(todayIso(new Date('2024-02-29T23:59:59Z'))).toBe('2024-02-29');
  });

  it('validateDobNotFuture: required, a real date, then not in the future', () => {
    const today = '2024-05-10';
    expect(validateDobNotFuture('', today)).toBe('validation:dobRequired');
    expect(validateDobNotFuture('13/01/1990', today)).toBe('validation:dobFormat');
    expect(validateDobNotFuture('02/30/1990', today)).toBe('validation:dobFormat');
    expect(validateDobNotFuture('05/11/2024', today)).toBe('validation:dobFuture');
    expect(validateDobNotFuture('2024-05-11', today)).toBe('validation:dobFuture');
    expect(validateDobNotFuture('05/10/2024', today)).toBe(true);
    expect(validateDobNotFuture('04/23/1985', today)).toBe(true);
    expect(validateDobNotFuture('01/01/2099')).toBe('validation:dobFuture');
  });
});
