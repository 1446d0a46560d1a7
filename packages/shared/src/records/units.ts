/**
 * Biometric measures: kept in SI units (blood pressure in mmHg, the clinical unit everywhere),
 * shown in the user's units (`imperial_units` of the profile). Ranges are what a human body can
 * show, so that a typo (75 kg typed as 750) is caught.
 */
import type { CHOICE_LISTS } from './choices';

export type Measure = (typeof CHOICE_LISTS)['measure'][number];

interface MeasureSpec {
  /** The stored unit. */
  unit: string;
  /** Accepted stored values. */
  min: number;
  max: number;
  /** Decimals kept when stored. */
  decimals: number;
  /** How a metric and an imperial reader see it: unit, factor from the stored unit (or a function), decimals. */
  metric: DisplayUnit;
  imperial: DisplayUnit;
}

interface DisplayUnit {
  unit: string;
  toDisplay: (stored: number) => number;
  fromDisplay: (shown: number) => number;
  decimals: number;
}

const scale = (unit: string, factor: number, decimals: number): DisplayUnit => ({
  unit,
  toDisplay: (v) => v * factor,
  fromDisplay: (v) => v / factor,
  decimals,
});
const same = (unit: string, decimals = 0): DisplayUnit => scale(unit, 1, decimals);

export const MEASURES: Record<Measure, MeasureSpec> = {
  weight: { unit: 'kg', min: 0.2, max: 500, decimals: 2, metric: same('kg', 1), imperial: scale('lb', 2.2046226218, 1) },
  height: { unit: 'm', min: 0.2, max: 2.75, decimals: 3, metric: scale('cm', 100, 1), imperial: scale('in', 39.37007874, 1) },
  blood_pressure: { unit: 'mmHg', min: 40, max: 300, decimals: 0, metric: same('mmHg'), imperial: same('mmHg') },
  heart_rate: { unit: 'bpm', min: 20, max: 300, decimals: 0, metric: same('bpm'), imperial: same('bpm') },
  glucose: { unit: 'mmol/L', min: 0.5, max: 60, decimals: 2, metric: same('mmol/L', 1), imperial: scale('mg/dL', 18.0156, 0) },
  temperature: {
    unit: '°C',
    min: 25,
    max: 45,
    decimals: 2,
    metric: same('°C', 1),
    imperial: { unit: '°F', toDisplay: (c) => (c * 9) / 5 + 32, fromDisplay: (f) => ((f - 32) * 5) / 9, decimals: 1 },
  },
  oxygen_saturation: { unit: '%', min: 50, max: 100, decimals: 0, metric: same('%'), imperial: same('%') },
};

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

export const displayUnit = (measure: Measure, imperial: boolean): DisplayUnit => (imperial ? MEASURES[measure].imperial : MEASURES[measure].metric);

/** A stored value as the reader sees it (rounded to the display unit's decimals). */
export function toDisplay(measure: Measure, stored: number, imperial: boolean): number {
  const u = displayUnit(measure, imperial);
  return round(u.toDisplay(stored), u.decimals);
}

/** What the reader typed, in the stored unit (rounded to what is kept). */
export function fromDisplay(measure: Measure, shown: number, imperial: boolean): number {
  return round(displayUnit(measure, imperial).fromDisplay(shown), MEASURES[measure].decimals);
}

/** A stored value rounded to what is kept. */
export const roundStored = (measure: Measure, value: number) => round(value, MEASURES[measure].decimals);

// --- Lab results ---------------------------------------------------------------------------------
// A lab result keeps the units it was entered with. Results of one test given in different units
// (a glucose in mg/dL, a later one in mmol/L) are put in one unit only where the conversion is
// known: between spellings of one unit, between units of mass concentration, and for a few tests
// whose molar mass is known (glucose, cholesterol, triglycerides, creatinine, urea). Otherwise no
// conversion is offered and the reader sees the value as entered.

/** A unit's spelling reduced to compare units ("mmol/l", "μmol/L" and "umol/L" are one each). */
export function normaliseLabUnit(unit: string): string {
  return unit.trim().toLowerCase().replace(/\s+/g, '').replace(/[µμ]/g, 'u').replace(/^mcmol/, 'umol').replace(/^mcg/, 'ug');
}

/** Units of mass concentration, as grams per litre. */
const MASS_PER_LITRE: Readonly<Record<string, number>> = { 'g/l': 1, 'g/dl': 10, 'mg/dl': 0.01, 'mg/l': 0.001, 'ug/l': 1e-6, 'ug/dl': 1e-5, 'ng/ml': 1e-6 };
/** Units of amount concentration, as moles per litre. */
const MOLES_PER_LITRE: Readonly<Record<string, number>> = { 'mol/l': 1, 'mmol/l': 1e-3, 'umol/l': 1e-6, 'nmol/l': 1e-9 };

/** Tests whose molar mass (g/mol) is known, by the words that name them in English and Greek. */
const MOLAR_MASS: ReadonlyArray<{ names: RegExp; grams: number }> = [
  { names: /gluc|γλυκ[οό]ζ|σάκχαρ|σακχαρ/i, grams: 180.16 },
  { names: /cholest|χοληστερ|hdl|ldl/i, grams: 386.65 },
  { names: /triglycer|τριγλυκερ/i, grams: 885.7 },
  { names: /creatinin|κρεατινίν|κρεατινιν/i, grams: 113.12 },
  { names: /\burea\b|ουρία|ουρια/i, grams: 60.06 },
];

/**
 * A lab value in another unit, or null when the conversion is not known for this test: the same
 * unit spelled otherwise, mass to mass, amount to amount, and mass to amount for tests of known
 * molar mass.
 */
export function convertLabValue(test: string, value: number, from: string, to: string): number | null {
  const a = normaliseLabUnit(from);
  const b = normaliseLabUnit(to);
  if (a === b) return value;
  const massA = MASS_PER_LITRE[a];
  const massB = MASS_PER_LITRE[b];
  const molA = MOLES_PER_LITRE[a];
  const molB = MOLES_PER_LITRE[b];
  if (massA !== undefined && massB !== undefined) return (value * massA) / massB;
  if (molA !== undefined && molB !== undefined) return (value * molA) / molB;
  const grams = MOLAR_MASS.find((m) => m.names.test(test))?.grams;
  if (grams === undefined) return null;
  if (massA !== undefined && molB !== undefined) return (value * massA) / grams / molB;
  if (molA !== undefined && massB !== undefined) return (value * molA * grams) / massB;
  return null;
}

/** The name a test is grouped by in a trend: its words, whatever their case and spacing. */
export const labTestKey = (test: string): string => test.trim().toLocaleLowerCase().replace(/\s+/g, ' ');
