/**
 * The rules of a record, from its category's declaration, used alike by the web form and the
 * server (§5 "Record form rules", "Medical date"): each field's type and range, the medical
 * dates (valid, not before birth, not after today), and the rules across fields. Messages are
 * message keys of the shared catalogs, with their variables.
 */
import { cleanText, isSingleLine } from '../validation';
import { choiceValues, COUNTRY_CODES } from './choices';
import type { CategoryDefinition, RecordField } from './fields';
import { checkMedicalDate, DATE_PARTS, isEndBeforeStart, isValidIsoDate, MEDICAL_DATE_ERRORS, type DatePart, type DateRuleContext, type MedicalDate } from './medical-date';
import { MEASURES, roundStored, type Measure } from './units';

export interface RuleMessage {
  key: string;
  vars?: Record<string, string | number>;
}
export type RecordErrors = Record<string, RuleMessage[]>;
/** A record's own values, by API field name (a medical date with its `_part`). */
export type RecordValues = Record<string, string | number | boolean | null>;

const msg = (key: string, vars?: Record<string, string | number>): RuleMessage => (vars ? { key, vars } : { key });

/** A number as clients send it: a JSON number, or a decimal in a string ("12.5"). */
function toNumber(value: unknown): number | null | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const t = value.trim();
    if (t === '') return null;
    return /^[-+]?([0-9]+([.,][0-9]*)?|[.,][0-9]+)([eE][-+]?[0-9]+)?$/.test(t) ? Number(t.replace(',', '.')) : undefined;
  }
  return undefined;
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 0 || value === '0') return false;
  return undefined;
}

/** One field's value, cleaned, or its error. `undefined` input means "not given". */
function checkField(field: RecordField, raw: unknown, out: RecordValues, errors: RecordErrors, ctx: DateRuleContext): void {
  const fail = (m: RuleMessage, name = field.name): void => {
    (errors[name] ??= []).push(m);
  };
  const value = raw === undefined ? null : raw;
  switch (field.kind) {
    case 'text': {
      if (value === null) return void (out[field.name] = null);
      if (typeof value !== 'string') return fail(msg('validation:notAString'));
      const cleaned = field.multiline ? value.normalize('NFC').replace(/\r\n?/g, '\n').replace(/^\s+|\s+$/g, '') : cleanText(value);
      // One line has no control characters; several may break lines and indent (new lines and tabs), nothing else.
      if (!isSingleLine(field.multiline ? cleaned.replace(/[\n\t]/g, ' ') : cleaned)) return fail(msg('validation:textControlCharacters'));
      if (cleaned.length > field.max) return fail(msg('validation:tooLong', { max: field.max }));
      out[field.name] = cleaned === '' ? null : cleaned;
      return;
    }
    case 'number':
    case 'measurement': {
      if (value === null) return void (out[field.name] = null); // not given, or cleared
      const n = toNumber(value);
      if (n === undefined) return fail(msg(field.kind === 'number' && field.integer ? 'validation:notAnInteger' : 'validation:notANumber'));
      if (n === null) return void (out[field.name] = null);
      if (field.kind === 'number') {
        if (field.integer && !Number.isInteger(n)) return fail(msg('validation:notAnInteger'));
        if (field.min !== undefined && n < field.min) return fail(msg('validation:tooSmall', { min: field.min }));
        if (field.max !== undefined && n > field.max) return fail(msg('validation:tooBig', { max: field.max }));
        out[field.name] = field.decimals !== undefined ? Math.round(n * 10 ** field.decimals) / 10 ** field.decimals : n;
      } else out[field.name] = n; // its range depends on the measure (the measurement rule)
      return;
    }
    case 'boolean': {
      if (value === null) return void (out[field.name] = false);
      const b = toBoolean(value);
      if (b === undefined) return fail(msg('validation:notABoolean'));
      out[field.name] = b;
      return;
    }
    case 'choice': {
      if (value === null || value === '') return void (out[field.name] = null);
      if (typeof value !== 'string' || !choiceValues(field.list).includes(value)) return fail(msg('validation:invalidChoice', { value: String(value).slice(0, 50) }));
      out[field.name] = value;
      return;
    }
    case 'country': {
      if (value === null || value === '') return void (out[field.name] = null);
      const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
      if (!COUNTRY_CODES.includes(code)) return fail(msg('validation:invalidChoice', { value: String(value).slice(0, 50) }));
      out[field.name] = code;
      return;
    }
    case 'date': {
      if (value === null || value === '') return void (out[field.name] = null);
      if (typeof value !== 'string' || !isValidIsoDate(value)) return fail(msg(MEDICAL_DATE_ERRORS.invalid));
      const problem = checkMedicalDate({ date: value, part: 'day' }, ctx);
      if (problem) return fail(msg(problem));
      out[field.name] = value;
      return;
    }
    case 'medicalDate':
      return; // read with its _part (checkMedicalDateField)
  }
}

