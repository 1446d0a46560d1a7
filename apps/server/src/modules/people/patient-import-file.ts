import { parse } from 'csv-parse/sync';
import {
  GENDER_KEYS,
  PATIENT_IMPORT_COLUMNS,
  PATIENT_IMPORT_MAX_ROWS,
  SUPPORTED_LANGUAGES,
  isValidEmail,
  parseDob,
  personNameSchema,
  todayIso,
  translate,
  type Language,
  type PatientImportProblemCode,
} from '@healthbook/shared';
import { FieldError } from '../../lib/http-errors';

export interface ImportLine {
  line: number;
  first_name: string;
  last_name: string;
  /** As written in the file; `dobIso` when it reads as a date. */
  dob: string;
  dobIso: string | null;
  gender: string;
  email: string;
  language: string;
  problems: Array<{ field: string; code: PatientImportProblemCode }>;
}

const firstName = personNameSchema('validation:firstNameRequired');
const lastName = personNameSchema('validation:lastNameRequired');

/** The words a file may use for a gender or a language: the keys, and their names in either language. */
function choices<K extends string>(keys: readonly K[], label: (key: K, lang: Language) => string): Map<string, K> {
  const map = new Map<string, K>();
  for (const key of keys) {
    map.set(key.toLowerCase(), key);
    for (const lang of SUPPORTED_LANGUAGES) map.set(label(key, lang).toLowerCase(), key);
  }
  return map;
}
const GENDERS = choices(GENDER_KEYS, (key, lang) => translate(lang, `options:gender.${key}`));
const LANGUAGES = new Map<string, Language>([
  ['en', 'en'],
  ['english', 'en'],
  ['αγγλικά', 'en'],
  ['el', 'el'],
  ['greek', 'el'],
  ['ελληνικά', 'el'],
  ['gr', 'el'],
]);

const normaliseHeader = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/^date_of_birth$/, 'dob')
    .replace(/^e_?mail$/, 'email');

/**
 * Reads a CSV file of patients (a header naming first_name, last_name, dob, gender, email and
 * language, in any order; commas or semicolons; UTF-8 with or without BOM) into lines, each with
 * its problems: a missing field, a name without letters, a date that is not one (YYYY-MM-DD or
 * MM/DD/YYYY) or in the future, an address that is not one, an unknown gender or language, an
 * address already met earlier in the file. What the organisation already holds is checked by the
 * caller. A file that is not CSV at all, or has no such header or no rows: 400 {file}.
 */
export function readPatientFile(text: string): ImportLine[] {
  let records: string[][];
  try {
    const firstLine = text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : text.length);
    const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
    records = parse(text, { bom: true, delimiter, skip_empty_lines: true, relax_column_count: true, trim: true, to: PATIENT_IMPORT_MAX_ROWS + 2 }) as string[][];
  } catch (err) {
    const reason = err instanceof Error ? err.message.slice(0, 200) : 'unreadable';
    throw new FieldError({ file: [{ key: 'errors:peopleCsvUnreadable', vars: { reason } }] });
  }
  const [header, ...rows] = records;
  const columns = (header ?? []).map(normaliseHeader);
  const index = Object.fromEntries(PATIENT_IMPORT_COLUMNS.map((c) => [c, columns.indexOf(c)])) as Record<(typeof PATIENT_IMPORT_COLUMNS)[number], number>;
  if (Object.values(index).some((i) => i < 0)) throw new FieldError({ file: ['errors:peopleCsvHeader'] });
  if (rows.length === 0) throw new FieldError({ file: ['errors:peopleCsvEmpty'] });
  if (rows.length > PATIENT_IMPORT_MAX_ROWS) throw new FieldError({ file: [{ key: 'errors:peopleCsvTooMany', vars: { max: PATIENT_IMPORT_MAX_ROWS } }] });

  const today = todayIso();
  const seen = new Set<string>();
  return rows.map((cells, i) => {
    const cell = (c: keyof typeof index) => (cells[index[c]] ?? '').trim().slice(0, 300);
    const problems: ImportLine['problems'] = [];
    const need = (field: string, value: string) => {
      if (!value) problems.push({ field, code: 'missing' });
      return Boolean(value);
    };
    const line: ImportLine = {
      line: i + 2,
      first_name: cell('first_name'),
      last_name: cell('last_name'),
      dob: cell('dob'),
      dobIso: null,
      gender: cell('gender'),
      email: cell('email').toLowerCase(),
      language: cell('language'),
      problems,
    };
    for (const [field, schema] of [
      ['first_name', firstName],
      ['last_name', lastName],
    ] as const) {
      const value = line[field];
      if (need(field, value)) {
        const parsed = schema.safeParse(value);
        if (parsed.success) line[field] = parsed.data;
        else problems.push({ field, code: 'bad_name' });
      }
    }
    if (need('dob', line.dob)) {
      line.dobIso = parseDob(line.dob);
      if (!line.dobIso) problems.push({ field: 'dob', code: 'bad_date' });
      else if (line.dobIso > today) problems.push({ field: 'dob', code: 'future_date' });
    }
    if (need('gender', line.gender)) {
      const key = GENDERS.get(line.gender.toLowerCase());
      if (key) line.gender = key;
      else problems.push({ field: 'gender', code: 'unknown_gender' });
    }
    if (need('email', line.email)) {
      if (!isValidEmail(line.email) || line.email.length > 254) problems.push({ field: 'email', code: 'bad_email' });
      else if (seen.has(line.email)) problems.push({ field: 'email', code: 'duplicate_in_file' });
      else seen.add(line.email);
    }
    if (need('language', line.language)) {
      const lang = LANGUAGES.get(line.language.toLowerCase());
      if (lang) line.language = lang;
      else problems.push({ field: 'language', code: 'unknown_language' });
    }
    return line;
  });
}
