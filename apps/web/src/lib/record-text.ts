import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import { countryName } from '@healthbook/shared/records/choices';
import type { CategoryDefinition, RecordField } from '@healthbook/shared/records/fields';
import { formatMedicalDate, type DatePart } from '@healthbook/shared/records/medical-date';
import { displayUnit, toDisplay, type Measure } from '@healthbook/shared/records/units';

/** Namespaces of the records pages: their own texts, the shared field labels and choices, the rules' messages. */
export const RECORD_NAMESPACES = ['healthRecords', 'records', 'validation'] as const;

/** The label of a field of a category (a category may name a shared field its own way). */
export function fieldLabel(t: TFunction, category: CategoryDefinition, field: string): string {
  return t([`records:categoryFields.${category.key}.${field}`, `records:fields.${field}`]);
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
export function formatField(t: TFunction, locale: string, category: CategoryDefinition, field: RecordField, record: Record<string, unknown>, imperial: boolean): string {
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

/** What a record is called: its title field as text. */
export function recordTitle(t: TFunction, locale: string, record: HealthRecord): string {
  const category = categoryDefinition(record.record_type);
  if (!category) return '';
  const field = category.fields.find((f) => f.name === category.titleField)!;
  return formatField(t, locale, category, field, record, false) || t('healthRecords:untitled');
}

/** The date a record is known by (its category's date field), as text. */
export function recordDate(t: TFunction, locale: string, category: CategoryDefinition, record: Record<string, unknown>): string {
  if (!category.dateField) return '';
  const field = category.fields.find((f) => f.name === category.dateField)!;
  return formatField(t, locale, category, field, record, false);
}

/** The category's name, one or many. */
export const categoryName = (t: TFunction, key: string, plural = false) => t(`records:categories.${key}.${plural ? 'other' : 'one'}`);

/** The translation function and locale of the records pages. */
export function useRecordText() {
  const { t, i18n } = useTranslation(RECORD_NAMESPACES);
  const locale = i18n.resolvedLanguage ?? 'en';
  return { t, locale };
}