/** A medical date and its `_part`: a date without a part is a day; a part without a date is only "past". */
function checkMedicalDateField(name: string, rawDate: unknown, rawPart: unknown, out: RecordValues, errors: RecordErrors, ctx: DateRuleContext): void {
  const fail = (m: RuleMessage, field = name): void => {
    (errors[field] ??= []).push(m);
  };
  const date = rawDate === undefined || rawDate === '' ? null : rawDate;
  const part = rawPart === undefined || rawPart === '' ? null : rawPart;
  if (date !== null && typeof date !== 'string') return fail(msg(MEDICAL_DATE_ERRORS.invalid));
  if (part !== null && (typeof part !== 'string' || !(DATE_PARTS as readonly string[]).includes(part)))
    return fail(msg('validation:invalidChoice', { value: String(part).slice(0, 50) }), `${name}_part`);
  let value: MedicalDate;
  if (date === null) {
    if (part !== null && part !== 'past') return fail(msg(MEDICAL_DATE_ERRORS.invalid));
    value = { date: null, part: part as DatePart | null };
  } else {
    if (part === 'past') return fail(msg(MEDICAL_DATE_ERRORS.invalid));
    if (!isValidIsoDate(date)) return fail(msg(MEDICAL_DATE_ERRORS.invalid));
    const p = (part ?? 'day') as Exclude<DatePart, 'past'>;
    // Kept as entered: a month is its first day, a year its first of January, with the precision saying so.
    const normalized = p === 'year' ? `${date.slice(0, 4)}-01-01` : p === 'month' ? `${date.slice(0, 7)}-01` : date;
    value = { date: normalized, part: p };
  }
  const problem = checkMedicalDate(value, ctx);
  if (problem) return fail(msg(problem));
  out[name] = value.date;
  out[`${name}_part`] = value.part;
}

/** The stored medical date of a field of a record's values. */
export const medicalDateOf = (values: RecordValues, name: string): MedicalDate => ({
  date: (values[name] as string | null) ?? null,
  part: (values[`${name}_part`] as DatePart | null) ?? null,
});

export interface CheckOptions extends DateRuleContext {
  /** Values already stored (a PATCH): fields not given keep them. */
  existing?: RecordValues;
  /** A new record: fields that default to today are filled. */
  creating?: boolean;
}

/**
 * A record's values checked against its category: answers the cleaned values (every field of
 * the category, the `private` flag included) or the errors per field. Fields the category does
 * not have are ignored, as Django REST does.
 */
export function checkRecord(category: CategoryDefinition, input: Record<string, unknown>, options: CheckOptions): { values: RecordValues; errors: RecordErrors | null } {
  const values: RecordValues = {};
  const errors: RecordErrors = {};
  const given = (name: string) => (name in input ? input[name] : options.existing?.[name]);

  for (const field of category.fields) {
    if (field.kind === 'medicalDate') {
      // A new date without its precision is a day: the stored precision goes with the stored date only.
      const part = `${field.name}_part` in input || !(field.name in input) ? given(`${field.name}_part`) : undefined;
      checkMedicalDateField(field.name, given(field.name), part, values, errors, options);
      continue;
    }
    let raw = given(field.name);
    if (field.kind === 'date' && field.defaultToday && options.creating && (raw === undefined || raw === null || raw === '')) raw = options.today;
    checkField(field, raw, values, errors, options);
  }
  const flag = toBoolean(given('private') ?? false);
  if (flag === undefined) (errors.private ??= []).push(msg('validation:notABoolean'));
  else values.private = flag;

  for (const field of category.fields) {
    if (field.required && !errors[field.name] && (values[field.name] === null || values[field.name] === undefined)) {
      (errors[field.name] ??= []).push(msg('validation:required'));
    }
  }

  for (const rule of category.rules ?? []) {
    if (rule.rule === 'endAfterStart') {
      if (errors[rule.start] || errors[rule.end]) continue;
      if (isEndBeforeStart(medicalDateOf(values, rule.start), medicalDateOf(values, rule.end))) (errors[rule.end] ??= []).push(msg(MEDICAL_DATE_ERRORS.endBeforeStart));
    } else if (rule.rule === 'notBelow') {
      const low = values[rule.low];
      const high = values[rule.high];
      if (typeof low === 'number' && typeof high === 'number' && high < low) (errors[rule.high] ??= []).push(msg(rule.message));
    } else if (rule.rule === 'measurement') {
      checkMeasurement(values, errors, rule);
    }
  }
  return { values, errors: Object.keys(errors).length ? errors : null };
}

function checkMeasurement(values: RecordValues, errors: RecordErrors, rule: { measure: string; value: string; secondary: string }): void {
  const measure = values[rule.measure] as Measure | null;
  const value = values[rule.value];
  if (!measure || typeof value !== 'number' || errors[rule.value]) return;
  const spec = MEASURES[measure];
  if (value < spec.min) (errors[rule.value] ??= []).push(msg('validation:tooSmall', { min: spec.min }));
  else if (value > spec.max) (errors[rule.value] ??= []).push(msg('validation:tooBig', { max: spec.max }));
  else values[rule.value] = roundStored(measure, value);
  const secondary = values[rule.secondary];
  if (measure !== 'blood_pressure') {
    values[rule.secondary] = null;
    return;
  }
  if (errors[rule.secondary]) return; // its own range is the field's (categories.ts)
  if (typeof secondary !== 'number') (errors[rule.secondary] ??= []).push(msg('validation:required'));
  else if (typeof value === 'number' && secondary >= value) (errors[rule.secondary] ??= []).push(msg('validation:diastolicNotBelowSystolic'));
}

/**
 * Text as it is searched: lower case, without accents (Greek is often typed without its tonos),
 * a final ς as σ. The server keeps each record's searchable text so, and searches so.
 */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ς/g, 'σ');
}
