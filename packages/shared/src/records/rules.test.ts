import { describe, expect, it } from 'vitest';
import { apiFieldNames, categoryDefinition, CATEGORY_KEYS, RECORD_LIMITS } from './categories';
import type { CategoryDefinition } from './fields';
import { checkRecord, medicalDateOf, type CheckOptions, type RecordValues } from './rules';

const TODAY = '2026-11-23';
const DOB = '1980-06-15';
const CTX = { today: TODAY, dob: DOB };

function category(key: string): CategoryDefinition {
  const definition = categoryDefinition(key);
  if (!definition) throw new Error(`no category ${key}`);
  return definition;
}

const check = (key: string, input: Record<string, unknown>, options: Partial<CheckOptions> = {}) => checkRecord(category(key), input, { ...CTX, ...options });

/** The minimal valid input of each category (its required fields). */
const BASE: Record<string, Record<string, unknown>> = {
  condition: { name: 'Migraine' },
  symptom: { name: 'Headache' },
  medication: { code: 'Ibuprofen' },
  supplement: { code: 'Vitamin D' },
  allergy: { code: 'Penicillin' },
  immunization: { vaccine_name: 'Tetanus' },
  lab: { test: 'Haemoglobin', result: 14 },
  diagnostic: { test: 'Chest X-ray' },
  medicalvisit: { reason: 'Check-up' },
  surgery: { procedure: 'Appendectomy' },
  procedure: { procedure: 'Colonoscopy' },
  socialhistory: { category: 'tobacco' },
  familyhistory: { medical_issue: 'Diabetes', relationship: 'mother' },
  travelhistory: { country: 'GR' },
  biometrics: { measure: 'weight', value: 75 },
};

/** Checks a category's minimal valid input plus `extra`. */
const checkWith = (key: string, extra: Record<string, unknown>, options: Partial<CheckOptions> = {}) => check(key, { ...BASE[key], ...extra }, options);

const err = (key: string, vars?: Record<string, string | number>) => (vars ? [{ key, vars }] : [{ key }]);

describe('the minimal input of every category', () => {
  it('covers every category', () => {
    expect(Object.keys(BASE).sort()).toEqual([...CATEGORY_KEYS].sort());
  });

  it.each(Object.keys(BASE))('%s: valid, with every API field and private in the values', (key) => {
    const { values, errors } = check(key, BASE[key]!, { creating: true });
    expect(errors).toBeNull();
    expect(Object.keys(values).sort()).toEqual([...apiFieldNames(category(key)), 'private'].sort());
    expect(values.private).toBe(false);
  });

  it.each(Object.keys(BASE))('%s: an empty input reports each required field as validation:required', (key) => {
    const definition = category(key);
    const required = definition.fields.filter((f) => f.required).map((f) => f.name);
    expect(required.length).toBeGreaterThan(0);
    const { errors } = check(key, {});
    expect(errors).not.toBeNull();
    for (const name of required) expect(errors![name]).toEqual(err('validation:required'));
    expect(Object.keys(errors!).sort()).toEqual([...required].sort());
  });
});

describe('intensity (condition, symptom): 1 to 10', () => {
  it.each(['condition', 'symptom'])('%s accepts 1 and 10', (key) => {
    expect(checkWith(key, { intensity: 1 })).toMatchObject({ errors: null, values: { intensity: 1 } });
    expect(checkWith(key, { intensity: 10 })).toMatchObject({ errors: null, values: { intensity: 10 } });
  });

  it.each(['condition', 'symptom'])('%s refuses 0 as validation:tooSmall with min', (key) => {
    expect(checkWith(key, { intensity: 0 }).errors).toEqual({ intensity: err('validation:tooSmall', { min: 1 }) });
  });

  it.each(['condition', 'symptom'])('%s refuses 11 as validation:tooBig with max', (key) => {
    expect(checkWith(key, { intensity: 11 }).errors).toEqual({ intensity: err('validation:tooBig', { max: 10 }) });
  });

  it('refuses a negative intensity', () => {
    expect(checkWith('condition', { intensity: -3 }).errors).toEqual({ intensity: err('validation:tooSmall', { min: 1 }) });
  });

  it('refuses 5.5 as validation:notAnInteger (number or string)', () => {
    expect(checkWith('condition', { intensity: 5.5 }).errors).toEqual({ intensity: err('validation:notAnInteger') });
    expect(checkWith('condition', { intensity: '5.5' }).errors).toEqual({ intensity: err('validation:notAnInteger') });
  });

  it('refuses text that is no number as validation:notAnInteger', () => {
    expect(checkWith('condition', { intensity: 'high' }).errors).toEqual({ intensity: err('validation:notAnInteger') });
    expect(checkWith('condition', { intensity: true }).errors).toEqual({ intensity: err('validation:notAnInteger') });
    expect(checkWith('condition', { intensity: Number.NaN }).errors).toEqual({ intensity: err('validation:notAnInteger') });
  });

  it('accepts a number in a string', () => {
    expect(checkWith('condition', { intensity: ' 7 ' })).toMatchObject({ errors: null, values: { intensity: 7 } });
  });

  it('is optional: absent, null and an empty string give null', () => {
    expect(checkWith('condition', {})).toMatchObject({ errors: null, values: { intensity: null } });
    expect(checkWith('condition', { intensity: null })).toMatchObject({ errors: null, values: { intensity: null } });
    expect(checkWith('condition', { intensity: '' })).toMatchObject({ errors: null, values: { intensity: null } });
  });

  it('matches RECORD_LIMITS', () => {
    expect(RECORD_LIMITS.intensity).toEqual({ min: 1, max: 10 });
  });
});

