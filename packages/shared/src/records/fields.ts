/**
 * How a health-record category is described: its fields, as data. The server's routes and
 * OPTIONS answer, the validation on both sides, the web form and the list columns are all
 * derived from these descriptions (categories.ts holds the fifteen of them).
 */
import type { FeatureKey } from '../features';
import type { ChoiceListName } from './choices';

interface FieldBase {
  /** The API name (snake_case), also the form's. */
  name: string;
  /** Required on create (and on a full update). */
  required?: boolean;
  /** A column of the category's list (in this order). */
  column?: boolean;
  /** Searched by the list's `search`. */
  searchable?: boolean;
  /** A hint under the form field (key under records:hints). */
  hint?: string;
}

/** One line of text, or several (`multiline`). */
export interface TextField extends FieldBase {
  kind: 'text';
  max: number;
  multiline?: boolean;
}

/** A number within [min, max]; `integer` refuses fractions; `decimals` rounds what is kept. */
export interface NumberField extends FieldBase {
  kind: 'number';
  min?: number;
  max?: number;
  integer?: boolean;
  decimals?: number;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
}

/** One value of a named choice list (choices.ts); the labels come in the reader's language. */
export interface ChoiceField extends FieldBase {
  kind: 'choice';
  list: ChoiceListName;
}

/**
 * A medical date (medical-date.ts): the API carries `<name>` (YYYY-MM-DD or null) and
 * `<name>_part` (day | month | year | past | null).
 */
export interface MedicalDateField extends FieldBase {
  kind: 'medicalDate';
}

/** An exact calendar date (YYYY-MM-DD), picked with the date picker (min 1910-01-01). */
export interface DateField extends FieldBase {
  kind: 'date';
  /** Filled with today when a record is created without it. */
  defaultToday?: boolean;
}

/** A country, as an ISO 3166-1 alpha-2 code; the apps name it in the reader's language. */
export interface CountryField extends FieldBase {
  kind: 'country';
}

/** A measurement of a biometrics record, kept in SI (or the clinical unit) and shown in the reader's units. */
export interface MeasurementField extends FieldBase {
  kind: 'measurement';
}

export type RecordField = TextField | NumberField | BooleanField | ChoiceField | MedicalDateField | DateField | CountryField | MeasurementField;
export type FieldKind = RecordField['kind'];

/** A rule over two fields of a record. */
export type CrossRule =
  /** end-before-start: the end may not be before the start (medical dates, at their common precision). */
  | { rule: 'endAfterStart'; start: string; end: string }
  /** A number that may not be below another (an end age below a start age; a dose above the series). */
  | { rule: 'notBelow'; low: string; high: string; message: string }
  /** A biometric value within its measure's range (units.ts); blood pressure needs its diastolic value, below the systolic. */
  | { rule: 'measurement'; measure: string; value: string; secondary: string };

/**
 * Several fields read as one line (format.ts): a medicine's dosing as an instruction ("1 tablet
 * every 12 hours"), a lab result with its units, its reference range, its flag. The row takes the
 * place of its fields wherever a record is read (lists, details, shares, the PDF), at the first
 * of them; the form keeps the fields.
 */
export interface ReadingRow {
  /** The row's name: its label is records:readings.<name>. */
  name: string;
  /** How the fields are put into words (format.ts). */
  format: 'dosing' | 'result' | 'referenceRange' | 'labFlag';
  fields: readonly string[];
  /** A column of the category's list. */
  column?: boolean;
}

export interface CategoryDefinition {
  /** The `{category}` of /api/v1/hr/{category}/. */
  key: string;
  /** The hub feature whose menu item opens this category (the API itself follows health-records). */
  menuFeature?: FeatureKey;
  /** A Material icon name. */
  icon: string;
  /** What names a record in a list, a title, a message. */
  titleField: string;
  /** The date a record is ordered and filtered by (`date_from`, `date_to`); none: when it was added. */
  dateField?: string;
  fields: readonly RecordField[];
  rules?: readonly CrossRule[];
  /** Fields that read as one line (ReadingRow). */
  readAs?: readonly ReadingRow[];
  /** Default ordering of the list (an orderable field, `-` for descending). */
  ordering: string;
}

/** Fields every category has besides its own. */
export const COMMON_FIELDS = {
  /** "For my eyes only": shown to its owner only, never to anyone else. */
  private: 'private',
} as const;
