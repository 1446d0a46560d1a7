/**
 * A record's values as text a person reads, in their language: the one formatting of the web
 * pages, the shared-record page and the PDF. `t` translates a key of the records namespace
 * (records:…), as i18next's t or the shared translate() does.
 */
import { CHOICE_LISTS, countryName } from './choices';
import type { CategoryDefinition, ReadingRow, RecordField } from './fields';
import { formatMedicalDate, type DatePart } from './medical-date';
import { displayUnit, toDisplay, type Measure } from './units';

export type TranslateKey = (key: string, vars?: Record<string, string | number>) => string;

/** The label of a field of a category (a category may name a shared field its own way). */
export function formatFieldLabel(t: TranslateKey, category: CategoryDefinition, field: string): string {
  const own = `records:categoryFields.${category.key}.${field}`;
  const label = t(own);
  return label && label !== own && label !== `categoryFields.${category.key}.${field}` ? label : t(`records:fields.${field}`);
}

/** A YYYY-MM-DD date in the reader's language. */
export function formatIsoDate(value: string, locale: string): string {
  return formatMedicalDate({ date: value, part: 'day' }, locale, '');
}

/** A measurement in the reader's units ("72.5 kg", "160 lb", "120/80 mmHg"). */
export function formatMeasurement(measure: Measure, value: number, secondary: number | null, imperial: boolean, locale: string): string {
  const unit = displayUnit(measure, imperial);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: unit.decimals }).format(toDisplay(measure, value, imperial));
  if (measure === 'blood_pressure' && secondary !== null) return `${number}/${new Intl.NumberFormat(locale).format(secondary)} ${unit.unit}`;
  return `${number} ${unit.unit}`;
}

/** One field of a record as text, or '' when it has no value. */
export function formatField(t: TranslateKey, locale: string, field: RecordField, record: Record<string, unknown>, imperial: boolean): string {
  const value = record[field.name];
  switch (field.kind) {
    case 'medicalDate':
      return formatMedicalDate({ date: (value as string | null) ?? null, part: (record[`${field.name}_part`] as DatePart | null) ?? null }, locale, t('records:inThePast'));
    case 'date':
      return typeof value === 'string' ? formatIsoDate(value, locale) : '';
    case 'boolean':
      return value === true ? t('records:boolean.true') : t('records:boolean.false');
    case 'choice':
      return typeof value === 'string' ? t(`records:choices.${field.list}.${value}`) : '';
    case 'country':
      return typeof value === 'string' ? countryName(value, locale) : '';
    case 'measurement': {
      const measure = record.measure as Measure | null;
      if (typeof value !== 'number' || !measure) return '';
      return formatMeasurement(measure, value, (record.diastolic as number | null) ?? null, imperial, locale);
    }
    case 'number':
      return typeof value === 'number' ? new Intl.NumberFormat(locale, { maximumFractionDigits: field.decimals ?? 0 }).format(value) : '';
    case 'text':
      return typeof value === 'string' ? value : '';
  }
}

/** What a record is called: its title field as text ('' when it has none). */
export function formatRecordTitle(t: TranslateKey, locale: string, category: CategoryDefinition, record: Record<string, unknown>): string {
  const field = category.fields.find((f) => f.name === category.titleField)!;
  return formatField(t, locale, field, record, false);
}

/** What a record is read as, in its category's order: its fields, and rows that read several fields as one (ReadingRow). */
export type ReadingItem = { kind: 'field'; name: string; field: RecordField; column: boolean } | { kind: 'row'; name: string; row: ReadingRow; column: boolean };

/** The items a category's records are read as: each field, or the row it belongs to in its place (at the row's first field). */
export function readingItems(category: CategoryDefinition): ReadingItem[] {
  const items: ReadingItem[] = [];
  const placed = new Set<string>();
  for (const field of category.fields) {
    const row = category.readAs?.find((r) => r.fields.includes(field.name));
    if (!row) items.push({ kind: 'field', name: field.name, field, column: field.column === true });
    else if (!placed.has(row.name)) {
      placed.add(row.name);
      items.push({ kind: 'row', name: row.name, row, column: row.column === true });
    }
  }
  return items;
}