describe('frequency: 1 to 100', () => {
  it.each(['condition', 'symptom', 'medication', 'supplement', 'socialhistory'])('%s', (key) => {
    expect(checkWith(key, { frequency: 1 })).toMatchObject({ errors: null, values: { frequency: 1 } });
    expect(checkWith(key, { frequency: 100 })).toMatchObject({ errors: null, values: { frequency: 100 } });
    expect(checkWith(key, { frequency: 0 }).errors).toEqual({ frequency: err('validation:tooSmall', { min: 1 }) });
    expect(checkWith(key, { frequency: 101 }).errors).toEqual({ frequency: err('validation:tooBig', { max: 100 }) });
    expect(checkWith(key, { frequency: 2.5 }).errors).toEqual({ frequency: err('validation:notAnInteger') });
  });
});

describe('immunization counts: 1 to 100, and the dose not above the series', () => {
  it.each(['dose_number', 'series_doses'])('%s: 1 and 100 accepted, 0 and 101 refused', (field) => {
    expect(checkWith('immunization', { [field]: 1 })).toMatchObject({ errors: null, values: { [field]: 1 } });
    expect(checkWith('immunization', { [field]: 100 })).toMatchObject({ errors: null, values: { [field]: 100 } });
    expect(checkWith('immunization', { [field]: 0 }).errors).toEqual({ [field]: err('validation:tooSmall', { min: 1 }) });
    expect(checkWith('immunization', { [field]: 101 }).errors).toEqual({ [field]: err('validation:tooBig', { max: 100 }) });
    expect(checkWith('immunization', { [field]: 1.5 }).errors).toEqual({ [field]: err('validation:notAnInteger') });
  });

  it('a dose above the series: validation:doseAboveSeries on series_doses', () => {
    expect(checkWith('immunization', { dose_number: 3, series_doses: 2 }).errors).toEqual({ series_doses: err('validation:doseAboveSeries') });
  });

  it('the last dose of a series and an earlier one are fine', () => {
    expect(checkWith('immunization', { dose_number: 3, series_doses: 3 })).toMatchObject({ errors: null, values: { dose_number: 3, series_doses: 3 } });
    expect(checkWith('immunization', { dose_number: 1, series_doses: 3 }).errors).toBeNull();
  });

  it('one count without the other is fine', () => {
    expect(checkWith('immunization', { dose_number: 5 }).errors).toBeNull();
    expect(checkWith('immunization', { series_doses: 5 }).errors).toBeNull();
  });

  it('an invalid count is reported alone, without the cross rule', () => {
    expect(checkWith('immunization', { dose_number: 0, series_doses: 2 }).errors).toEqual({ dose_number: err('validation:tooSmall', { min: 1 }) });
    expect(checkWith('immunization', { dose_number: 3, series_doses: 101 }).errors).toEqual({ series_doses: err('validation:tooBig', { max: 100 }) });
  });

  it('compares numbers, not strings ("10" is above "9")', () => {
    expect(checkWith('immunization', { dose_number: '9', series_doses: '10' }).errors).toBeNull();
    expect(checkWith('immunization', { dose_number: '10', series_doses: '9' }).errors).toEqual({ series_doses: err('validation:doseAboveSeries') });
  });
});

describe('ages: 1 to 120', () => {
  it('family history age_of_presentation', () => {
    expect(checkWith('familyhistory', { age_of_presentation: 1 })).toMatchObject({ errors: null, values: { age_of_presentation: 1 } });
    expect(checkWith('familyhistory', { age_of_presentation: 120 })).toMatchObject({ errors: null, values: { age_of_presentation: 120 } });
    expect(checkWith('familyhistory', { age_of_presentation: 0 }).errors).toEqual({ age_of_presentation: err('validation:tooSmall', { min: 1 }) });
    expect(checkWith('familyhistory', { age_of_presentation: 121 }).errors).toEqual({ age_of_presentation: err('validation:tooBig', { max: 120 }) });
  });

  it.each(['start_age', 'end_age'])('social history %s', (field) => {
    expect(checkWith('socialhistory', { [field]: 1 })).toMatchObject({ errors: null, values: { [field]: 1 } });
    expect(checkWith('socialhistory', { [field]: 120 })).toMatchObject({ errors: null, values: { [field]: 120 } });
    expect(checkWith('socialhistory', { [field]: 0 }).errors).toEqual({ [field]: err('validation:tooSmall', { min: 1 }) });
    expect(checkWith('socialhistory', { [field]: 121 }).errors).toEqual({ [field]: err('validation:tooBig', { max: 120 }) });
    expect(checkWith('socialhistory', { [field]: 30.5 }).errors).toEqual({ [field]: err('validation:notAnInteger') });
  });

  it('social history: an end age below the start age is validation:endAgeBeforeStartAge on end_age', () => {
    expect(checkWith('socialhistory', { start_age: 40, end_age: 30 }).errors).toEqual({ end_age: err('validation:endAgeBeforeStartAge') });
  });

  it('social history: the same age, a later end, or one side only are fine', () => {
    expect(checkWith('socialhistory', { start_age: 40, end_age: 40 }).errors).toBeNull();
    expect(checkWith('socialhistory', { start_age: 18, end_age: 40 }).errors).toBeNull();
    expect(checkWith('socialhistory', { end_age: 40 }).errors).toBeNull();
    expect(checkWith('socialhistory', { start_age: 40 }).errors).toBeNull();
  });
});

