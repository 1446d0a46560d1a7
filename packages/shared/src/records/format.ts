/**
 * A record's values as text a person reads, in their language: the one formatting of the web
 * pages, the shared-record page and the PDF. `t` translates a key of the records namespace
 * (records:…), as i18next's t or the shared translate() does.
 */
import { countryName } from './choices';
import type { CategoryDefinition, RecordField } from './fields';
import { formatMedicalDate, type DatePart } from './medical-date';
import { displayUnit, toDisplay, type Measure } from './units';

export type TranslateKey = (key: string) => string;

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

/** Every field of a record that has a value, labelled, in the category's order (a false flag counts as a value). */
export function readableFields(t: TranslateKey, locale: string, category: CategoryDefinition, record: Record<string, unknown>, imperial = false): Array<{ name: string; label: string; value: string }> {
  const rows: Array<{ name: string; label: string; value: string }> = [];
  for (const field of category.fields) {
    // The diastolic value is shown with the systolic one ("120/80 mmHg").
    if (category.key === 'biometrics' && field.name === 'diastolic') continue;
    const value = formatField(t, locale, field, record, imperial);
    if (value === '' || (field.kind === 'boolean' && record[field.name] !== true && record[field.name] !== false)) continue;
    rows.push({ name: field.name, label: formatFieldLabel(t, category, field.name), value });
  }
  return rows;
}
