import { CATEGORY_KEYS } from '@healthbook/shared/records/categories';

/** The record categories a person may be limited to, in the catalogue's order. */
export const CARE_CATEGORIES: readonly string[] = CATEGORY_KEYS;

/** A category's plural name in the reader's language (records catalog). */
export const categoryLabel = (t: (key: string) => string, key: string) => t(`records:categories.${key}.other`);
