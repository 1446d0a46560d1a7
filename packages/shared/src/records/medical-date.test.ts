import { describe, expect, it } from 'vitest';
import {
  checkMedicalDate,
  DATE_PARTS,
  daysInMonth,
  formatMedicalDate,
  isEndBeforeStart,
  isMedicalDateComplete,
  isValidIsoDate,
  localToday,
  MEDICAL_DATE_ERRORS,
  MEDICAL_DATE_MODES,
  medicalDateDefaults,
  medicalDateInput,
  resolveMedicalDate,
  type DatePart,
  type MedicalDate,
  type MedicalDateInput,
  type MedicalDateMode,
} from './medical-date';

const TODAY = '2026-11-23';
const DOB = '1980-06-15';
const ctx = { today: TODAY, dob: DOB };

const input = (mode: MedicalDateMode, day = '', month = '', year = ''): MedicalDateInput => ({ mode, day, month, year });
const md = (date: string | null, part: DatePart | null): MedicalDate => ({ date, part });

describe('constants', () => {
  it('has the dialog radio options in order', () => {
    expect(MEDICAL_DATE_MODES).toEqual(['today', 'exact', 'month', 'year', 'past']);
  });

  it('has the four precisions', () => {
    expect(DATE_PARTS).toEqual(['day', 'month', 'year', 'past']);
  });

  it('uses the spec message codes in the validation catalog', () => {
    expect(MEDICAL_DATE_ERRORS).toEqual({
      invalid: 'validation:invalid-date',
      beforeBirth: 'validation:date-before-birthday',
      future: 'validation:date-in-future',
      endBeforeStart: 'validation:end-before-start',
    });
  });
});

describe('localToday', () => {
  it('formats the local calendar day, zero padded', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(localToday(new Date(2019, 11, 31, 0, 0))).toBe('2019-12-31');
  });

  it('defaults to now', () => {
    expect(localToday()).toMatch(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/);
    expect(isValidIsoDate(localToday())).toBe(true);
  });
});

describe('medicalDateDefaults', () => {
  it('Today sets today (without zero padding)', () => {
    expect(medicalDateDefaults('today', TODAY)).toEqual({ mode: 'today', day: '23', month: '11', year: '2026' });
    expect(medicalDateDefaults('today', '2026-03-07')).toEqual({ mode: 'today', day: '7', month: '3', year: '2026' });
  });

  it('Exact date clears all', () => {
    expect(medicalDateDefaults('exact', TODAY)).toEqual({ mode: 'exact', day: '', month: '', year: '' });
  });

  it('Month & Year sets the current month and year', () => {
    expect(medicalDateDefaults('month', TODAY)).toEqual({ mode: 'month', day: '', month: '11', year: '2026' });
    expect(medicalDateDefaults('month', '2026-03-07')).toEqual({ mode: 'month', day: '', month: '3', year: '2026' });
  });

  it('Year only sets the current year', () => {
    expect(medicalDateDefaults('year', TODAY)).toEqual({ mode: 'year', day: '', month: '', year: '2026' });
  });

  it('In the past clears all', () => {
    expect(medicalDateDefaults('past', TODAY)).toEqual({ mode: 'past', day: '', month: '', year: '' });
  });

  it('defaults resolve to today at their precision', () => {
    expect(resolveMedicalDate(medicalDateDefaults('today', TODAY))).toEqual(md('2026-11-23', 'day'));
    expect(resolveMedicalDate(medicalDateDefaults('month', TODAY))).toEqual(md('2026-11-01', 'month'));
    expect(resolveMedicalDate(medicalDateDefaults('year', TODAY))).toEqual(md('2026-01-01', 'year'));
    expect(resolveMedicalDate(medicalDateDefaults('past', TODAY))).toEqual(md(null, 'past'));
  });

  it('uses the local today when none is given', () => {
    const [y, m, d] = localToday().split('-');
    expect(medicalDateDefaults('today')).toEqual({ mode: 'today', day: String(Number(d)), month: String(Number(m)), year: y });
  });
});