/** An item's label. */
export function formatItemLabel(t: TranslateKey, category: CategoryDefinition, item: ReadingItem): string {
  return item.kind === 'row' ? t(`records:readings.${item.name}`) : formatFieldLabel(t, category, item.name);
}

/** An item of a record as text ('' when it has no value). */
export function formatItem(t: TranslateKey, locale: string, item: ReadingItem, record: Record<string, unknown>, imperial = false): string {
  if (item.kind === 'field') return formatField(t, locale, item.field, record, imperial);
  switch (item.row.format) {
    case 'dosing':
      return formatDosing(t, locale, record);
    case 'result':
      return formatLabResult(locale, record);
    case 'referenceRange':
      return formatReferenceRange(locale, record);
    case 'labFlag': {
      const flag = labFlag(record);
      return flag ? t(`records:choices.labFlag.${flag}`) : labWithinRange(record) ? t('records:labNormal') : '';
    }
  }
}

/** Every field of a record that has a value, labelled, in the category's order (a false flag counts as a value; rows of several fields in their place). */
export function readableFields(t: TranslateKey, locale: string, category: CategoryDefinition, record: Record<string, unknown>, imperial = false): Array<{ name: string; label: string; value: string }> {
  const rows: Array<{ name: string; label: string; value: string }> = [];
  for (const item of readingItems(category)) {
    // The diastolic value is shown with the systolic one ("120/80 mmHg").
    if (category.key === 'biometrics' && item.name === 'diastolic') continue;
    const value = formatItem(t, locale, item, record, imperial);
    if (value === '' || (item.kind === 'field' && item.field.kind === 'boolean' && record[item.name] !== true && record[item.name] !== false)) continue;
    rows.push({ name: item.name, label: formatItemLabel(t, category, item), value });
  }
  return rows;
}

// --- Lab results -------------------------------------------------------------------------------

export type LabFlag = (typeof CHOICE_LISTS)['labFlag'][number];

/** A number of a record's values: a number, or a number as text (what a form holds). */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*[-+]?(\d+[.,]?\d*|[.,]\d+)\s*$/.test(value)) return Number(value.trim().replace(',', '.'));
  return null;
}

/**
 * A lab result's flag: the one set by hand (a critical value, say), else low or high from the
 * result and its numeric reference range, else "abnormal" for a result marked outside the normal
 * range; null for a result within its range or with nothing to tell.
 */
export function labFlag(record: Record<string, unknown>): LabFlag | null {
  const own = record.flag;
  if (typeof own === 'string' && (CHOICE_LISTS.labFlag as readonly string[]).includes(own)) return own as LabFlag;
  const result = numberOf(record.result);
  const low = numberOf(record.range_low);
  const high = numberOf(record.range_high);
  if (result !== null && (low !== null || high !== null)) {
    if (low !== null && result < low) return 'low';
    if (high !== null && result > high) return 'high';
    return null;
  }
  return record.within_normal_range === false ? 'abnormal' : null;
}

/** A result known to be within its normal range: marked so, or within its numeric range (and not flagged). */
export function labWithinRange(record: Record<string, unknown>): boolean {
  if (labFlag(record)) return false;
  const result = numberOf(record.result);
  return record.within_normal_range === true || (result !== null && (numberOf(record.range_low) !== null || numberOf(record.range_high) !== null));
}