describe('lab result: a required number', () => {
  it('refuses "abc" as validation:notANumber', () => {
    expect(check('lab', { test: 'Glucose', result: 'abc' }).errors).toEqual({ result: err('validation:notANumber') });
  });

  it('accepts "5.4" as 5.4, a comma decimal too', () => {
    expect(check('lab', { test: 'Glucose', result: '5.4' })).toMatchObject({ errors: null, values: { result: 5.4 } });
    expect(check('lab', { test: 'Glucose', result: '5,4' })).toMatchObject({ errors: null, values: { result: 5.4 } });
    expect(check('lab', { test: 'Glucose', result: 5.4 })).toMatchObject({ errors: null, values: { result: 5.4 } });
  });

  it('accepts zero, negatives and fractions (not an integer field), rounded to 4 decimals', () => {
    expect(check('lab', { test: 'Base excess', result: -2 })).toMatchObject({ errors: null, values: { result: -2 } });
    expect(check('lab', { test: 'Base excess', result: 0 })).toMatchObject({ errors: null, values: { result: 0 } });
    expect(check('lab', { test: 'TSH', result: '1.23456' })).toMatchObject({ errors: null, values: { result: 1.2346 } });
  });

  it('is required: absent, null or empty', () => {
    expect(check('lab', { test: 'Glucose' }).errors).toEqual({ result: err('validation:required') });
    expect(check('lab', { test: 'Glucose', result: null }).errors).toEqual({ result: err('validation:required') });
    expect(check('lab', { test: 'Glucose', result: '  ' }).errors).toEqual({ result: err('validation:required') });
  });

  it('refuses values beyond its range', () => {
    expect(check('lab', { test: 'Glucose', result: 2_000_000 }).errors).toEqual({ result: err('validation:tooBig', { max: 1_000_000 }) });
    expect(check('lab', { test: 'Glucose', result: -2_000_000 }).errors).toEqual({ result: err('validation:tooSmall', { min: -1_000_000 }) });
  });

  it('a diagnostic (imaging) result is free text', () => {
    expect(check('diagnostic', { test: 'MRI', result: 'abc' })).toMatchObject({ errors: null, values: { result: 'abc' } });
    expect(check('diagnostic', { test: 'MRI' })).toMatchObject({ errors: null, values: { result: null } });
  });
});

describe('other numbers', () => {
  it('medication dosage keeps 3 decimals within 0.001 to 100000', () => {
    expect(checkWith('medication', { dosage: '12.5' })).toMatchObject({ errors: null, values: { dosage: 12.5 } });
    expect(checkWith('medication', { dosage: 0.12345 })).toMatchObject({ errors: null, values: { dosage: 0.123 } });
    expect(checkWith('medication', { dosage: 0 }).errors).toEqual({ dosage: err('validation:tooSmall', { min: 0.001 }) });
    expect(checkWith('medication', { dosage: 100_001 }).errors).toEqual({ dosage: err('validation:tooBig', { max: 100_000 }) });
  });
});

describe('choices', () => {
  it('accepts a value of the list', () => {
    expect(checkWith('condition', { verification_status: 'confirmed', interval: 'week' })).toMatchObject({
      errors: null,
      values: { verification_status: 'confirmed', interval: 'week' },
    });
  });

  it('refuses an unknown value as validation:invalidChoice with vars.value', () => {
    expect(checkWith('condition', { verification_status: 'maybe' }).errors).toEqual({ verification_status: err('validation:invalidChoice', { value: 'maybe' }) });
  });

  it('is case-sensitive', () => {
    expect(checkWith('condition', { interval: 'Week' }).errors).toEqual({ interval: err('validation:invalidChoice', { value: 'Week' }) });
  });

  it("refuses a value of another list (allergy's verification list is not the condition's)", () => {
    expect(checkWith('condition', { verification_status: 'provisional' }).errors).toBeNull();
    expect(checkWith('allergy', { verification_status: 'provisional' }).errors).toEqual({ verification_status: err('validation:invalidChoice', { value: 'provisional' }) });
  });

  it('refuses a non-string with its text in vars.value', () => {
    expect(checkWith('condition', { interval: 5 }).errors).toEqual({ interval: err('validation:invalidChoice', { value: '5' }) });
  });

  it('cuts a long value in vars.value to 50 characters', () => {
    const { errors } = checkWith('condition', { interval: 'x'.repeat(80) });
    expect(errors).toEqual({ interval: err('validation:invalidChoice', { value: 'x'.repeat(50) }) });
  });

  it('null and empty give null; a required choice is then validation:required', () => {
    expect(checkWith('condition', { interval: '' })).toMatchObject({ errors: null, values: { interval: null } });
    expect(check('socialhistory', { category: '' }).errors).toEqual({ category: err('validation:required') });
    expect(check('familyhistory', { medical_issue: 'Diabetes', relationship: null }).errors).toEqual({ relationship: err('validation:required') });
  });

  it('an invalid required choice is reported as invalid, not also as required', () => {
    expect(check('socialhistory', { category: 'gaming' }).errors).toEqual({ category: err('validation:invalidChoice', { value: 'gaming' }) });
  });
});

