/**
 * The health-record categories of the hub document (§3 "Record categories", "Allergy fields",
 * "Other record form fields"; §5 "Record form rules"), declared once each. Everything else —
 * the API's validation and OPTIONS answer, the list's columns, the web form — is derived.
 */
import type { CategoryDefinition, RecordField } from './fields';

const text = (name: string, max = 200, extra: Partial<RecordField> = {}): RecordField => ({ kind: 'text', name, max, ...extra }) as RecordField;
const note = (name = 'note'): RecordField => ({ kind: 'text', name, max: 4000, multiline: true, searchable: true });
const bool = (name: string, extra: Partial<RecordField> = {}): RecordField => ({ kind: 'boolean', name, ...extra }) as RecordField;
const date = (name: string, extra: Partial<RecordField> = {}): RecordField => ({ kind: 'medicalDate', name, ...extra }) as RecordField;
const int = (name: string, min: number, max: number, extra: Partial<RecordField> = {}): RecordField =>
  ({ kind: 'number', name, min, max, integer: true, ...extra }) as RecordField;

/** Intensity 1-10; frequency 1-100; immunisation counts 1-100; ages 1-120 (§5). */
export const RECORD_LIMITS = {
  intensity: { min: 1, max: 10 },
  frequency: { min: 1, max: 100 },
  count: { min: 1, max: 100 },
  age: { min: 1, max: 120 },
} as const;

/** condition and symptom share their form (§3). */
const conditionFields = (title: string): RecordField[] => [
  text(title, 200, { required: true, column: true, searchable: true }),
  { kind: 'choice', name: 'verification_status', list: 'conditionVerification', column: true },
  date('start_date', { column: true }),
  date('end_date'),
  int('intensity', RECORD_LIMITS.intensity.min, RECORD_LIMITS.intensity.max, { column: true }),
  int('frequency', RECORD_LIMITS.frequency.min, RECORD_LIMITS.frequency.max),
  { kind: 'choice', name: 'interval', list: 'interval' },
  bool('verified'),
  note(),
];

/** surgery and procedure (§3). */
const procedureFields: RecordField[] = [
  text('procedure', 200, { required: true, column: true, searchable: true }),
  date('date', { column: true }),
  bool('biopsy'),
  bool('implant'),
  text('hospital_doctor', 200, { column: true, searchable: true }),
  text('facility', 200, { searchable: true }),
  text('complications', 2000, { multiline: true, searchable: true }),
  { kind: 'choice', name: 'outcome', list: 'outcome', column: true },
  note(),
];

/** medication and supplement (§3), with when it was started. */
const medicationFields: RecordField[] = [
  text('code', 200, { required: true, column: true, searchable: true }),
  text('ingredient', 200, { searchable: true }),
  { kind: 'number', name: 'dosage', min: 0.001, max: 100_000, decimals: 3, column: true },
  { kind: 'number', name: 'concentration', min: 0.001, max: 100_000, decimals: 3 },
  { kind: 'choice', name: 'unit', list: 'doseUnit', column: true },
  // Taken `times` (absent: once) every `frequency` `repeat`: 2 every 1 days, "twice a day"; 1 every 12 hours.
  int('times', RECORD_LIMITS.frequency.min, RECORD_LIMITS.frequency.max, { hint: 'times' }),
  int('frequency', RECORD_LIMITS.frequency.min, RECORD_LIMITS.frequency.max, { hint: 'every' }),
  { kind: 'choice', name: 'repeat', list: 'repeat' },
  bool('as_needed'),
  date('start_date'),
  bool('stopped', { column: true }),
  text('stop_reason', 500),
  note(),
];

/** A medicine's dose and timing read as one instruction (format.ts formatDosing). */
const medicationReading = [{ name: 'dosing', format: 'dosing', fields: ['dosage', 'unit', 'times', 'frequency', 'repeat', 'as_needed'], column: true }] as const;

/** lab and diagnostic (imaging: "similar to lab"). The lab result must be a number (§5). */
const testFields = (numericResult: boolean): RecordField[] => [
  text('test', 200, { required: true, column: true, searchable: true }),
  date('test_date', { column: true }),
  numericResult
    ? { kind: 'number', name: 'result', min: -1_000_000, max: 1_000_000, decimals: 4, required: true, column: true }
    : text('result', 2000, { multiline: true, column: true, searchable: true }),
  ...(numericResult
    ? [
        text('units', 40, { column: true }),
        { kind: 'number', name: 'range_low', min: -1_000_000, max: 1_000_000, decimals: 4 } as RecordField,
        { kind: 'number', name: 'range_high', min: -1_000_000, max: 1_000_000, decimals: 4 } as RecordField,
        text('range_text', 200, { hint: 'range_text' }),
        { kind: 'choice', name: 'flag', list: 'labFlag', hint: 'flag' } as RecordField,
      ]
    : [text('body_site', 200, { column: true, searchable: true })]),
  bool('within_normal_range', { column: !numericResult }),
  text('conclusion', 2000, { multiline: true, searchable: true }),
  note(),
];