const labNumber = (locale: string, value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(value);
const withUnits = (text: string, record: Record<string, unknown>) => (typeof record.units === 'string' && record.units.trim() ? `${text} ${record.units.trim()}` : text);

/** A lab result with its units as entered ("5.4 mmol/L"). */
export function formatLabResult(locale: string, record: Record<string, unknown>): string {
  const result = numberOf(record.result);
  if (result === null) return typeof record.result === 'string' ? record.result : '';
  return withUnits(labNumber(locale, result), record);
}

/** A reference range: "3.5–5.5 mmol/L", "≥ 40 mg/dL", "≤ 5.2 mmol/L", its text, or both ("< 200 mg/dL (desirable)"). */
export function formatReferenceRange(locale: string, record: Record<string, unknown>): string {
  const low = numberOf(record.range_low);
  const high = numberOf(record.range_high);
  const text = typeof record.range_text === 'string' ? record.range_text.trim() : '';
  const numeric =
    low !== null && high !== null
      ? withUnits(`${labNumber(locale, low)}–${labNumber(locale, high)}`, record)
      : low !== null
        ? withUnits(`≥ ${labNumber(locale, low)}`, record)
        : high !== null
          ? withUnits(`≤ ${labNumber(locale, high)}`, record)
          : '';
  if (numeric && text) return `${numeric} (${text})`;
  return numeric || text;
}

// --- Medicines ---------------------------------------------------------------------------------

/** Dose units counted in pieces ("1 tablet", "2 tablets"); the others are measures ("500 mg"). */
const COUNTED_UNITS = new Set(['tablet', 'capsule', 'drop', 'puff', 'patch', 'unit']);

/** The plural form ("one" or "other") of a number in a language (the catalogs have those two). */
const pluralOf = (locale: string, n: number) => (new Intl.PluralRules(locale).select(n) === 'one' ? 'one' : 'other');

/**
 * A medicine's dose and timing as an instruction, in the reader's language: "1 tablet every 12
 * hours", "500 mg twice a day", "2 puffs 3 times a week, as needed", "As needed". The record says
 * the dose (`dosage` `unit`), how many times (`times`, absent: once) every `frequency` `repeat`
 * (hours, days, weeks, months), and whether it is taken only when needed (`as_needed`).
 * '' when it says none of these.
 */
export function formatDosing(t: TranslateKey, locale: string, record: Record<string, unknown>): string {
  const dosage = numberOf(record.dosage);
  const unit = typeof record.unit === 'string' && (CHOICE_LISTS.doseUnit as readonly string[]).includes(record.unit) ? record.unit : null;
  const every = numberOf(record.frequency);
  const times = numberOf(record.times);
  const repeat = typeof record.repeat === 'string' && (CHOICE_LISTS.repeat as readonly string[]).includes(record.repeat) ? record.repeat : null;
  const asNeeded = record.as_needed === true;

  const parts: string[] = [];
  if (dosage !== null) {
    const amount = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(dosage);
    if (!unit) parts.push(amount);
    else if (COUNTED_UNITS.has(unit)) parts.push(t(`records:dosing.pieces.${unit}_${pluralOf(locale, dosage)}`, { n: amount }));
    else parts.push(`${amount} ${t(`records:choices.doseUnit.${unit}`)}`);
  } else if (unit && COUNTED_UNITS.has(unit)) parts.push(t(`records:dosing.pieces.${unit}_one`, { n: new Intl.NumberFormat(locale).format(1) }));

  if (repeat) {
    const n = every ?? 1;
    const k = times ?? 1;
    const count = new Intl.NumberFormat(locale).format(n);
    const many = new Intl.NumberFormat(locale).format(k);
    if (k === 1) parts.push(n === 1 ? t(`records:dosing.once.${repeat}`) : t(`records:dosing.every.${repeat}`, { n: count }));
    else if (n === 1) parts.push(k === 2 ? t(`records:dosing.twice.${repeat}`) : t(`records:dosing.times.${repeat}`, { times: many }));
    else parts.push(t(`records:dosing.timesEvery.${repeat}`, { times: many, n: count }));
  } else if (every !== null || times !== null) {
    // A count without its period (an old record): said as it is.
    parts.push(t('records:dosing.timesOnly', { times: new Intl.NumberFormat(locale).format(times ?? every ?? 1) }));
  }

  let sentence = parts.join(' ');
  if (asNeeded) sentence = sentence ? t('records:dosing.withAsNeeded', { dosing: sentence }) : t('records:dosing.asNeeded');
  return sentence ? sentence.charAt(0).toUpperCase() + sentence.slice(1) : '';
}
