import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import type { CategoryDefinition, RecordField } from '@healthbook/shared/records/fields';
import { formatField as formatSharedField, formatIsoDate, formatMeasurement } from '@healthbook/shared/records/format';

/** Namespaces of the records pages: their own texts, the shared field labels and choices, the rules' messages. */
export const RECORD_NAMESPACES = ['healthRecords', 'records', 'validation'] as const;

/** The label of a field of a category (a category may name a shared field its own way). */
export function fieldLabel(t: TFunction, category: CategoryDefinition, field: string): string {
  return t([`records:categoryFields.${category.key}.${field}`, `records:fields.${field}`]);
}

export { formatIsoDate, formatMeasurement };

/** One field of a record as text, or '' when it has no value. */
export function formatField(t: TFunction, locale: string, _category: CategoryDefinition, field: RecordField, record: Record<string, unknown>, imperial: boolean): string {
  return formatSharedField((key) => t(key), locale, field, record, imperial);
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