export const CATEGORIES = [
  {
    key: 'condition',
    menuFeature: 'medical-history',
    icon: 'MonitorHeart',
    titleField: 'name',
    dateField: 'start_date',
    ordering: '-start_date',
    fields: conditionFields('name'),
    rules: [{ rule: 'endAfterStart', start: 'start_date', end: 'end_date' }],
  },
  {
    key: 'symptom',
    icon: 'Sick',
    titleField: 'name',
    dateField: 'start_date',
    ordering: '-start_date',
    fields: conditionFields('name'),
    rules: [{ rule: 'endAfterStart', start: 'start_date', end: 'end_date' }],
  },
  {
    key: 'medication',
    menuFeature: 'medications',
    icon: 'Medication',
    titleField: 'code',
    dateField: 'start_date',
    ordering: '-start_date',
    fields: medicationFields,
    readAs: medicationReading,
  },
  {
    key: 'allergy',
    menuFeature: 'allergies',
    icon: 'Coronavirus',
    titleField: 'code',
    dateField: 'onset_date',
    ordering: '-onset_date',
    fields: [
      text('code', 200, { required: true, column: true, searchable: true }),
      text('code_override', 200, { searchable: true }),
      { kind: 'choice', name: 'clinical_status', list: 'clinicalStatus', column: true },
      { kind: 'choice', name: 'verification_status', list: 'allergyVerification' },
      { kind: 'choice', name: 'type', list: 'allergyType', column: true },
      { kind: 'choice', name: 'category', list: 'allergyCategory', column: true },
      text('category_override', 200),
      { kind: 'choice', name: 'criticality', list: 'criticality', column: true },
      text('reaction', 500, { searchable: true, column: true }),
      { kind: 'choice', name: 'reaction_severity', list: 'severity' },
      date('onset_date', { column: true }),
      date('last_occurrence'),
      { kind: 'date', name: 'recorded_date', defaultToday: true },
      text('recorder', 200),
      note(),
    ],
    rules: [{ rule: 'endAfterStart', start: 'onset_date', end: 'last_occurrence' }],
  },
  {
    key: 'immunization',
    icon: 'Vaccines',
    titleField: 'vaccine_name',
    dateField: 'date',
    ordering: '-date',
    fields: [
      text('vaccine_name', 200, { required: true, column: true, searchable: true }),
      text('manufacturer', 200, { searchable: true }),
      int('dose_number', RECORD_LIMITS.count.min, RECORD_LIMITS.count.max, { column: true }),
      int('series_doses', RECORD_LIMITS.count.min, RECORD_LIMITS.count.max, { column: true }),
      date('date', { column: true }),
      text('occurrence', 200),
      text('reaction', 500, { searchable: true }),
      bool('stopped'),
      text('stop_reason', 500),
      note(),
    ],
    rules: [{ rule: 'notBelow', low: 'dose_number', high: 'series_doses', message: 'validation:doseAboveSeries' }],
  },
  {
    key: 'lab',
    menuFeature: 'diagnostic-tests',
    icon: 'Biotech',
    titleField: 'test',
    dateField: 'test_date',
    ordering: '-test_date',
    fields: testFields(true),
    rules: [{ rule: 'notBelow', low: 'range_low', high: 'range_high', message: 'validation:rangeHighBelowLow' }],
    readAs: [
      { name: 'result', format: 'result', fields: ['result', 'units'], column: true },
      { name: 'reference_range', format: 'referenceRange', fields: ['range_low', 'range_high', 'range_text'], column: true },
      { name: 'flag', format: 'labFlag', fields: ['flag', 'within_normal_range'], column: true },
    ],
  },
  {
    key: 'diagnostic',
    icon: 'ImageSearch',
    titleField: 'test',
    dateField: 'test_date',
    ordering: '-test_date',
    fields: testFields(false),
  },
  {
    key: 'medicalvisit',
    menuFeature: 'visits',
    icon: 'LocalHospital',
    titleField: 'reason',
    dateField: 'date',
    ordering: '-date',
    fields: [
      text('reason', 200, { required: true, column: true, searchable: true }),
      date('date', { column: true }),
      text('professional', 200, { column: true, searchable: true }),
      text('symptoms', 2000, { multiline: true, searchable: true }),
      text('findings', 2000, { multiline: true, searchable: true }),
      text('diagnosis', 2000, { multiline: true, column: true, searchable: true }),
      text('treatment', 2000, { multiline: true, searchable: true }),
      note(),
    ],
  },
  { key: 'surgery', icon: 'Healing', titleField: 'procedure', dateField: 'date', ordering: '-date', fields: procedureFields },
  { key: 'procedure', icon: 'MedicalServices', titleField: 'procedure', dateField: 'date', ordering: '-date', fields: procedureFields },
  {
    key: 'socialhistory',
    icon: 'Diversity1',
    titleField: 'category',
    ordering: '-created_at',
    fields: [
      { kind: 'choice', name: 'category', list: 'socialCategory', required: true, column: true },
      text('other_category', 200, { column: true, searchable: true }),
      int('start_age', RECORD_LIMITS.age.min, RECORD_LIMITS.age.max, { column: true }),
      int('end_age', RECORD_LIMITS.age.min, RECORD_LIMITS.age.max, { column: true }),
      int('frequency', RECORD_LIMITS.frequency.min, RECORD_LIMITS.frequency.max, { column: true }),
      { kind: 'choice', name: 'interval', list: 'interval', column: true },
      bool('specialist_intervention'),
      note(),
    ],
    rules: [{ rule: 'notBelow', low: 'start_age', high: 'end_age', message: 'validation:endAgeBeforeStartAge' }],
  },
  {
    key: 'familyhistory',
    menuFeature: 'family-history',
    icon: 'FamilyRestroom',
    titleField: 'medical_issue',
    ordering: '-created_at',
    fields: [
      text('medical_issue', 200, { required: true, column: true, searchable: true }),
      { kind: 'choice', name: 'relationship', list: 'relationship', required: true, column: true },
      text('name', 200, { searchable: true }),
      bool('deceased', { column: true }),
      int('age_of_presentation', RECORD_LIMITS.age.min, RECORD_LIMITS.age.max, { column: true }),
      text('outcome', 500, { searchable: true }),
      note(),
    ],
  },
  {
    key: 'supplement',
    icon: 'Spa',
    titleField: 'code',
    dateField: 'start_date',
    ordering: '-start_date',
    fields: medicationFields,
    readAs: medicationReading,
  },
  {
    key: 'travelhistory',
    icon: 'Flight',
    titleField: 'country',
    dateField: 'start_date',
    ordering: '-start_date',
    fields: [
      { kind: 'country', name: 'country', required: true, column: true },
      date('start_date', { column: true }),
      date('end_date', { column: true }),
      note(),
    ],
    rules: [{ rule: 'endAfterStart', start: 'start_date', end: 'end_date' }],
  },
  {
    key: 'biometrics',
    icon: 'MonitorWeight',
    titleField: 'measure',
    dateField: 'measured_on',
    ordering: '-measured_on',
    fields: [
      { kind: 'choice', name: 'measure', list: 'measure', required: true, column: true },
      { kind: 'measurement', name: 'value', required: true, column: true },
      { kind: 'number', name: 'diastolic', min: 20, max: 200, integer: true, column: true },
      { kind: 'date', name: 'measured_on', defaultToday: true, column: true },
      note(),
    ],
    rules: [{ rule: 'measurement', measure: 'measure', value: 'value', secondary: 'diastolic' }],
  },
] as const satisfies readonly CategoryDefinition[];

export type CategoryKey = (typeof CATEGORIES)[number]['key'];
export const CATEGORY_KEYS = CATEGORIES.map((c) => c.key) as readonly CategoryKey[];

const BY_KEY = new Map<string, CategoryDefinition>(CATEGORIES.map((c) => [c.key, c]));
export const categoryDefinition = (key: string): CategoryDefinition | undefined => BY_KEY.get(key);
export const isCategoryKey = (key: string): key is CategoryKey => BY_KEY.has(key);

/** The API names of a category's fields: a medical date brings its `_part`. */
export function apiFieldNames(category: CategoryDefinition): string[] {
  return category.fields.flatMap((f) => (f.kind === 'medicalDate' ? [f.name, `${f.name}_part`] : [f.name]));
}
