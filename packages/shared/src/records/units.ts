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
