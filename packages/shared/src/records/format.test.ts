import { describe, expect, it } from 'vitest';
import type { Language } from '../constants';
import { translate } from '../i18n';
import { categoryDefinition } from './categories';
import { formatDosing, formatLabResult, formatReferenceRange, labFlag, readableFields, readingItems } from './format';
import { convertLabValue, labTestKey, normaliseLabUnit } from './units';

const say = (lang: Language) => (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
const dosing = (lang: Language, record: Record<string, unknown>) => formatDosing(say(lang), lang, record);

describe('formatDosing: the dosing fields as an instruction', () => {
  it.each([
    [{ dosage: 1, unit: 'tablet', frequency: 12, repeat: 'hours' }, '1 tablet every 12 hours', '1 δισκίο κάθε 12 ώρες'],
    [{ dosage: 2, unit: 'tablet', frequency: 1, repeat: 'days' }, '2 tablets once a day', '2 δισκία μία φορά την ημέρα'],
    [{ dosage: 500, unit: 'mg', times: 2, frequency: 1, repeat: 'days' }, '500 mg twice a day', '500 mg δύο φορές την ημέρα'],
    [{ dosage: 500, unit: 'mg', times: 2, repeat: 'days' }, '500 mg twice a day', '500 mg δύο φορές την ημέρα'],
    [{ dosage: 2, unit: 'puff', times: 3, frequency: 1, repeat: 'weeks', as_needed: true }, '2 puffs 3 times a week, as needed', '2 εισπνοές 3 φορές την εβδομάδα, όταν χρειάζεται'],
    [{ dosage: 1, unit: 'capsule', times: 3, frequency: 2, repeat: 'days' }, '1 capsule 3 times every 2 days', '1 καψάκιο 3 φορές κάθε 2 ημέρες'],
    [{ unit: 'drop', frequency: 1, repeat: 'hours' }, '1 drop every hour', '1 σταγόνα κάθε ώρα'],
    [{ as_needed: true }, 'As needed', 'Όταν χρειάζεται'],
    [{ dosage: 1000, unit: 'iu', frequency: 1, repeat: 'months' }, '1,000 IU once a month', '1.000 IU μία φορά τον μήνα'],
    [{ dosage: 0.5, unit: 'tablet', frequency: '8', repeat: 'hours' }, '0.5 tablets every 8 hours', '0,5 δισκία κάθε 8 ώρες'],
  ])('%j', (record, en, el) => {
    expect(dosing('en', record)).toBe(en);
    expect(dosing('el', record)).toBe(el);
  });

  it('says nothing for a record without dosing, and keeps a count without its period', () => {
    expect(dosing('en', { code: 'Aspirin' })).toBe('');
    expect(dosing('en', { as_needed: false })).toBe('');
    expect(dosing('en', { dosage: 75, unit: 'mg', frequency: 2 })).toBe('75 mg 2 times');
  });

  it('takes the place of the dosing fields wherever a medicine is read', () => {
    const medication = categoryDefinition('medication')!;
    const rows = readableFields(say('el'), 'el', medication, { code: 'Metformin', dosage: 1000, unit: 'mg', frequency: 12, repeat: 'hours', as_needed: false, stopped: false });
    expect(rows.map((r) => [r.name, r.label, r.value])).toEqual([
      ['code', 'Φάρμακο', 'Metformin'],
      ['dosing', 'Πώς λαμβάνεται', '1.000 mg κάθε 12 ώρες'],
      ['stopped', 'Διακόπηκε', 'Όχι'],
    ]);
    expect(readingItems(medication).filter((i) => i.column).map((i) => i.name)).toEqual(['code', 'dosing', 'stopped']);
  });
});

describe('labFlag: a lab result against its reference range', () => {
  it.each([
    [{ result: 3.1, range_low: 3.5, range_high: 5.5 }, 'low'],
    [{ result: 6.2, range_low: 3.5, range_high: 5.5 }, 'high'],
    [{ result: 4.1, range_low: 3.5, range_high: 5.5 }, null],
    [{ result: 3.5, range_low: 3.5, range_high: 5.5 }, null],
    [{ result: 240, range_high: 200 }, 'high'],
    [{ result: 35, range_low: 40 }, 'low'],
    [{ result: '6,2', range_low: '3.5', range_high: '5.5' }, 'high'],
    // Set by hand, it wins over the range.
    [{ result: 6.9, range_low: 3.5, range_high: 5.5, flag: 'critical' }, 'critical'],
    // Without a numeric range, "not within the normal range" says abnormal.
    [{ result: 12, range_text: 'negative', within_normal_range: false }, 'abnormal'],
    [{ result: 12, within_normal_range: true }, null],
    [{ result: 12 }, null],
    [{ result: 12, flag: 'bogus' }, null],
  ])('%j -> %s', (record, flag) => {
    expect(labFlag(record)).toBe(flag);
  });

  it('reads a lab as result with its units, range and flag, in each language', () => {
    const lab = categoryDefinition('lab')!;
    const record = { test: 'Glucose', result: 7.2, units: 'mmol/L', range_low: 3.9, range_high: 5.5, test_date: '2026-03-01', test_date_part: 'day' };
    expect(readableFields(say('en'), 'en', lab, record).map((r) => [r.label, r.value])).toEqual([
      ['Test', 'Glucose'],
      ['Test date', '1 March 2026'],
      ['Result', '7.2 mmol/L'],
      ['Reference range', '3.9–5.5 mmol/L'],
      ['Flag', 'High'],
    ]);
    expect(readableFields(say('el'), 'el', lab, record).slice(2).map((r) => [r.label, r.value])).toEqual([
      ['Αποτέλεσμα', '7,2 mmol/L'],
      ['Φυσιολογικές τιμές', '3,9–5,5 mmol/L'],
      ['Ένδειξη', 'Υψηλό'],
    ]);
    expect(readingItems(lab).filter((i) => i.column).map((i) => i.name)).toEqual(['test', 'test_date', 'result', 'reference_range', 'flag']);
  });

  it('writes one-sided and textual ranges', () => {
    expect(formatReferenceRange('en', { range_high: 200, units: 'mg/dL', range_text: 'desirable' })).toBe('≤ 200 mg/dL (desirable)');
    expect(formatReferenceRange('en', { range_low: 40 })).toBe('≥ 40');
    expect(formatReferenceRange('en', { range_text: 'Negative' })).toBe('Negative');
    expect(formatReferenceRange('en', {})).toBe('');
    expect(formatLabResult('el', { result: 1234.5, units: ' mg/dL ' })).toBe('1.234,5 mg/dL');
  });
});

describe('convertLabValue: only where the unit of the test is known', () => {
  it('converts spellings, mass to mass and amount to amount for any test', () => {
    expect(normaliseLabUnit(' µmol/l')).toBe('umol/l');
    expect(convertLabValue('Anything', 5, 'mmol/l', 'mmol/L')).toBe(5);
    expect(convertLabValue('Haemoglobin', 13.5, 'g/dL', 'g/L')).toBeCloseTo(135);
    expect(convertLabValue('Ferritin', 80, 'ng/mL', 'ug/L')).toBeCloseTo(80);
  });

  it('converts mass to amount for tests of known molar mass, in English and Greek names', () => {
    expect(convertLabValue('Fasting glucose', 99, 'mg/dL', 'mmol/L')).toBeCloseTo(5.495, 2);
    expect(convertLabValue('Γλυκόζη νηστείας', 5.5, 'mmol/L', 'mg/dL')).toBeCloseTo(99.09, 1);
    expect(convertLabValue('Total cholesterol', 200, 'mg/dL', 'mmol/L')).toBeCloseTo(5.17, 2);
    expect(convertLabValue('Creatinine', 1, 'mg/dL', 'µmol/L')).toBeCloseTo(88.4, 0);
  });

  it('refuses what is not known', () => {
    expect(convertLabValue('TSH', 2, 'mIU/L', 'mg/dL')).toBeNull();
    expect(convertLabValue('Vitamin B12', 300, 'pg/mL', 'pmol/L')).toBeNull();
    expect(convertLabValue('Sodium', 140, 'mg/dL', 'mmol/L')).toBeNull();
  });

  it('groups a test by its name whatever its case and spacing', () => {
    expect(labTestKey('  HbA1c ')).toBe(labTestKey('hba1c'));
    expect(labTestKey('Total  cholesterol')).toBe('total cholesterol');
  });
});

describe('the flag row of a lab result', () => {
  const lab = categoryDefinition('lab')!;
  const flagOf = (lang: Language, record: Record<string, unknown>) => readableFields(say(lang), lang, lab, { test: 'X', ...record }).find((r) => r.name === 'flag')?.value;
  it('says normal for a result within its range or marked so, nothing when nothing is known', () => {
    expect(flagOf('en', { result: 4, range_low: 3, range_high: 5 })).toBe('Normal');
    expect(flagOf('el', { result: 4, within_normal_range: true })).toBe('Φυσιολογικό');
    expect(flagOf('el', { result: 4, within_normal_range: false })).toBe('Εκτός φυσιολογικών ορίων');
    expect(flagOf('en', { result: 4 })).toBeUndefined();
  });
});