describe('isMedicalDateComplete', () => {
  it.each([
    ['', '', ''],
    ['14', '', ''],
    ['', '5', ''],
    ['', '', '2019'],
    ['14', '5', ''],
    ['14', '', '2019'],
    ['', '5', '2019'],
  ])('Exact date with day %j, month %j, year %j is not complete (Save disabled)', (day, month, year) => {
    expect(isMedicalDateComplete(input('exact', day, month, year))).toBe(false);
  });

  it('Exact date is complete once day, month and year are chosen', () => {
    expect(isMedicalDateComplete(input('exact', '14', '5', '2019'))).toBe(true);
  });

  it('Today needs all three parts (set by its defaults)', () => {
    expect(isMedicalDateComplete(medicalDateDefaults('today', TODAY))).toBe(true);
    expect(isMedicalDateComplete(input('today', '', '11', '2026'))).toBe(false);
  });

  it('Month & Year needs month and year, not a day', () => {
    expect(isMedicalDateComplete(input('month', '', '5', '2019'))).toBe(true);
    expect(isMedicalDateComplete(input('month', '', '', '2019'))).toBe(false);
    expect(isMedicalDateComplete(input('month', '', '5', ''))).toBe(false);
    expect(isMedicalDateComplete(input('month', '14', '', '2019'))).toBe(false);
  });

  it('Year only needs the year', () => {
    expect(isMedicalDateComplete(input('year', '', '', '2019'))).toBe(true);
    expect(isMedicalDateComplete(input('year', '14', '5', ''))).toBe(false);
  });

  it('In the past is always complete', () => {
    expect(isMedicalDateComplete(input('past'))).toBe(true);
    expect(isMedicalDateComplete(input('past', '14', '5', '2019'))).toBe(true);
  });

  it('the defaults of every mode but Exact date are complete', () => {
    for (const mode of MEDICAL_DATE_MODES) {
      expect(isMedicalDateComplete(medicalDateDefaults(mode, TODAY))).toBe(mode !== 'exact');
    }
  });
});

