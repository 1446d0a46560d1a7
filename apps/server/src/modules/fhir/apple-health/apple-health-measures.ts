/**
 * Apple Health's quantity records read as biometrics: which record types we keep, their units in
 * the units the biometrics category stores (packages/shared units.ts), Apple's dates as instants,
 * and an instant's calendar day in a time zone. Pure functions, so each rule is tested on its own.
 */
import { MEASURES, roundStored, type Measure } from '@healthbook/shared';
import { toStoredUnit } from '../fhir.mapping';

export type BiometricMeasure = Measure;

/**
 * The quantity types kept, by Apple's identifier. The blood pressure parts are not here: Apple
 * writes each systolic and diastolic reading twice, once as a record of its own and once inside
 * its blood pressure correlation, and only the correlation pairs them.
 */
export const APPLE_QUANTITY_TYPES: ReadonlyMap<string, BiometricMeasure> = new Map([
  ['HKQuantityTypeIdentifierBodyMass', 'weight'],
  ['HKQuantityTypeIdentifierHeight', 'height'],
  ['HKQuantityTypeIdentifierHeartRate', 'heart_rate'],
  ['HKQuantityTypeIdentifierBloodGlucose', 'glucose'],
  ['HKQuantityTypeIdentifierOxygenSaturation', 'oxygen_saturation'],
  ['HKQuantityTypeIdentifierBodyTemperature', 'temperature'],
]);
export const APPLE_BLOOD_PRESSURE = 'HKCorrelationTypeIdentifierBloodPressure';
export const APPLE_SYSTOLIC = 'HKQuantityTypeIdentifierBloodPressureSystolic';
export const APPLE_DIASTOLIC = 'HKQuantityTypeIdentifierBloodPressureDiastolic';

/**
 * Apple's unit strings per measure, as the UCUM code fhir.mapping's `toStoredUnit` converts from
 * (so that a pound or a degree Fahrenheit is converted in one place for FHIR and for Apple), or
 * as a factor to that code where UCUM has no unit `toStoredUnit` knows (feet, stones). A unit
 * not listed is refused rather than guessed.
 */
const UNITS: Readonly<Record<BiometricMeasure, Readonly<Record<string, { ucum: string; factor?: number }>>>> = {
  weight: { kg: { ucum: 'kg' }, g: { ucum: 'g' }, lb: { ucum: '[lb_av]' }, st: { ucum: 'kg', factor: 6.35029318 } },
  height: { m: { ucum: 'm' }, cm: { ucum: 'cm' }, mm: { ucum: 'mm' }, in: { ucum: '[in_i]' }, ft: { ucum: '[in_i]', factor: 12 } },
  heart_rate: { 'count/min': { ucum: '/min' }, 'count/s': { ucum: '/min', factor: 60 } },
  // Apple writes a molar glucose unit with its molar mass: `mmol<180.1558800000541>/L`.
  glucose: { 'mg/dL': { ucum: 'mg/dL' }, 'mmol/L': { ucum: 'mmol/L' } },
  temperature: { degC: { ucum: 'Cel' }, degF: { ucum: '[degF]' } },
  // Apple keeps a saturation as a fraction (0.97) in the unit `%`: the percentage is a hundred times it.
  oxygen_saturation: { '%': { ucum: '%', factor: 100 } },
  blood_pressure: { mmHg: { ucum: 'mm[Hg]' } },
};

/** Apple's unit spelled as the table's: the molar mass in angle brackets dropped. */
const plainUnit = (unit: string) => (unit.includes('<') ? unit.replace(/<[^>]*>/g, '') : unit);

export type Conversion = { value: number } | { problem: 'unit' | 'range' | 'value' };

/**
 * A reading in its measure's stored unit, rounded as stored, or why not: a unit we do not know,
 * a value that is not a number, or one outside what the biometrics category accepts (a typo on
 * the phone, a sensor's glitch) which the record's own validation would refuse.
 */
export function toStoredValue(measure: BiometricMeasure, value: string | number, unit: string): Conversion {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || (typeof value === 'string' && value.trim() === '')) return { problem: 'value' };
  const known = UNITS[measure][plainUnit(unit)];
  if (!known) return { problem: 'unit' };
  const converted = toStoredUnit(measure, { value: n * (known.factor ?? 1), code: known.ucum });
  if (converted === undefined || !Number.isFinite(converted)) return { problem: 'value' };
  const stored = roundStored(measure, converted);
  const spec = MEASURES[measure];
  if (stored < spec.min || stored > spec.max) return { problem: 'range' };
  return { value: stored };
}

/** The stored unit of a measure, as the biometrics category names it. */
export const storedUnit = (measure: BiometricMeasure) => MEASURES[measure].unit;

const APPLE_DATE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)? ?(?:([+-])(\d{2}):?(\d{2})|Z)?$/;

/**
 * Apple's date ("2023-01-01 08:00:00 +0200": the phone's wall clock and its offset) as epoch
 * milliseconds, or NaN. Parsed by hand: Date.parse does not read this form everywhere, and the
 * file holds hundreds of thousands of them.
 */
export function parseAppleDate(text: string): number {
  const m = APPLE_DATE.exec(text);
  if (!m) return Number.NaN;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (!m[7]) return wall;
  const offset = (+m[8]! * 60 + +m[9]!) * 60_000;
  return m[7] === '+' ? wall - offset : wall + offset;
}

/**
 * The calendar day (YYYY-MM-DD) of instants in one time zone. A zone's offset is looked up once
 * per quarter hour of time (no zone changes its offset between two quarter hours), and the last
 * lookup is kept: the readings of one type come in time order, so nearly every one hits it.
 */
export function dayInZone(timeZone: string): (ms: number) => string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const QUARTER = 15 * 60_000;
  let lastBucket = Number.NaN;
  let lastOffset = 0;
  const offsetAt = (ms: number) => {
    const bucket = Math.floor(ms / QUARTER);
    if (bucket === lastBucket) return lastOffset;
    const parts: Record<string, number> = {};
    for (const p of format.formatToParts(new Date(bucket * QUARTER))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
    lastBucket = bucket;
    lastOffset = wall - bucket * QUARTER;
    return lastOffset;
  };
  return (ms) => new Date(ms + offsetAt(ms)).toISOString().slice(0, 10);
}