describe('countries', () => {
  it('upper-cases a lower-case code', () => {
    expect(check('travelhistory', { country: 'gr' })).toMatchObject({ errors: null, values: { country: 'GR' } });
    expect(check('travelhistory', { country: ' it ' })).toMatchObject({ errors: null, values: { country: 'IT' } });
  });

  it('refuses an unknown code as validation:invalidChoice', () => {
    expect(check('travelhistory', { country: 'XX' }).errors).toEqual({ country: err('validation:invalidChoice', { value: 'XX' }) });
    expect(check('travelhistory', { country: 'GRC' }).errors).toEqual({ country: err('validation:invalidChoice', { value: 'GRC' }) });
    expect(check('travelhistory', { country: 'Greece' }).errors).toEqual({ country: err('validation:invalidChoice', { value: 'Greece' }) });
    expect(check('travelhistory', { country: 30 }).errors).toEqual({ country: err('validation:invalidChoice', { value: '30' }) });
  });

  it('is required', () => {
    expect(check('travelhistory', {}).errors).toEqual({ country: err('validation:required') });
    expect(check('travelhistory', { country: '' }).errors).toEqual({ country: err('validation:required') });
  });
});

describe('text', () => {
  it('trims', () => {
    expect(check('condition', { name: '  Migraine \t' })).toMatchObject({ errors: null, values: { name: 'Migraine' } });
  });

  it('removes invisible characters and normalises to NFC', () => {
    expect(check('condition', { name: 'Mig\u200Braine' }).values.name).toBe('Migraine');
    expect(check('condition', { name: 'Cafe\u0301' }).values.name).toBe('Caf\u00e9');
  });

  it('an empty text is null: an optional one is fine, a required one is validation:required', () => {
    expect(checkWith('surgery', { hospital_doctor: '   ' })).toMatchObject({ errors: null, values: { hospital_doctor: null } });
    expect(check('condition', { name: '   ' }).errors).toEqual({ name: err('validation:required') });
    expect(check('condition', { name: '\u200B' }).errors).toEqual({ name: err('validation:required') });
    expect(check('condition', { name: null }).errors).toEqual({ name: err('validation:required') });
  });

  it('keeps Greek text', () => {
    expect(check('condition', { name: 'Ημικρανία' }).values.name).toBe('Ημικρανία');
  });

  it('accepts the maximum length (after trimming) and refuses one more as validation:tooLong with max', () => {
    expect(check('condition', { name: 'a'.repeat(200) }).errors).toBeNull();
    expect(check('condition', { name: ` ${'a'.repeat(200)} ` }).errors).toBeNull();
    expect(check('condition', { name: 'a'.repeat(201) }).errors).toEqual({ name: err('validation:tooLong', { max: 200 }) });
    expect(checkWith('medication', { stop_reason: 'a'.repeat(501) }).errors).toEqual({ stop_reason: err('validation:tooLong', { max: 500 }) });
  });

  it('refuses a newline or a tab inside a single-line field as validation:textControlCharacters', () => {
    expect(check('condition', { name: 'Mig\nraine' }).errors).toEqual({ name: err('validation:textControlCharacters') });
    expect(check('condition', { name: 'Mig\traine' }).errors).toEqual({ name: err('validation:textControlCharacters') });
    expect(check('condition', { name: 'Mig\u0000raine' }).errors).toEqual({ name: err('validation:textControlCharacters') });
  });

  it('allows newlines in a note, normalised to \\n and trimmed', () => {
    expect(checkWith('condition', { note: '  line 1\r\nline 2\rline 3\n\n' })).toMatchObject({ errors: null, values: { note: 'line 1\nline 2\nline 3' } });
  });

  it('allows newlines in the other multi-line fields', () => {
    expect(checkWith('medicalvisit', { findings: 'a\nb' })).toMatchObject({ errors: null, values: { findings: 'a\nb' } });
    expect(checkWith('surgery', { complications: 'a\nb' })).toMatchObject({ errors: null, values: { complications: 'a\nb' } });
  });

  it('a note is limited to 4000 characters', () => {
    expect(checkWith('condition', { note: 'a'.repeat(4000) }).errors).toBeNull();
    expect(checkWith('condition', { note: 'a'.repeat(4001) }).errors).toEqual({ note: err('validation:tooLong', { max: 4000 }) });
  });

  it('an empty note is null', () => {
    expect(checkWith('condition', { note: ' \n ' })).toMatchObject({ errors: null, values: { note: null } });
  });

  it('refuses a non-string as validation:notAString', () => {
    expect(check('condition', { name: 42 }).errors).toEqual({ name: err('validation:notAString') });
    expect(checkWith('condition', { note: ['a'] }).errors).toEqual({ note: err('validation:notAString') });
  });
});

describe('booleans and private', () => {
  it('private defaults to false', () => {
    expect(check('condition', { name: 'Migraine' }).values.private).toBe(false);
    expect(check('condition', { name: 'Migraine', private: null }).values.private).toBe(false);
  });

  it.each([
    [true, true],
    ['true', true],
    [1, true],
    ['1', true],
    [false, false],
    ['false', false],
    [0, false],
    ['0', false],
  ])('private %j is %j', (raw, expected) => {
    expect(check('condition', { name: 'Migraine', private: raw })).toMatchObject({ errors: null, values: { private: expected } });
  });

  it('private refuses "maybe" as validation:notABoolean', () => {
    const { values, errors } = check('condition', { name: 'Migraine', private: 'maybe' });
    expect(errors).toEqual({ private: err('validation:notABoolean') });
    expect(values).not.toHaveProperty('private');
  });

  it("a category's boolean defaults to false and refuses other values", () => {
    expect(checkWith('condition', {}).values.verified).toBe(false);
    expect(checkWith('condition', { verified: 'true' }).values.verified).toBe(true);
    expect(checkWith('condition', { verified: 'yes' }).errors).toEqual({ verified: err('validation:notABoolean') });
    expect(checkWith('condition', { verified: 2 }).errors).toEqual({ verified: err('validation:notABoolean') });
  });
});