describe('resolveMedicalDate', () => {
  it('Exact date: a day', () => {
    expect(resolveMedicalDate(input('exact', '14', '5', '2019'))).toEqual(md('2019-05-14', 'day'));
    expect(resolveMedicalDate(input('exact', '1', '1', '1900'))).toEqual(md('1900-01-01', 'day'));
    expect(resolveMedicalDate(input('exact', '31', '12', '2026'))).toEqual(md('2026-12-31', 'day'));
  });

  it('accepts zero-padded parts', () => {
    expect(resolveMedicalDate(input('exact', '04', '05', '2019'))).toEqual(md('2019-05-04', 'day'));
  });

  it('Today: a day', () => {
    expect(resolveMedicalDate(input('today', '23', '11', '2026'))).toEqual(md('2026-11-23', 'day'));
  });

  it('Month & Year: the first of the month, whatever the day says', () => {
    expect(resolveMedicalDate(input('month', '', '5', '2019'))).toEqual(md('2019-05-01', 'month'));
    expect(resolveMedicalDate(input('month', '31', '2', '2019'))).toEqual(md('2019-02-01', 'month'));
  });

  it('Year only: the first of January, whatever the month and day say', () => {
    expect(resolveMedicalDate(input('year', '', '', '2019'))).toEqual(md('2019-01-01', 'year'));
    expect(resolveMedicalDate(input('year', '99', '13', '2019'))).toEqual(md('2019-01-01', 'year'));
  });

  it('pads a short year to four digits', () => {
    expect(resolveMedicalDate(input('year', '', '', '19'))).toEqual(md('0019-01-01', 'year'));
  });

  it('In the past: no date', () => {
    expect(resolveMedicalDate(input('past'))).toEqual(md(null, 'past'));
    expect(resolveMedicalDate(input('past', '14', '5', '2019'))).toEqual(md(null, 'past'));
  });

  describe('errors', () => {
    const invalid = MEDICAL_DATE_ERRORS.invalid;

    it.each(['exact', 'today', 'month', 'year'] as const)('an empty year (%s)', (mode) => {
      expect(resolveMedicalDate(input(mode, '14', '5', ''))).toBe(invalid);
    });

    it.each(['0', '0000', '10000', 'abcd', '20x9', '-2019', ' 2019', '2019.5'])('year %j', (year) => {
      expect(resolveMedicalDate(input('year', '', '', year))).toBe(invalid);
    });

    it.each(['13', '0', '', '-1', 'May', '5.5'])('month %j (exact)', (month) => {
      expect(resolveMedicalDate(input('exact', '14', month, '2019'))).toBe(invalid);
    });

    it('month 13 and an empty month (Month & Year)', () => {
      expect(resolveMedicalDate(input('month', '', '13', '2019'))).toBe(invalid);
      expect(resolveMedicalDate(input('month', '', '', '2019'))).toBe(invalid);
    });

    it('day 0, an empty day and day 32', () => {
      expect(resolveMedicalDate(input('exact', '0', '5', '2019'))).toBe(invalid);
      expect(resolveMedicalDate(input('exact', '', '5', '2019'))).toBe(invalid);
      expect(resolveMedicalDate(input('exact', '32', '5', '2019'))).toBe(invalid);
    });

    it('31 April (and the 30th is fine)', () => {
      expect(resolveMedicalDate(input('exact', '31', '4', '2019'))).toBe(invalid);
      expect(resolveMedicalDate(input('exact', '30', '4', '2019'))).toEqual(md('2019-04-30', 'day'));
    });

    it('31 of the other 30-day months', () => {
      for (const month of ['6', '9', '11']) expect(resolveMedicalDate(input('exact', '31', month, '2019'))).toBe(invalid);
    });

    it('29 February 2023 (not leap) vs 2024 (leap)', () => {
      expect(resolveMedicalDate(input('exact', '29', '2', '2023'))).toBe(invalid);
      expect(resolveMedicalDate(input('exact', '29', '2', '2024'))).toEqual(md('2024-02-29', 'day'));
    });

    it('29 February 1900 (not leap) vs 2000 (leap)', () => {
      expect(resolveMedicalDate(input('exact', '29', '2', '1900'))).toBe(invalid);
      expect(resolveMedicalDate(input('exact', '29', '2', '2000'))).toEqual(md('2000-02-29', 'day'));
    });

    it('30 February even in a leap year', () => {
      expect(resolveMedicalDate(input('exact', '30', '2', '2024'))).toBe(invalid);
    });
  });
});

describe('daysInMonth', () => {
  const nonLeap = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

  it.each(nonLeap.map((days, i) => [i + 1, days]))('month %i of 2023 has %i days', (month, days) => {
    expect(daysInMonth(2023, month)).toBe(days);
  });

  it.each(nonLeap.map((days, i) => [i + 1, i === 1 ? 29 : days]))('month %i of 2024 (leap) has %i days', (month, days) => {
    expect(daysInMonth(2024, month)).toBe(days);
  });

  it.each([
    [2024, 29],
    [2023, 28],
    [2000, 29],
    [1900, 28],
    [2100, 28],
    [1600, 29],
    [1996, 29],
    [2019, 28],
  ])('February %i has %i days', (year, days) => {
    expect(daysInMonth(year, 2)).toBe(days);
  });
});

