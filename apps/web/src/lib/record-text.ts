import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import type { CategoryDefinition, RecordField } from '@healthbook/shared/records/fields';
import { formatField as formatSharedField, formatIsoDate, formatItem as formatSharedItem, formatItemLabel, formatMeasurement, type ReadingItem, type TranslateKey } from '@healthbook/shared/records/format';

/** Namespaces of the records pages: their own texts, the shared field labels and choices, the rules' messages. */
export const RECORD_NAMESPACES = ['healthRecords', 'records', 'validation'] as const;

/** The label of a field of a category (a category may name a shared field its own way). */
export function fieldLabel(t: TFunction, category: CategoryDefinition, field: string): string {
  return t([`records:categoryFields.${category.key}.${field}`, `records:fields.${field}`]);
}

export { formatIsoDate, formatMeasurement };

/** i18next's t as the shared formatters take it. */
export const sharedT = (t: TFunction): TranslateKey => (key, vars) => t(key, vars ?? {});

/** One field of a record as text, or '' when it has no value. */
export function formatField(t: TFunction, locale: string, _category: CategoryDefinition, field: RecordField, record: Record<string, unknown>, imperial: boolean): string {
  return formatSharedField(sharedT(t), locale, field, record, imperial);
}

/** What a list or a detail shows of a record: a field, or a row of several (a medicine's dosing, a lab's range). */
export function formatItem(t: TFunction, locale: string, item: ReadingItem, record: Record<string, unknown>, imperial: boolean): string {
  return formatSharedItem(sharedT(t), locale, item, record, imperial);
}

/** The label of an item of a list. */
export const itemLabel = (t: TFunction, category: CategoryDefinition, item: ReadingItem): string => formatItemLabel(sharedT(t), category, item);

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