describe('medical dates (<field> and <field>_part)', () => {
  it('a date without a part is a day', () => {
    const { values, errors } = checkWith('condition', { start_date: '2019-05-14' });
    expect(errors).toBeNull();
    expect(values).toMatchObject({ start_date: '2019-05-14', start_date_part: 'day' });
  });

  it("part 'day' keeps the date", () => {
    expect(checkWith('condition', { start_date: '2019-05-14', start_date_part: 'day' }).values).toMatchObject({ start_date: '2019-05-14', start_date_part: 'day' });
  });

  it("part 'month' normalises the day to 01", () => {
    expect(checkWith('condition', { start_date: '2019-05-14', start_date_part: 'month' })).toMatchObject({
      errors: null,
      values: { start_date: '2019-05-01', start_date_part: 'month' },
    });
  });

  it("part 'year' normalises to -01-01", () => {
    expect(checkWith('condition', { start_date: '2019-05-14', start_date_part: 'year' })).toMatchObject({
      errors: null,
      values: { start_date: '2019-01-01', start_date_part: 'year' },
    });
  });

  it("part 'past' without a date", () => {
    expect(checkWith('condition', { start_date: null, start_date_part: 'past' })).toMatchObject({ errors: null, values: { start_date: null, start_date_part: 'past' } });
    expect(checkWith('condition', { start_date: '', start_date_part: 'past' })).toMatchObject({ errors: null, values: { start_date: null, start_date_part: 'past' } });
    expect(checkWith('condition', { start_date_part: 'past' })).toMatchObject({ errors: null, values: { start_date: null, start_date_part: 'past' } });
  });

  it("part 'past' with a date is refused as validation:invalid-date", () => {
    expect(checkWith('condition', { start_date: '2019-05-14', start_date_part: 'past' }).errors).toEqual({ start_date: err('validation:invalid-date') });
  });

  it('no date and no part: both null', () => {
    expect(checkWith('condition', {})).toMatchObject({ errors: null, values: { start_date: null, start_date_part: null, end_date: null, end_date_part: null } });
    expect(checkWith('condition', { start_date: '', start_date_part: '' })).toMatchObject({ errors: null, values: { start_date: null, start_date_part: null } });
  });

  it('a day, month or year part without a date is refused', () => {
    for (const part of ['day', 'month', 'year']) {
      expect(checkWith('condition', { start_date_part: part }).errors).toEqual({ start_date: err('validation:invalid-date') });
    }
  });

  it('an unknown part is validation:invalidChoice on <field>_part', () => {
    expect(checkWith('condition', { start_date: '2019-05-14', start_date_part: 'week' }).errors).toEqual({
      start_date_part: err('validation:invalidChoice', { value: 'week' }),
    });
  });

  it.each(['2019-02-30', '2019-13-01', '14/05/2019', '2019-5-14', 'yesterday', '2019-05-14T10:00:00Z'])('an invalid date %j is validation:invalid-date', (date) => {
    expect(checkWith('condition', { start_date: date }).errors).toEqual({ start_date: err('validation:invalid-date') });
  });

  it('a non-string date is validation:invalid-date', () => {
    expect(checkWith('condition', { start_date: 20190514 }).errors).toEqual({ start_date: err('validation:invalid-date') });
  });

  it('29 February only in a leap year', () => {
    expect(checkWith('condition', { start_date: '2024-02-29' }).errors).toBeNull();
    expect(checkWith('condition', { start_date: '2023-02-29' }).errors).toEqual({ start_date: err('validation:invalid-date') });
  });

  describe('not after today, at the precision of the value', () => {
    it('today is fine, tomorrow is validation:date-in-future', () => {
      expect(checkWith('condition', { start_date: TODAY }).errors).toBeNull();
      expect(checkWith('condition', { start_date: '2026-11-24' }).errors).toEqual({ start_date: err('validation:date-in-future') });
    });

    it('a later day of this month as a month is fine; next month is in the future', () => {
      expect(checkWith('condition', { start_date: '2026-11-30', start_date_part: 'month' })).toMatchObject({ errors: null, values: { start_date: '2026-11-01' } });
      expect(checkWith('condition', { start_date: '2026-12-01', start_date_part: 'month' }).errors).toEqual({ start_date: err('validation:date-in-future') });
    });

    it('this year as a year is fine; next year is in the future', () => {
      expect(checkWith('condition', { start_date: '2026-12-31', start_date_part: 'year' })).toMatchObject({ errors: null, values: { start_date: '2026-01-01' } });
      expect(checkWith('condition', { start_date: '2027-01-01', start_date_part: 'year' }).errors).toEqual({ start_date: err('validation:date-in-future') });
    });
  });

  describe('not before the date of birth, at the precision of the value', () => {
    it('the day before birth is validation:date-before-birthday; the birth day is fine', () => {
      expect(checkWith('condition', { start_date: '1980-06-14' }).errors).toEqual({ start_date: err('validation:date-before-birthday') });
      expect(checkWith('condition', { start_date: DOB }).errors).toBeNull();
    });

    it('the birth month as a month is fine; the month before is refused', () => {
      expect(checkWith('condition', { start_date: '1980-06-01', start_date_part: 'month' }).errors).toBeNull();
      expect(checkWith('condition', { start_date: '1980-05-31', start_date_part: 'month' }).errors).toEqual({ start_date: err('validation:date-before-birthday') });
    });

    it('the birth year as a year is fine; the year before is refused', () => {
      expect(checkWith('condition', { start_date: '1980-02-02', start_date_part: 'year' })).toMatchObject({ errors: null, values: { start_date: '1980-01-01' } });
      expect(checkWith('condition', { start_date: '1979-12-31', start_date_part: 'year' }).errors).toEqual({ start_date: err('validation:date-before-birthday') });
    });

    it('without a date of birth an early date is fine', () => {
      expect(checkWith('condition', { start_date: '1915-01-01' }, { dob: null }).errors).toBeNull();
      expect(checkRecord(category('condition'), { name: 'x', start_date: '1915-01-01' }, { today: TODAY }).errors).toBeNull();
    });
  });

  describe('end-before-start', () => {
    it('an end day before the start day: validation:end-before-start on end_date', () => {
      expect(checkWith('condition', { start_date: '2019-05-14', end_date: '2019-05-13' }).errors).toEqual({ end_date: err('validation:end-before-start') });
    });

    it('the same day, or a later one, is fine', () => {
      expect(checkWith('condition', { start_date: '2019-05-14', end_date: '2019-05-14' }).errors).toBeNull();
      expect(checkWith('condition', { start_date: '2019-05-14', end_date: '2020-01-01' }).errors).toBeNull();
    });

    it('compares at the coarser precision: end "2019" vs start "May 2019" is fine', () => {
      expect(checkWith('condition', { start_date: '2019-05-01', start_date_part: 'month', end_date: '2019-01-01', end_date_part: 'year' }).errors).toBeNull();
    });

    it('end "April 2019" vs start "14 May 2019" is before', () => {
      expect(checkWith('condition', { start_date: '2019-05-14', end_date: '2019-04-01', end_date_part: 'month' }).errors).toEqual({ end_date: err('validation:end-before-start') });
    });

    it('past or no date on either side never compares', () => {
      expect(checkWith('condition', { start_date_part: 'past', end_date: '2019-04-01' }).errors).toBeNull();
      expect(checkWith('condition', { start_date: '2019-05-14', end_date_part: 'past' }).errors).toBeNull();
      expect(checkWith('condition', { end_date: '2019-04-01' }).errors).toBeNull();
    });

    it('is not reported when a date has its own error', () => {
      expect(checkWith('condition', { start_date: '2026-12-01', end_date: '2019-04-01' }).errors).toEqual({ start_date: err('validation:date-in-future') });
      expect(checkWith('condition', { start_date: '2019-05-14', end_date: '1970-01-01' }).errors).toEqual({ end_date: err('validation:date-before-birthday') });
    });

    it('applies to symptoms, travel (start/end) and allergies (onset/last occurrence)', () => {
      expect(checkWith('symptom', { start_date: '2019-05-14', end_date: '2019-05-13' }).errors).toEqual({ end_date: err('validation:end-before-start') });
      expect(checkWith('travelhistory', { start_date: '2019-05-14', end_date: '2019-05-13' }).errors).toEqual({ end_date: err('validation:end-before-start') });
      expect(checkWith('allergy', { onset_date: '2019-05-14', last_occurrence: '2019-01-01', last_occurrence_part: 'month' }).errors).toEqual({
        last_occurrence: err('validation:end-before-start'),
      });
      expect(checkWith('allergy', { onset_date: '2019-05-14', last_occurrence: '2019-06-01' }).errors).toBeNull();
    });
  });

  it('medicalDateOf reads a stored value', () => {
    const { values } = checkWith('condition', { start_date: '2019-05-14', start_date_part: 'month' });
    expect(medicalDateOf(values, 'start_date')).toEqual({ date: '2019-05-01', part: 'month' });
    expect(medicalDateOf(values, 'end_date')).toEqual({ date: null, part: null });
    expect(medicalDateOf({}, 'start_date')).toEqual({ date: null, part: null });
  });
});