describe('medicalDateInput', () => {
  it('a day becomes an Exact date without zero padding', () => {
    expect(medicalDateInput(md('2019-05-04', 'day'))).toEqual({ mode: 'exact', day: '4', month: '5', year: '2019' });
  });

  it('a month becomes Month & Year', () => {
    expect(medicalDateInput(md('2019-05-01', 'month'))).toEqual({ mode: 'month', day: '', month: '5', year: '2019' });
  });

  it('a year becomes Year only', () => {
    expect(medicalDateInput(md('2019-01-01', 'year'))).toEqual({ mode: 'year', day: '', month: '', year: '2019' });
  });

  it('past becomes In the past', () => {
    expect(medicalDateInput(md(null, 'past'))).toEqual({ mode: 'past', day: '', month: '', year: '' });
  });

  it('no date becomes an empty Exact date', () => {
    expect(medicalDateInput(md(null, null))).toEqual({ mode: 'exact', day: '', month: '', year: '' });
    expect(medicalDateInput(md('2019-05-14', null))).toEqual({ mode: 'exact', day: '', month: '', year: '' });
    expect(medicalDateInput(md(null, 'day'))).toEqual({ mode: 'exact', day: '', month: '', year: '' });
  });

  it.each([
    md('2019-05-14', 'day'),
    md('2024-02-29', 'day'),
    md('1900-01-01', 'day'),
    md('2019-12-01', 'month'),
    md('1980-06-01', 'month'),
    md('2019-01-01', 'year'),
    md(null, 'past'),
  ])('round-trips %j through resolveMedicalDate', (value) => {
    const parts = medicalDateInput(value);
    expect(isMedicalDateComplete(parts)).toBe(true);
    expect(resolveMedicalDate(parts)).toEqual(value);
  });

  it('round-trips dialog values through a stored value', () => {
    for (const parts of [input('exact', '14', '5', '2019'), input('month', '', '5', '2019'), input('year', '', '', '2019'), input('past')]) {
      const resolved = resolveMedicalDate(parts);
      expect(typeof resolved).toBe('object');
      expect(medicalDateInput(resolved as MedicalDate)).toEqual(parts);
    }
  });
});

describe('isValidIsoDate', () => {
  it.each(['2019-05-14', '2024-02-29', '2000-02-29', '1900-02-28', '0001-01-01', '9999-12-31', '2019-04-30'])('accepts %s', (value) => {
    expect(isValidIsoDate(value)).toBe(true);
  });

  it.each([
    '',
    '2019',
    '2019-05',
    '2019-5-14',
    '2019-05-4',
    '19-05-14',
    '2019/05/14',
    '2019-05-14T00:00:00Z',
    ' 2019-05-14',
    '2019-05-14 ',
    '0000-01-01',
    '2019-00-10',
    '2019-13-01',
    '2019-05-00',
    '2019-05-32',
    '2019-04-31',
    '2023-02-29',
    '1900-02-29',
    'abcd-ef-gh',
  ])('refuses %j', (value) => {
    expect(isValidIsoDate(value)).toBe(false);
  });
});