describe('exact dates (allergy recorded_date, biometrics measured_on)', () => {
  it('allergy recorded_date defaults to today when creating', () => {
    expect(check('allergy', { code: 'Penicillin' }, { creating: true }).values.recorded_date).toBe(TODAY);
    expect(check('allergy', { code: 'Penicillin', recorded_date: '' }, { creating: true }).values.recorded_date).toBe(TODAY);
    expect(check('allergy', { code: 'Penicillin', recorded_date: null }, { creating: true }).values.recorded_date).toBe(TODAY);
  });

  it('a given recorded_date is kept when creating', () => {
    expect(check('allergy', { code: 'Penicillin', recorded_date: '2020-01-02' }, { creating: true }).values.recorded_date).toBe('2020-01-02');
  });

  it('recorded_date is not defaulted when not creating', () => {
    expect(check('allergy', { code: 'Penicillin' })).toMatchObject({ errors: null, values: { recorded_date: null } });
    expect(check('allergy', { code: 'Penicillin', recorded_date: null }, { existing: { code: 'Penicillin', recorded_date: '2020-01-02' } }).values.recorded_date).toBeNull();
  });

  it('recorded_date must be a valid day, not in the future, not before birth', () => {
    expect(check('allergy', { code: 'P', recorded_date: '2020-02-30' }).errors).toEqual({ recorded_date: err('validation:invalid-date') });
    expect(check('allergy', { code: 'P', recorded_date: '2020-02' }).errors).toEqual({ recorded_date: err('validation:invalid-date') });
    expect(check('allergy', { code: 'P', recorded_date: 20200202 }).errors).toEqual({ recorded_date: err('validation:invalid-date') });
    expect(check('allergy', { code: 'P', recorded_date: '2026-11-24' }).errors).toEqual({ recorded_date: err('validation:date-in-future') });
    expect(check('allergy', { code: 'P', recorded_date: '1980-06-14' }).errors).toEqual({ recorded_date: err('validation:date-before-birthday') });
  });

  it('biometrics measured_on defaults to today when creating', () => {
    expect(check('biometrics', { measure: 'weight', value: 75 }, { creating: true }).values.measured_on).toBe(TODAY);
    expect(check('biometrics', { measure: 'weight', value: 75 }).values.measured_on).toBeNull();
  });
});

describe('PATCH (options.existing)', () => {
  const existing: RecordValues = {
    name: 'Migraine',
    verification_status: 'confirmed',
    start_date: '2019-05-14',
    start_date_part: 'day',
    end_date: null,
    end_date_part: null,
    intensity: 7,
    frequency: 2,
    interval: 'week',
    verified: true,
    note: 'Old note',
    private: true,
  };

  it('absent fields keep their existing values', () => {
    const { values, errors } = check('condition', { intensity: 3 }, { existing });
    expect(errors).toBeNull();
    expect(values).toEqual({ ...existing, intensity: 3 });
  });

  it('an empty PATCH keeps everything', () => {
    expect(check('condition', {}, { existing })).toEqual({ values: existing, errors: null });
  });

  it('a given null clears an optional field', () => {
    expect(check('condition', { note: null, intensity: null }, { existing }).values).toMatchObject({ note: null, intensity: null, name: 'Migraine' });
  });

  it('clearing a required field is validation:required', () => {
    expect(check('condition', { name: '' }, { existing }).errors).toEqual({ name: err('validation:required') });
  });

  it('the fields given are still checked', () => {
    expect(check('condition', { intensity: 11 }, { existing }).errors).toEqual({ intensity: err('validation:tooBig', { max: 10 }) });
  });

  it('private can be changed, or kept', () => {
    expect(check('condition', { private: false }, { existing }).values.private).toBe(false);
    expect(check('condition', { note: 'x' }, { existing }).values.private).toBe(true);
  });

  it('end-before-start runs on the merged values', () => {
    expect(check('condition', { end_date: '2019-05-13' }, { existing }).errors).toEqual({ end_date: err('validation:end-before-start') });
    expect(check('condition', { end_date: '2019-05-15' }, { existing }).errors).toBeNull();
    expect(check('condition', { start_date: '2019-05-16' }, { existing: { ...existing, end_date: '2019-05-15', end_date_part: 'day' } }).errors).toEqual({
      end_date: err('validation:end-before-start'),
    });
  });

  it('a new date and part replace the existing ones together', () => {
    expect(check('condition', { start_date: null, start_date_part: 'past' }, { existing }).values).toMatchObject({ start_date: null, start_date_part: 'past' });
    expect(check('condition', { start_date: '2018-03-09', start_date_part: 'month' }, { existing }).values).toMatchObject({ start_date: '2018-03-01', start_date_part: 'month' });
  });

  it('notBelow runs on the merged values', () => {
    const stored: RecordValues = { vaccine_name: 'Hepatitis B', dose_number: 3, series_doses: 3 };
    expect(check('immunization', { series_doses: 2 }, { existing: stored }).errors).toEqual({ series_doses: err('validation:doseAboveSeries') });
    expect(check('immunization', { dose_number: 4 }, { existing: stored }).errors).toEqual({ series_doses: err('validation:doseAboveSeries') });
    expect(check('socialhistory', { end_age: 20 }, { existing: { category: 'tobacco', start_age: 25 } }).errors).toEqual({ end_age: err('validation:endAgeBeforeStartAge') });
  });

  it('the measurement rule runs on the merged values', () => {
    const stored: RecordValues = { measure: 'blood_pressure', value: 120, diastolic: 80, measured_on: '2026-01-01' };
    expect(check('biometrics', { diastolic: 125 }, { existing: stored }).errors).toEqual({ diastolic: err('validation:diastolicNotBelowSystolic') });
    expect(check('biometrics', { value: 130 }, { existing: stored })).toMatchObject({ errors: null, values: { value: 130, diastolic: 80, measured_on: '2026-01-01' } });
  });

  it('a PATCH keeps an existing recorded_date (no default)', () => {
    expect(check('allergy', { note: 'x' }, { existing: { code: 'Penicillin', recorded_date: '2020-01-02' } }).values.recorded_date).toBe('2020-01-02');
  });
});