describe('checkMedicalDate', () => {
  const { invalid, beforeBirth, future } = MEDICAL_DATE_ERRORS;

  it('accepts a day between birth and today', () => {
    expect(checkMedicalDate(md('2019-05-14', 'day'), ctx)).toBeNull();
  });

  it('accepts the birth day and today themselves', () => {
    expect(checkMedicalDate(md(DOB, 'day'), ctx)).toBeNull();
    expect(checkMedicalDate(md(TODAY, 'day'), ctx)).toBeNull();
  });

  describe('before birth, at the value precision', () => {
    it('a day: the day before birth is refused', () => {
      expect(checkMedicalDate(md('1980-06-14', 'day'), ctx)).toBe(beforeBirth);
      expect(checkMedicalDate(md('1979-12-31', 'day'), ctx)).toBe(beforeBirth);
    });

    it('a month: the birth month is fine, the month before is refused', () => {
      expect(checkMedicalDate(md('1980-06-01', 'month'), ctx)).toBeNull();
      expect(checkMedicalDate(md('1980-05-01', 'month'), ctx)).toBe(beforeBirth);
    });

    it('a year: the birth year is fine, the year before is refused', () => {
      expect(checkMedicalDate(md('1980-01-01', 'year'), ctx)).toBeNull();
      expect(checkMedicalDate(md('1979-01-01', 'year'), ctx)).toBe(beforeBirth);
    });

    it('without a date of birth nothing is before birth', () => {
      expect(checkMedicalDate(md('1910-01-01', 'day'), { today: TODAY })).toBeNull();
      expect(checkMedicalDate(md('1910-01-01', 'day'), { today: TODAY, dob: null })).toBeNull();
      expect(checkMedicalDate(md('1910-01-01', 'day'), { today: TODAY, dob: '' })).toBeNull();
    });
  });

  describe('after today, at the value precision', () => {
    it('a day: tomorrow is refused', () => {
      expect(checkMedicalDate(md('2026-11-24', 'day'), ctx)).toBe(future);
      expect(checkMedicalDate(md('2027-01-01', 'day'), ctx)).toBe(future);
    });

    it('a month: this month is fine, next month is refused', () => {
      expect(checkMedicalDate(md('2026-11-01', 'month'), ctx)).toBeNull();
      expect(checkMedicalDate(md('2026-12-01', 'month'), ctx)).toBe(future);
    });

    it('a year: this year is fine, next year is refused', () => {
      expect(checkMedicalDate(md('2026-01-01', 'year'), ctx)).toBeNull();
      expect(checkMedicalDate(md('2027-01-01', 'year'), ctx)).toBe(future);
    });
  });

  it('a value both before birth and in the future is impossible; before birth is reported first', () => {
    expect(checkMedicalDate(md('2020-01-01', 'day'), { today: '2010-01-01', dob: '2030-01-01' })).toBe(beforeBirth);
  });

  it("'past' without a date holds; with a date it is invalid", () => {
    expect(checkMedicalDate(md(null, 'past'), ctx)).toBeNull();
    expect(checkMedicalDate(md('2019-05-14', 'past'), ctx)).toBe(invalid);
  });

  it('no value at all holds; a date without a precision is invalid', () => {
    expect(checkMedicalDate(md(null, null), ctx)).toBeNull();
    expect(checkMedicalDate(md('2019-05-14', null), ctx)).toBe(invalid);
  });

  it('a precision without a date is invalid', () => {
    for (const part of ['day', 'month', 'year'] as const) expect(checkMedicalDate(md(null, part), ctx)).toBe(invalid);
  });

  it.each(['2019-02-30', '2019-13-01', '2019-5-14', 'yesterday', ''])('an invalid date %j is invalid', (date) => {
    expect(checkMedicalDate(md(date, 'day'), ctx)).toBe(invalid);
  });
});

describe('isEndBeforeStart', () => {
  it('end "2019" is not before start "May 2019" (compared as years)', () => {
    expect(isEndBeforeStart(md('2019-05-01', 'month'), md('2019-01-01', 'year'))).toBe(false);
  });

  it('end "2019" is not before start "14 May 2019"', () => {
    expect(isEndBeforeStart(md('2019-05-14', 'day'), md('2019-01-01', 'year'))).toBe(false);
  });

  it('end April 2019 is before start 14 May 2019 (compared as months)', () => {
    expect(isEndBeforeStart(md('2019-05-14', 'day'), md('2019-04-01', 'month'))).toBe(true);
  });

  it('end May 2019 is not before start 14 May 2019', () => {
    expect(isEndBeforeStart(md('2019-05-14', 'day'), md('2019-05-01', 'month'))).toBe(false);
  });

  it('end 1 May 2019 is not before start "May 2019"', () => {
    expect(isEndBeforeStart(md('2019-05-01', 'month'), md('2019-05-01', 'day'))).toBe(false);
  });

  it('end 2018 is before start "May 2019"', () => {
    expect(isEndBeforeStart(md('2019-05-01', 'month'), md('2018-01-01', 'year'))).toBe(true);
  });

  it('compares days when both are days', () => {
    expect(isEndBeforeStart(md('2019-05-14', 'day'), md('2019-05-13', 'day'))).toBe(true);
    expect(isEndBeforeStart(md('2019-05-14', 'day'), md('2019-05-14', 'day'))).toBe(false);
    expect(isEndBeforeStart(md('2019-05-14', 'day'), md('2019-05-15', 'day'))).toBe(false);
  });

  it('compares years when both are years', () => {
    expect(isEndBeforeStart(md('2019-01-01', 'year'), md('2018-01-01', 'year'))).toBe(true);
    expect(isEndBeforeStart(md('2019-01-01', 'year'), md('2019-01-01', 'year'))).toBe(false);
  });

  it('past or missing on either side never compares', () => {
    const day = md('2019-05-14', 'day');
    const early = md('2000-01-01', 'day');
    expect(isEndBeforeStart(md(null, 'past'), early)).toBe(false);
    expect(isEndBeforeStart(day, md(null, 'past'))).toBe(false);
    expect(isEndBeforeStart(md(null, null), early)).toBe(false);
    expect(isEndBeforeStart(day, md(null, null))).toBe(false);
    expect(isEndBeforeStart(md('2019-05-14', null), early)).toBe(false);
    expect(isEndBeforeStart(md('2019-05-14', 'past'), early)).toBe(false);
    expect(isEndBeforeStart(day, md('2000-01-01', 'past'))).toBe(false);
  });
});