describe('biometrics', () => {
  it('a weight in kg within 0.2 to 500', () => {
    expect(check('biometrics', { measure: 'weight', value: 75 })).toMatchObject({ errors: null, values: { measure: 'weight', value: 75 } });
    expect(check('biometrics', { measure: 'weight', value: 0.2 }).errors).toBeNull();
    expect(check('biometrics', { measure: 'weight', value: 500 }).errors).toBeNull();
    expect(check('biometrics', { measure: 'weight', value: 750 }).errors).toEqual({ value: err('validation:tooBig', { max: 500 }) });
    expect(check('biometrics', { measure: 'weight', value: 0.1 }).errors).toEqual({ value: err('validation:tooSmall', { min: 0.2 }) });
  });

  it('a weight is kept with 2 decimals', () => {
    expect(check('biometrics', { measure: 'weight', value: '72.456' }).values.value).toBe(72.46);
  });

  it('a height in metres (175 is not a height in m)', () => {
    expect(check('biometrics', { measure: 'height', value: 1.75 }).errors).toBeNull();
    expect(check('biometrics', { measure: 'height', value: 175 }).errors).toEqual({ value: err('validation:tooBig', { max: 2.75 }) });
  });

  it('the value must be a number and is required', () => {
    expect(check('biometrics', { measure: 'weight', value: 'heavy' }).errors).toEqual({ value: err('validation:notANumber') });
    expect(check('biometrics', { measure: 'weight' }).errors).toEqual({ value: err('validation:required') });
  });

  it('the measure must be of the list and is required', () => {
    expect(check('biometrics', { measure: 'bmi', value: 22 }).errors).toEqual({ measure: err('validation:invalidChoice', { value: 'bmi' }) });
    expect(check('biometrics', { value: 22 }).errors).toEqual({ measure: err('validation:required') });
  });

  it('blood pressure needs its diastolic value: validation:required on diastolic', () => {
    expect(check('biometrics', { measure: 'blood_pressure', value: 120 }).errors).toEqual({ diastolic: err('validation:required') });
    expect(check('biometrics', { measure: 'blood_pressure', value: 120, diastolic: '' }).errors).toEqual({ diastolic: err('validation:required') });
  });

  it('blood pressure with a diastolic below the systolic', () => {
    expect(check('biometrics', { measure: 'blood_pressure', value: 120, diastolic: 80 })).toMatchObject({
      errors: null,
      values: { measure: 'blood_pressure', value: 120, diastolic: 80 },
    });
    expect(check('biometrics', { measure: 'blood_pressure', value: '120', diastolic: '80' })).toMatchObject({ errors: null, values: { value: 120, diastolic: 80 } });
  });

  it('a diastolic not below the systolic: validation:diastolicNotBelowSystolic', () => {
    expect(check('biometrics', { measure: 'blood_pressure', value: 120, diastolic: 120 }).errors).toEqual({ diastolic: err('validation:diastolicNotBelowSystolic') });
    expect(check('biometrics', { measure: 'blood_pressure', value: 120, diastolic: 130 }).errors).toEqual({ diastolic: err('validation:diastolicNotBelowSystolic') });
  });

  it("the diastolic's own range and type are reported alone", () => {
    expect(check('biometrics', { measure: 'blood_pressure', value: 120, diastolic: 10 }).errors).toEqual({ diastolic: err('validation:tooSmall', { min: 20 }) });
    expect(check('biometrics', { measure: 'blood_pressure', value: 120, diastolic: 'low' }).errors).toEqual({ diastolic: err('validation:notAnInteger') });
  });

  it('the systolic is within 40 to 300 mmHg, whole', () => {
    expect(check('biometrics', { measure: 'blood_pressure', value: 310, diastolic: 80 }).errors).toEqual({ value: err('validation:tooBig', { max: 300 }) });
    expect(check('biometrics', { measure: 'blood_pressure', value: 121.6, diastolic: 80 }).values.value).toBe(122);
  });

  it.each(['weight', 'height', 'heart_rate', 'glucose', 'temperature', 'oxygen_saturation'])('%s nulls the diastolic', (measure) => {
    const value = { weight: 75, height: 1.75, heart_rate: 60, glucose: 5.5, temperature: 36.6, oxygen_saturation: 98 }[measure];
    const { values, errors } = check('biometrics', { measure, value, diastolic: 80 });
    expect(errors).toBeNull();
    expect(values.diastolic).toBeNull();
  });
});

describe('unknown fields', () => {
  it('are ignored', () => {
    const { values, errors } = check('condition', { name: 'Migraine', colour: 'red', id: 12, patient: 'someone', created_at: 'x' });
    expect(errors).toBeNull();
    expect(values).not.toHaveProperty('colour');
    expect(values).not.toHaveProperty('id');
    expect(values).not.toHaveProperty('patient');
    expect(values).not.toHaveProperty('created_at');
  });

  it('fields of another category are ignored', () => {
    const { values, errors } = check('condition', { name: 'Migraine', vaccine_name: 'x', dose_number: 500 });
    expect(errors).toBeNull();
    expect(values).not.toHaveProperty('dose_number');
  });
});

describe('several errors at once', () => {
  it('reports each field', () => {
    const { errors } = check('condition', { name: '', intensity: 0, frequency: 101, interval: 'fortnight', start_date: '2030-01-01', private: 'maybe' });
    expect(errors).toEqual({
      name: err('validation:required'),
      intensity: err('validation:tooSmall', { min: 1 }),
      frequency: err('validation:tooBig', { max: 100 }),
      interval: err('validation:invalidChoice', { value: 'fortnight' }),
      start_date: err('validation:date-in-future'),
      private: err('validation:notABoolean'),
    });
  });
});

describe('follow-ups', () => {
  const ctx = { today: '2026-11-23', dob: '1980-06-15' };
  it('a PATCH of a date without its precision makes it a day, whatever precision was stored', () => {
    const condition = categoryDefinition('condition')!;
    const existing = { name: 'Asthma', start_date: '2019-01-01', start_date_part: 'year' } as const;
    const { values, errors } = checkRecord(condition, { start_date: '2020-03-14' }, { ...ctx, existing });
    expect(errors).toBeNull();
    expect(values).toMatchObject({ start_date: '2020-03-14', start_date_part: 'day' });
    const past = checkRecord(condition, { start_date: '2020-03-14' }, { ...ctx, existing: { name: 'Asthma', start_date: null, start_date_part: 'past' } });
    expect(past.errors).toBeNull();
  });
  it('a note may break lines and indent, but carries no other control character', () => {
    const condition = categoryDefinition('condition')!;
    expect(checkRecord(condition, { name: 'Asthma', note: 'line one\n\tline two' }, ctx).errors).toBeNull();
    expect(checkRecord(condition, { name: 'Asthma', note: 'bell\u0007' }, ctx).errors).toEqual({ note: [{ key: 'validation:textControlCharacters' }] });
  });
});