describe('formatMedicalDate', () => {
  const pastEn = 'In the past';
  const pastEl = 'Στο παρελθόν';

  describe('en', () => {
    it('a day as "14 May 2019"', () => {
      expect(formatMedicalDate(md('2019-05-14', 'day'), 'en', pastEn)).toBe('14 May 2019');
      expect(formatMedicalDate(md('2024-02-29', 'day'), 'en', pastEn)).toBe('29 February 2024');
      expect(formatMedicalDate(md('2019-12-31', 'day'), 'en', pastEn)).toBe('31 December 2019');
    });

    it('a month as "May 2019"', () => {
      expect(formatMedicalDate(md('2019-05-01', 'month'), 'en', pastEn)).toBe('May 2019');
    });

    it('a year as "2019", never a made-up first of January', () => {
      expect(formatMedicalDate(md('2019-01-01', 'year'), 'en', pastEn)).toBe('2019');
    });

    it('past as the given text', () => {
      expect(formatMedicalDate(md(null, 'past'), 'en', pastEn)).toBe(pastEn);
    });

    it('no date as nothing', () => {
      expect(formatMedicalDate(md(null, null), 'en', pastEn)).toBe('');
      expect(formatMedicalDate(md('2019-05-14', null), 'en', pastEn)).toBe('');
      expect(formatMedicalDate(md(null, 'day'), 'en', pastEn)).toBe('');
    });
  });

  describe('el', () => {
    it('a day in Greek', () => {
      const text = formatMedicalDate(md('2019-05-14', 'day'), 'el', pastEl);
      expect(text).toContain('2019');
      expect(text).toContain('14');
      expect(text).not.toBe(formatMedicalDate(md('2019-05-14', 'day'), 'en', pastEn));
      expect(text).not.toMatch(/May/);
    });

    it('a month in Greek', () => {
      const text = formatMedicalDate(md('2019-05-01', 'month'), 'el', pastEl);
      expect(text).toContain('2019');
      expect(text).not.toBe('May 2019');
      expect(text).not.toMatch(/May|\b1\b/);
    });

    it('a year as the year', () => {
      expect(formatMedicalDate(md('2019-01-01', 'year'), 'el', pastEl)).toBe('2019');
    });

    it('past as the given text', () => {
      expect(formatMedicalDate(md(null, 'past'), 'el', pastEl)).toBe(pastEl);
    });
  });

  it('does not shift the day with the time zone (dates are calendar dates)', () => {
    expect(formatMedicalDate(md('2019-01-01', 'day'), 'en', pastEn)).toBe('1 January 2019');
    expect(formatMedicalDate(md('2019-01-01', 'month'), 'en', pastEn)).toBe('January 2019');
  });
});
