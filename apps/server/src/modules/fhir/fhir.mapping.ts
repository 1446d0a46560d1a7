/**
 * The FHIR R4 mapping of the record categories, as data (ARCHITECTURE "FHIR R4 mapping"): for
 * each category the resource it becomes, what that resource always carries, and for each of its
 * fields where the value goes and how it is read back. The same entries export a record and
 * import a resource, ours or another system's (a Synthea patient's, a hospital portal's).
 *
 * - A medical date becomes a FHIR partial date ("2019", "2019-05", "2019-05-14"); "In the past"
 *   becomes the element's string variant where it has one (onsetString, abatementString,
 *   occurrenceString, performedString).
 * - Choices become codes of the code system FHIR binds the element to (condition and allergy
 *   statuses, v3 RoleCode relatives, SNOMED procedure outcomes, LOINC vital signs with UCUM
 *   units; blood pressure as a panel with systolic and diastolic components).
 * - What has no place in the resource, or a value its place cannot hold exactly (a choice FHIR
 *   has no code for, "In the past" where there is no string variant), travels in an extension
 *   `urn:healthbook:field:<field>`; a FHIR-required element filled in for an empty field is
 *   named by an extension `urn:healthbook:empty`. So our own export reads back to exactly the
 *   records it was made from, while other systems see standard elements.
 * - Every resource we write is tagged with its category (meta.tag `urn:healthbook:category`),
 *   so condition/symptom, medication/supplement, surgery/procedure and the two social-history
 *   observations come back as what they were. A private record carries the confidentiality
 *   label R (restricted).
 */
import type { Extension, ResourceType } from '@medplum/fhirtypes';
import {
  categoryDefinition,
  COUNTRY_CODES,
  countryName,
  labFlag,
  medicalDateOf,
  type CategoryDefinition,
  type CategoryKey,
  type LabFlag,
  type MedicalDate,
  type Measure,
  type RecordField,
  type RecordValues,
} from '@healthbook/shared';

/** The code systems and URLs of the mapping. Ours are URNs: stable, whatever the server's address. */
export const SYSTEMS = {
  /** Identifier of an exported record: value `<organisation origin>/<record id>` (see fhir.service.ts). */
  record: 'urn:healthbook:record',
  /** Identifier of an exported patient: value `<organisation origin>/<patient id>`. */
  patient: 'urn:healthbook:patient',
  /** Identifier of a reading imported from an Apple Health export: value `<measure>/<day>` (thinned) or `<measure>/<instant>`. */
  appleHealth: 'urn:healthbook:apple-health',
  /** meta.tag: the record category a resource was exported from. */
  category: 'urn:healthbook:category',
  /** Extension URL prefix of a field without a place of its own. */
  field: 'urn:healthbook:field:',
  /** Extension naming a field that is empty although FHIR made its element required. */
  empty: 'urn:healthbook:empty',
  /** Code system prefix of our choice lists that FHIR has no code system for (urn:healthbook:choice:<list>). */
  choice: 'urn:healthbook:choice:',
  snomed: 'http://snomed.info/sct',
  loinc: 'http://loinc.org',
  ucum: 'http://unitsofmeasure.org',
  iso3166: 'urn:iso:std:iso:3166',
  observationCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
  conditionCategory: 'http://terminology.hl7.org/CodeSystem/condition-category',
  conditionClinical: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
  conditionVerification: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
  allergyClinical: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
  allergyVerification: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
  roleCode: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  interpretation: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation',
  diagnosticService: 'http://terminology.hl7.org/CodeSystem/v2-0074',
  confidentiality: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality',
} as const;

/** SNOMED CT: a surgical procedure (Procedure.category of a surgery). */
export const SNOMED_SURGICAL_PROCEDURE = '387713003';
/** SNOMED CT: travel (the code of a travel-history observation). */
export const SNOMED_TRAVEL = '420008001';
/** SNOMED CT: a finding reported by the subject (the category of a symptom observation). */
export const SNOMED_REPORTED_FINDING = '418799008';

/** A resource as JSON (the mapping reads and writes it by element path). */
export type FhirJson = Record<string, unknown>;

/** A field's value as the mapping handles it: a medical date is one value with its precision. */
export type FieldValue = string | number | boolean | MedicalDate;

/** Texts a written resource needs in the reader's language. */
export interface WriteContext {
  /** "In the past" (a string variant). */
  pastText: string;
  /** An occurrence FHIR requires when the record has no date. */
  unknownDateText: string;
}

/** What reading may need beyond the resource: the bundle's other resources by reference (a MedicationRequest's Medication). */
export interface ReadContext {
  resolve(reference: string): FhirJson | undefined;
}

/** Where one field goes in its resource, and how it is read back (undefined: not there). */
export interface FieldMap {
  /** Writes a value that is not empty (a false flag is empty); `record` holds the record's other values. */
  write(resource: FhirJson, value: FieldValue, record: RecordValues, ctx: WriteContext): void;
  /** A flag whose "no" has an element of its own (a lab result outside the normal range: interpretation A). */
  writeFalse?(resource: FhirJson): void;
  read(resource: FhirJson, ctx: ReadContext): FieldValue | undefined;
}

/** A field with no place of its own in the resource: an extension carries it. */
export const EXTENSION = 'extension' as const;

export type MappedResourceType = Extract<
  ResourceType,
  | 'Condition'
  | 'Observation'
  | 'MedicationStatement'
  | 'MedicationRequest'
  | 'AllergyIntolerance'
  | 'Immunization'
  | 'DiagnosticReport'
  | 'Encounter'
  | 'Procedure'
  | 'FamilyMemberHistory'
>;

export interface CategoryMapping {
  category: CategoryKey;
  resourceType: MappedResourceType;
  /** The element that names the patient. */
  patientElement: 'subject' | 'patient';
  /** What every resource of the category carries, before its fields (status, category codes, a fixed code). */
  base: () => FhirJson;
  /** Each field of the category (the test holds this to the declaration). */
  fields: Readonly<Record<string, FieldMap | typeof EXTENSION>>;
  /** Elements FHIR requires, completed from what the fields wrote. */
  complete?: (resource: FhirJson, record: RecordValues, ctx: WriteContext) => void;
  /** Only read (another system's resource type for a category, e.g. MedicationRequest). */
  importOnly?: boolean;
}

// --- Reading and writing elements by path ("reaction.0.manifestation.0.text") ----------------

export function at(node: unknown, path: string): unknown {
  let value = node;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function put(node: FhirJson, path: string, value: unknown): void {
  const keys = path.split('.');
  let current = node as Record<string, unknown>;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    if (current[key] === null || typeof current[key] !== 'object') current[key] = /^[0-9]+$/.test(keys[i + 1]!) ? [] : {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys[keys.length - 1]!] = value;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const codingsOf = (concept: unknown): Array<{ system?: unknown; code?: unknown; display?: unknown }> =>
  list(at(concept, 'coding')).filter((c): c is Record<string, unknown> => c !== null && typeof c === 'object');

/** What a CodeableConcept says: its text, else its first coding's display, else that coding's code. */
export function conceptText(concept: unknown): string | undefined {
  if (concept === null || typeof concept !== 'object') return undefined;
  const own = text(at(concept, 'text'));
  if (own) return own;
  for (const coding of codingsOf(concept)) {
    const shown = text(coding.display) ?? text(coding.code);
    if (shown) return shown;
  }
  return undefined;
}

/** Whether a CodeableConcept (or a list of them) holds a code of a system. */
export function hasCode(concepts: unknown, system: string, code: string): boolean {
  const all = Array.isArray(concepts) ? concepts : [concepts];
  return all.some((concept) => codingsOf(concept).some((c) => c.system === system && c.code === code));
}

/** Every code of a list of CodeableConcepts, whatever its system. */
export function codesOf(concepts: unknown): Set<string> {
  return new Set(list(concepts).flatMap((concept) => codingsOf(concept).map((c) => (typeof c.code === 'string' ? c.code : ''))));
}

// --- Dates ----------------------------------------------------------------------------------

/** A medical date as a FHIR partial date ("2019", "2019-05", "2019-05-14"); null for "past" or none. */
export function toFhirDate(value: MedicalDate): string | null {
  if (!value.date || !value.part || value.part === 'past') return null;
  if (value.part === 'year') return value.date.slice(0, 4);
  if (value.part === 'month') return value.date.slice(0, 7);
  return value.date;
}

const FHIR_DATE = /^([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2})(?:T.*)?)?)?$/;

/** A FHIR date or dateTime as a medical date at its own precision: a time's day as written (its own zone). */
export function fromFhirDate(value: unknown): MedicalDate | undefined {
  if (typeof value !== 'string') return undefined;
  const match = FHIR_DATE.exec(value);
  if (!match) return undefined;
  const [, year, month, day] = match;
  if (day) return { date: `${year}-${month}-${day}`, part: 'day' };
  if (month) return { date: `${year}-${month}-01`, part: 'month' };
  return { date: `${year}-01-01`, part: 'year' };
}

const PAST: MedicalDate = { date: null, part: 'past' };

// --- Field maps -----------------------------------------------------------------------------

/** A string element. */
const str = (path: string): FieldMap => ({
  write: (r, v) => put(r, path, String(v)),
  read: (r) => text(at(r, path)),
});

/** A CodeableConcept known by its text (read: its text, else its coding's display); `alsoRead`: other concepts tried in turn. */
const concept = (path: string, ...alsoRead: string[]): FieldMap => ({
  write: (r, v) => put(r, `${path}.text`, String(v)),
  read: (r) => [path, ...alsoRead].map((p) => conceptText(at(r, p))).find((t) => t !== undefined),
});

/** A Reference known by its display only (a person or place named in words). */
const display = (path: string): FieldMap => str(`${path}.display`);

/** Notes: Annotations (several are read as one text, a blank line between). `orValue`: another system's observation value as the note. */
const annotation = (path = 'note', orValue = false): FieldMap => ({
  write: (r, v) => put(r, path, [{ text: String(v) }]),
  read: (r) => {
    const notes = list(at(r, path))
      .map((n) => text(at(n, 'text')))
      .filter((t): t is string => t !== undefined);
    if (notes.length) return notes.join('\n\n');
    return orValue ? (text(r.valueString) ?? conceptText(r.valueCodeableConcept)) : undefined;
  },
});

/** A choice element `<name>[x]` for a medical date: DateTime, or its String variant for "In the past" (`pastAsString`); a Period's start is read too. */
const choiceDate = (name: string, pastAsString: boolean): FieldMap => ({
  write: (r, v, _record, ctx) => {
    const value = v as MedicalDate;
    if (value.part === 'past') {
      if (pastAsString) r[`${name}String`] = ctx.pastText;
      return;
    }
    const fhir = toFhirDate(value);
    if (fhir) r[`${name}DateTime`] = fhir;
  },
  read: (r) => fromFhirDate(r[`${name}DateTime`]) ?? fromFhirDate(at(r, `${name}Period.start`)) ?? (pastAsString && text(r[`${name}String`]) ? PAST : undefined),
});

/** A date (or a medical date with a date) at a dateTime element; `alsoRead`: other elements tried in turn. "In the past" has no place here. */
const dateAt = (path: string, ...alsoRead: string[]): FieldMap => ({
  write: (r, v) => {
    const fhir = typeof v === 'string' ? v : toFhirDate(v as MedicalDate);
    if (fhir) put(r, path, fhir);
  },
  read: (r) => [path, ...alsoRead].map((p) => fromFhirDate(at(r, p))).find((d) => d !== undefined),
});

/** A number element. */
const num = (path: string): FieldMap => ({
  write: (r, v) => put(r, path, v),
  read: (r) => number(at(r, path)),
});

/** A code element (a FHIR `code`, not a CodeableConcept) whose values are ours as they are; `allowed`: those FHIR has. */
const code = (path: string, allowed: readonly string[], asList = false): FieldMap => ({
  write: (r, v) => {
    if (allowed.includes(String(v))) put(r, path, asList ? [String(v)] : String(v));
  },
  read: (r) => {
    const value = asList ? list(at(r, path))[0] : at(r, path);
    return typeof value === 'string' && allowed.includes(value) ? value : undefined;
  },
});

interface Coded {
  system: string;
  /** Our value -> its code (a value missing here has no code: an extension carries it). */
  codes: Readonly<Record<string, string>>;
  /** Displays of the codes. */
  displays?: Readonly<Record<string, string>>;
  /** More codes read as our values (a narrower relative, another LOINC code for the same measure). */
  aliases?: Readonly<Record<string, string>>;
}

/** Our value -> code, and back (the first value of a code is the one it reads as). */
function reverse(codes: Readonly<Record<string, string>>): Map<string, string> {
  const back = new Map<string, string>();
  for (const [value, c] of Object.entries(codes)) if (!back.has(c)) back.set(c, value);
  return back;
}

/**
 * A CodeableConcept coded in one or more code systems (the first is the main one). `label`: our
 * choice's English label as the concept's text.
 */
const coded = (path: string, systems: readonly Coded[], label?: (value: string) => string): FieldMap => {
  const backs = systems.map((s) => ({ system: s.system, back: new Map([...Object.entries(s.aliases ?? {}), ...reverse(s.codes)]) }));
  return {
    write: (r, v) => {
      const value = String(v);
      const coding = systems.flatMap((s) => (s.codes[value] ? [{ system: s.system, code: s.codes[value], ...(s.displays?.[value] ? { display: s.displays[value] } : {}) }] : []));
      if (coding.length === 0) return;
      put(r, path, { coding, ...(label ? { text: label(value) } : {}) });
    },
    read: (r) => {
      const codings = codingsOf(at(r, path));
      for (const { system, back } of backs) {
        for (const c of codings) if (c.system === system && typeof c.code === 'string' && back.has(c.code)) return back.get(c.code);
      }
      return undefined;
    },
  };
};

/** A read-only map (an import-only resource type). */
const readOnly = (read: FieldMap['read']): FieldMap => ({ write: () => undefined, read });

/** A flag written as a status (stopped, not-done) over the base's status. */
const statusFlag = (status: string, readsAs: readonly string[]): FieldMap => ({
  write: (r) => void (r.status = status),
  read: (r) => (typeof r.status === 'string' ? readsAs.includes(r.status) : undefined),
});

// --- Units ----------------------------------------------------------------------------------

const quantity = (value: number, unit: string, ucum?: string) => ({ value, unit, ...(ucum ? { system: SYSTEMS.ucum, code: ucum } : {}) });

/** A dose's unit: its display and UCUM code where UCUM has one. */
export const DOSE_UNITS: Readonly<Record<string, { unit: string; ucum?: string }>> = {
  mg: { unit: 'mg', ucum: 'mg' },
  g: { unit: 'g', ucum: 'g' },
  mcg: { unit: 'mcg', ucum: 'ug' },
  ml: { unit: 'mL', ucum: 'mL' },
  iu: { unit: 'IU', ucum: '[iU]' },
  tablet: { unit: 'tablet' },
  capsule: { unit: 'capsule' },
  drop: { unit: 'drop' },
  puff: { unit: 'puff' },
  patch: { unit: 'patch' },
  unit: { unit: 'unit', ucum: '[U]' },
};

function doseUnitOf(q: unknown): string | undefined {
  const ucum = at(q, 'system') === SYSTEMS.ucum ? text(at(q, 'code')) : undefined;
  if (ucum) {
    const found = Object.entries(DOSE_UNITS).find(([, u]) => u.ucum === ucum);
    if (found) return found[0];
  }
  const shown = text(at(q, 'unit'))?.toLowerCase().replace(/s$/, '').replace(/^\{|\}$/g, '');
  if (!shown) return undefined;
  const found = Object.entries(DOSE_UNITS).find(([key, u]) => key === shown || u.unit.toLowerCase() === shown || u.ucum?.toLowerCase() === shown);
  return found?.[0];
}

/** A biometric measure: its LOINC code and display, its stored unit as UCUM, the other LOINC codes read as it. */
export const MEASURE_CODES: Readonly<Record<Measure, { loinc: string; display: string; unit: string; ucum: string; aliases: readonly string[] }>> = {
  weight: { loinc: '29463-7', display: 'Body weight', unit: 'kg', ucum: 'kg', aliases: ['3141-9', '3142-7'] },
  height: { loinc: '8302-2', display: 'Body height', unit: 'm', ucum: 'm', aliases: ['8306-3', '8308-9'] },
  blood_pressure: { loinc: '85354-9', display: 'Blood pressure panel with all children optional', unit: 'mmHg', ucum: 'mm[Hg]', aliases: ['55284-4', '35094-2'] },
  heart_rate: { loinc: '8867-4', display: 'Heart rate', unit: '/min', ucum: '/min', aliases: [] },
  glucose: { loinc: '15074-8', display: 'Glucose [Moles/volume] in Blood', unit: 'mmol/L', ucum: 'mmol/L', aliases: ['2339-0', '2345-7', '14749-6', '41653-7'] },
  temperature: { loinc: '8310-5', display: 'Body temperature', unit: 'Cel', ucum: 'Cel', aliases: ['8331-1', '8332-9', '8333-7'] },
  oxygen_saturation: { loinc: '2708-6', display: 'Oxygen saturation in Arterial blood', unit: '%', ucum: '%', aliases: ['59408-5', '20564-1'] },
};
export const LOINC_SYSTOLIC = '8480-6';
export const LOINC_DIASTOLIC = '8462-4';

/** Another system's quantity in the stored unit of a measure (kg, m, mmHg, /min, mmol/L, °C, %), by its UCUM code or unit. */
export function toStoredUnit(measure: Measure, q: unknown): number | undefined {
  const value = number(at(q, 'value'));
  if (value === undefined) return undefined;
  const unit = (text(at(q, 'code')) ?? text(at(q, 'unit')) ?? '').trim();
  switch (measure) {
    case 'weight':
      return unit === 'g' ? value / 1000 : unit === '[lb_av]' || unit === 'lb' || unit === 'lbs' ? value * 0.45359237 : value;
    case 'height':
      return unit === 'cm' ? value / 100 : unit === 'mm' ? value / 1000 : unit === '[in_i]' || unit === 'in' ? value * 0.0254 : value;
    case 'glucose':
      return /^mg\/dl$/i.test(unit) ? value / 18.0156 : value;
    case 'temperature':
      return unit === '[degF]' || unit === '°F' || unit === 'degF' ? ((value - 32) * 5) / 9 : value;
    default:
      return value;
  }
}

const measureCoded: Coded = {
  system: SYSTEMS.loinc,
  codes: Object.fromEntries(Object.entries(MEASURE_CODES).map(([m, c]) => [m, c.loinc])),
  displays: Object.fromEntries(Object.entries(MEASURE_CODES).map(([m, c]) => [m, c.display])),
  aliases: Object.fromEntries(Object.entries(MEASURE_CODES).flatMap(([m, c]) => c.aliases.map((a) => [a, m]))),
};
const measureMap = coded('code', [measureCoded]);

/** The measure of an observation (by its LOINC code), or undefined. */
export const measureOf = (resource: FhirJson): Measure | undefined => measureMap.read(resource, { resolve: () => undefined }) as Measure | undefined;

const component = (loinc: string, display: string, value: number) => ({
  code: { coding: [{ system: SYSTEMS.loinc, code: loinc, display }] },
  valueQuantity: quantity(value, 'mmHg', 'mm[Hg]'),
});
const componentValue = (r: FhirJson, loinc: string): number | undefined => {
  const found = list(r.component).find((c) => hasCode(at(c, 'code'), SYSTEMS.loinc, loinc));
  return found ? number(at(found, 'valueQuantity.value')) : undefined;
};

/** The measured value: a quantity in the measure's UCUM unit; blood pressure: the systolic component. */
const measurement: FieldMap = {
  write: (r, v, record) => {
    const measure = record.measure as Measure;
    const spec = MEASURE_CODES[measure];
    if (measure === 'blood_pressure') put(r, 'component.0', component(LOINC_SYSTOLIC, 'Systolic blood pressure', Number(v)));
    else r.valueQuantity = quantity(Number(v), spec.unit, spec.ucum);
  },
  read: (r) => {
    const systolic = componentValue(r, LOINC_SYSTOLIC);
    if (systolic !== undefined) return systolic;
    const measure = measureOf(r);
    return measure ? toStoredUnit(measure, r.valueQuantity) : number(at(r, 'valueQuantity.value'));
  },
};
const diastolic: FieldMap = {
  write: (r, v) => put(r, 'component.1', component(LOINC_DIASTOLIC, 'Diastolic blood pressure', Number(v))),
  read: (r) => componentValue(r, LOINC_DIASTOLIC),
};

// --- Lab results ----------------------------------------------------------------------------

/** A flag as HL7 v3 ObservationInterpretation. */
const INTERPRETATION: Readonly<Record<LabFlag, { code: string; display: string }>> = {
  low: { code: 'L', display: 'Low' },
  high: { code: 'H', display: 'High' },
  abnormal: { code: 'A', display: 'Abnormal' },
  critical: { code: 'AA', display: 'Critical abnormal' },
};
/** Another system's interpretation codes as our flag (the narrower ones read as the flag they belong to). */
const FLAG_OF_CODE: Readonly<Record<string, LabFlag>> = { L: 'low', LU: 'low', '<': 'low', H: 'high', HU: 'high', '>': 'high', A: 'abnormal', AA: 'critical', LL: 'critical', HH: 'critical' };
const FLAG_ORDER: readonly LabFlag[] = ['critical', 'high', 'low', 'abnormal'];
const flagOfCodes = (codes: Set<string>): LabFlag | undefined => FLAG_ORDER.find((flag) => [...codes].some((c) => FLAG_OF_CODE[c] === flag));

/** An Observation's value and numeric reference range. */
const rangeOf = (r: FhirJson) => ({
  result: number(at(r, 'valueQuantity.value')),
  range_low: number(at(r, 'referenceRange.0.low.value')),
  range_high: number(at(r, 'referenceRange.0.high.value')),
});

/** One end of the reference range, in the result's units. */
const rangeEnd = (end: 'low' | 'high'): FieldMap => ({
  write: (r, v, record) => put(r, `referenceRange.0.${end}`, { value: v, ...(typeof record.units === 'string' && record.units ? { unit: record.units } : {}) }),
  read: (r) => number(at(r, `referenceRange.0.${end}.value`)),
});

// --- Medicines ------------------------------------------------------------------------------

const PERIOD_UNITS: Readonly<Record<string, string>> = { hours: 'h', days: 'd', weeks: 'wk', months: 'mo' };
const PERIOD_BACK = reverse(PERIOD_UNITS);

/**
 * A dosage's timing as our record says it: taken `times` (FHIR frequency) every `frequency` (FHIR
 * period) `repeat` (periodUnit: hours, days, weeks, months); "every 8 hours" is frequency 1 period
 * 8 h, "twice a day" frequency 2 period 1 d. Another unit (minutes, years) is not read.
 */
function timingOf(dosage: unknown): { times?: number; frequency?: number; repeat?: string } {
  const repeat = at(dosage, 'timing.repeat');
  const unit = text(at(repeat, 'periodUnit'));
  if (!unit || !PERIOD_BACK.has(unit)) return {};
  const times = number(at(repeat, 'frequency'));
  const period = number(at(repeat, 'period'));
  return { ...(times !== undefined ? { times } : {}), ...(period !== undefined ? { frequency: period } : {}), repeat: PERIOD_BACK.get(unit)! };
}

/** The medicine of a MedicationStatement or MedicationRequest: its concept, its reference's display, or the Medication it references in the bundle. */
const medicine: FieldMap = {
  write: (r, v) => put(r, 'medicationCodeableConcept.text', String(v)),
  read: (r, ctx) => {
    const own = conceptText(r.medicationCodeableConcept) ?? text(at(r, 'medicationReference.display'));
    if (own) return own;
    const ref = text(at(r, 'medicationReference.reference'));
    return ref ? conceptText(ctx.resolve(ref)?.code) : undefined;
  },
};

/** The fields of a medicine's dosage (MedicationStatement.dosage, MedicationRequest.dosageInstruction). */
function dosageFields(dosage: string) {
  const dose = `${dosage}.doseAndRate.0.doseQuantity`;
  return {
    dosage: num(`${dose}.value`),
    unit: {
      write: (r, v) => {
        const u = DOSE_UNITS[String(v)];
        if (!u) return;
        put(r, `${dose}.unit`, u.unit);
        if (u.ucum) {
          put(r, `${dose}.system`, SYSTEMS.ucum);
          put(r, `${dose}.code`, u.ucum);
        }
      },
      read: (r) => doseUnitOf(at(r, dose)),
    } satisfies FieldMap,
    times: {
      write: (r, v) => put(r, `${dosage}.timing.repeat.frequency`, v),
      read: (r) => timingOf(at(r, dosage)).times,
    } satisfies FieldMap,
    frequency: {
      write: (r, v) => put(r, `${dosage}.timing.repeat.period`, v),
      read: (r) => timingOf(at(r, dosage)).frequency,
    } satisfies FieldMap,
    repeat: {
      write: (r, v) => {
        // FHIR's period goes with its unit: once every one, when the record gives no number.
        if (at(r, `${dosage}.timing.repeat.period`) === undefined) put(r, `${dosage}.timing.repeat.period`, 1);
        put(r, `${dosage}.timing.repeat.periodUnit`, PERIOD_UNITS[String(v)]);
      },
      read: (r) => timingOf(at(r, dosage)).repeat,
    } satisfies FieldMap,
    as_needed: {
      write: (r) => put(r, `${dosage}.asNeededBoolean`, true),
      // A reason it is taken for ("as needed for pain") says as needed too.
      read: (r) => (at(r, `${dosage}.asNeededBoolean`) === true || at(r, `${dosage}.asNeededCodeableConcept`) !== undefined ? true : undefined),
    } satisfies FieldMap,
  };
}

const medicationStatement = (category: 'medication' | 'supplement'): CategoryMapping => ({
  category,
  resourceType: 'MedicationStatement',
  patientElement: 'subject',
  base: () => ({ status: 'active' }),
  fields: {
    code: medicine,
    ingredient: EXTENSION,
    ...dosageFields('dosage.0'),
    concentration: EXTENSION,
    start_date: dateAt('effectivePeriod.start', 'effectiveDateTime'),
    stopped: statusFlag('stopped', ['stopped', 'completed']),
    stop_reason: concept('statusReason.0'),
    note: annotation(),
  },
});

// --- Choices as codes -----------------------------------------------------------------------

const identity = (values: readonly string[]) => Object.fromEntries(values.map((v) => [v, v]));

const CONDITION_VERIFICATION: Coded = { system: SYSTEMS.conditionVerification, codes: identity(['unconfirmed', 'provisional', 'differential', 'confirmed', 'refuted', 'entered-in-error']) };
const ALLERGY_CLINICAL: Coded = {
  system: SYSTEMS.allergyClinical,
  codes: { active: 'active', recurrence: 'active', relapse: 'active', inactive: 'inactive', remission: 'inactive', resolved: 'resolved' },
};
const ALLERGY_VERIFICATION: Coded = { system: SYSTEMS.allergyVerification, codes: { unconfirmed: 'unconfirmed', presumed: 'unconfirmed', confirmed: 'confirmed', refuted: 'refuted', 'entered-in-error': 'entered-in-error' } };
const PROCEDURE_OUTCOME: Coded = {
  system: SYSTEMS.snomed,
  codes: { successful: '385669000', 'partially-successful': '385670004', unsuccessful: '385671000' },
  displays: { successful: 'Successful', 'partially-successful': 'Partially successful', unsuccessful: 'Unsuccessful' },
};
/** Relatives as v3 RoleCode (narrower codes read as the relative they are). */
const RELATIONSHIP: Coded = {
  system: SYSTEMS.roleCode,
  codes: { mother: 'MTH', father: 'FTH', sister: 'SIS', brother: 'BRO', daughter: 'DAU', son: 'SON', grandmother: 'GRMTH', grandfather: 'GRFTH', aunt: 'AUNT', uncle: 'UNCLE', cousin: 'COUSN', other: 'FAMMEMB' },
  displays: { mother: 'mother', father: 'father', sister: 'sister', brother: 'brother', daughter: 'natural daughter', son: 'natural son', grandmother: 'grandmother', grandfather: 'grandfather', aunt: 'aunt', uncle: 'uncle', cousin: 'cousin', other: 'family member' },
  aliases: {
    NMTH: 'mother', STPMTH: 'mother', ADOPTM: 'mother', NFTH: 'father', STPFTH: 'father', ADOPTF: 'father', NSIS: 'sister', HSIS: 'sister', TWINSIS: 'sister', NBRO: 'brother', HBRO: 'brother', TWINBRO: 'brother',
    DAUC: 'daughter', DAUADOPT: 'daughter', SONC: 'son', SONADOPT: 'son', MGRMTH: 'grandmother', PGRMTH: 'grandmother', MGRFTH: 'grandfather', PGRFTH: 'grandfather',
    MAUNT: 'aunt', PAUNT: 'aunt', MUNCLE: 'uncle', PUNCLE: 'uncle', MCOUSN: 'cousin', PCOUSN: 'cousin', FAMMEMB: 'other',
  },
};
/** Social-history subjects: our own code system, with LOINC's history codes where LOINC has one. */
const SOCIAL_LABELS: Readonly<Record<string, string>> = {
  tobacco: 'Tobacco use',
  alcohol: 'Alcohol use',
  'recreational-drugs': 'Recreational drug use',
  'physical-activity': 'Physical activity',
  diet: 'Diet',
  sleep: 'Sleep',
  occupation: 'Occupation',
  stress: 'Stress',
  other: 'Other',
};
const SOCIAL_OURS: Coded = { system: `${SYSTEMS.choice}socialCategory`, codes: identity(Object.keys(SOCIAL_LABELS)), displays: SOCIAL_LABELS };
const SOCIAL_LOINC: Coded = {
  system: SYSTEMS.loinc,
  codes: { tobacco: '72166-2', alcohol: '11331-6', 'recreational-drugs': '11343-1', occupation: '11341-5' },
  displays: { tobacco: 'Tobacco smoking status', alcohol: 'History of Alcohol use', 'recreational-drugs': 'History of Other nonmedical drug use', occupation: 'History of Occupation' },
  aliases: { '11367-0': 'tobacco', '39240-7': 'tobacco', '74013-4': 'alcohol', '72109-2': 'alcohol', '89574-8': 'physical-activity', '68516-4': 'physical-activity', '11340-7': 'occupation' },
};
const socialCategory = coded('code', [SOCIAL_OURS, SOCIAL_LOINC], (v) => SOCIAL_LABELS[v] ?? v);

const category = (system: string, c: string, shown?: string) => [{ coding: [{ system, code: c, ...(shown ? { display: shown } : {}) }] }];
const observationCategory = (c: string, shown: string) => category(SYSTEMS.observationCategory, c, shown);

/** Was the condition over: an abatement of any kind. */
const abated = (r: FhirJson) => Object.keys(r).some((k) => k.startsWith('abatement'));

/** The two observations of a symptom or a condition share their form; a symptom is an observation the patient reported. */
const conditionLikeExtensions = { intensity: EXTENSION, frequency: EXTENSION, interval: EXTENSION, verified: EXTENSION } as const;

// --- The mapping, one entry per category ----------------------------------------------------

export const FHIR_MAPPINGS: readonly CategoryMapping[] = [
  {
    category: 'condition',
    resourceType: 'Condition',
    patientElement: 'subject',
    base: () => ({ category: category(SYSTEMS.conditionCategory, 'problem-list-item', 'Problem List Item') }),
    fields: {
      name: concept('code'),
      verification_status: coded('verificationStatus', [CONDITION_VERIFICATION]),
      start_date: choiceDate('onset', true),
      end_date: choiceDate('abatement', true),
      ...conditionLikeExtensions,
      note: annotation(),
    },
    // FHIR: an abated condition is resolved; none but an entered-in-error one is without a clinical
    // status, and that one has no abatement either (its end date then rides in an extension).
    complete: (r) => {
      if (hasCode(r.verificationStatus, SYSTEMS.conditionVerification, 'entered-in-error')) {
        for (const key of Object.keys(r)) if (key.startsWith('abatement')) delete r[key];
        return;
      }
      r.clinicalStatus = { coding: [{ system: SYSTEMS.conditionClinical, code: abated(r) ? 'resolved' : 'active' }] };
    },
  },
  {
    category: 'symptom',
    resourceType: 'Observation',
    patientElement: 'subject',
    base: () => ({ status: 'final', category: [{ coding: [{ system: SYSTEMS.snomed, code: SNOMED_REPORTED_FINDING, display: 'Finding reported by subject or history provider' }], text: 'Symptom' }] }),
    fields: {
      name: concept('code'),
      verification_status: EXTENSION,
      start_date: dateAt('effectivePeriod.start', 'effectiveDateTime'),
      end_date: dateAt('effectivePeriod.end'),
      ...conditionLikeExtensions,
      note: annotation(),
    },
  },
  medicationStatement('medication'),
  {
    category: 'allergy',
    resourceType: 'AllergyIntolerance',
    patientElement: 'patient',
    base: () => ({}),
    fields: {
      code: concept('code'),
      code_override: EXTENSION,
      clinical_status: coded('clinicalStatus', [ALLERGY_CLINICAL]),
      verification_status: coded('verificationStatus', [ALLERGY_VERIFICATION]),
      type: code('type', ['allergy', 'intolerance']),
      category: code('category', ['food', 'medication', 'environment', 'biologic'], true),
      category_override: EXTENSION,
      criticality: code('criticality', ['low', 'high', 'unable-to-assess']),
      reaction: concept('reaction.0.manifestation.0'),
      // A reaction's severity goes with its manifestation (FHIR requires one).
      reaction_severity: {
        write: (r, v, record) => {
          if (record.reaction) put(r, 'reaction.0.severity', v);
        },
        read: (r) => code('reaction.0.severity', ['mild', 'moderate', 'severe']).read(r, { resolve: () => undefined }),
      },
      onset_date: choiceDate('onset', true),
      last_occurrence: dateAt('lastOccurrence'),
      recorded_date: dateAt('recordedDate'),
      recorder: display('recorder'),
      note: annotation(),
    },
    // FHIR: a clinical status unless entered in error, and then none.
    complete: (r) => {
      if (hasCode(r.verificationStatus, SYSTEMS.allergyVerification, 'entered-in-error')) delete r.clinicalStatus;
      else r.clinicalStatus ??= { coding: [{ system: SYSTEMS.allergyClinical, code: 'active' }] };
    },
  },
  {
    category: 'immunization',
    resourceType: 'Immunization',
    patientElement: 'patient',
    base: () => ({ status: 'completed' }),
    fields: {
      vaccine_name: concept('vaccineCode'),
      manufacturer: display('manufacturer'),
      // FHIR requires the dose number of a protocol: the series size goes with it.
      dose_number: num('protocolApplied.0.doseNumberPositiveInt'),
      series_doses: {
        write: (r, v, record) => {
          if (record.dose_number) put(r, 'protocolApplied.0.seriesDosesPositiveInt', v);
        },
        read: (r) => number(at(r, 'protocolApplied.0.seriesDosesPositiveInt')),
      },
      date: choiceDate('occurrence', true),
      occurrence: display('location'),
      reaction: display('reaction.0.detail'),
      stopped: statusFlag('not-done', ['not-done']),
      stop_reason: concept('statusReason'),
      note: annotation(),
    },
    // FHIR requires an occurrence: a record without a date says so in words.
    complete: (r, _record, ctx) => {
      if (r.occurrenceDateTime === undefined && r.occurrenceString === undefined) r.occurrenceString = ctx.unknownDateText;
    },
  },
  {
    category: 'lab',
    resourceType: 'Observation',
    patientElement: 'subject',
    base: () => ({ status: 'final', category: observationCategory('laboratory', 'Laboratory') }),
    fields: {
      test: concept('code'),
      test_date: dateAt('effectiveDateTime', 'effectivePeriod.start'),
      result: {
        write: (r, v) => put(r, 'valueQuantity.value', v),
        // Another system's result that is not a number is read as it is (the rules refuse it, saying why).
        read: (r) => number(at(r, 'valueQuantity.value')) ?? number(r.valueInteger) ?? text(r.valueString) ?? conceptText(r.valueCodeableConcept),
      },
      units: {
        write: (r, v) => put(r, 'valueQuantity.unit', String(v)),
        read: (r) => text(at(r, 'valueQuantity.unit')) ?? text(at(r, 'valueQuantity.code')),
      },
      range_low: rangeEnd('low'),
      range_high: rangeEnd('high'),
      range_text: {
        write: (r, v) => put(r, 'referenceRange.0.text', String(v)),
        read: (r) => text(at(r, 'referenceRange.0.text')),
      },
      // The interpretation is written once for the flag and the normal range (complete, below).
      flag: {
        write: () => undefined,
        // Kept only where it says more than the result and its range (set by hand: critical, say).
        read: (r) => {
          const flag = flagOfCodes(codesOf(r.interpretation));
          return flag && flag !== labFlag(rangeOf(r)) && !(flag === 'abnormal' && rangeOf(r).range_low === undefined && rangeOf(r).range_high === undefined) ? flag : undefined;
        },
      },
      within_normal_range: {
        write: () => undefined,
        read: (r) => {
          const codes = codesOf(r.interpretation);
          if (codes.has('N')) return true;
          if (flagOfCodes(codes)) return false;
          // No interpretation: within the reference range, when there is one.
          const { result, range_low: low, range_high: high } = rangeOf(r);
          if (result === undefined || (low === undefined && high === undefined)) return undefined;
          return (low === undefined || result >= low) && (high === undefined || result <= high);
        },
      },
      conclusion: EXTENSION,
      note: annotation(),
    },
    // HL7 v3 ObservationInterpretation: the flag (L, H, A, AA), else N within the normal range or A outside it.
    complete: (r, record) => {
      const flag = labFlag(record);
      if (flag) r.interpretation = [{ coding: [{ system: SYSTEMS.interpretation, ...INTERPRETATION[flag] }] }];
      else if (record.within_normal_range === true || (typeof record.result === 'number' && (typeof record.range_low === 'number' || typeof record.range_high === 'number')))
        r.interpretation = [{ coding: [{ system: SYSTEMS.interpretation, code: 'N', display: 'Normal' }] }];
    },
  },
  {
    category: 'diagnostic',
    resourceType: 'DiagnosticReport',
    patientElement: 'subject',
    base: () => ({ status: 'final', category: [{ coding: [{ system: SYSTEMS.diagnosticService, code: 'RAD', display: 'Radiology' }] }] }),
    fields: {
      test: concept('code'),
      test_date: dateAt('effectiveDateTime', 'effectivePeriod.start'),
      // The report itself, as plain text.
      result: {
        write: (r, v) => void (r.presentedForm = [{ contentType: 'text/plain; charset=utf-8', data: Buffer.from(String(v), 'utf8').toString('base64') }]),
        read: (r) => {
          const form = list(r.presentedForm).find((f) => /^text\/plain/.test(String(at(f, 'contentType') ?? '')) && typeof at(f, 'data') === 'string');
          return form ? text(Buffer.from(String(at(form, 'data')), 'base64').toString('utf8')) : undefined;
        },
      },
      body_site: EXTENSION,
      within_normal_range: EXTENSION,
      conclusion: str('conclusion'),
      note: EXTENSION,
    },
  },
  {
    category: 'medicalvisit',
    resourceType: 'Encounter',
    patientElement: 'subject',
    base: () => ({ status: 'finished', class: { system: SYSTEMS.actCode, code: 'AMB', display: 'ambulatory' } }),
    fields: {
      reason: concept('reasonCode.0', 'type.0'),
      date: dateAt('period.start'),
      professional: display('participant.0.individual'),
      symptoms: EXTENSION,
      findings: EXTENSION,
      diagnosis: display('diagnosis.0.condition'),
      treatment: EXTENSION,
      note: EXTENSION,
    },
  },
  procedure('surgery'),
  procedure('procedure'),
  {
    category: 'socialhistory',
    resourceType: 'Observation',
    patientElement: 'subject',
    base: () => ({ status: 'final', category: observationCategory('social-history', 'Social History') }),
    fields: {
      // Another system's subject we have no code for is "other", named by its text.
      category: { write: socialCategory.write, read: (r, ctx) => socialCategory.read(r, ctx) ?? (conceptText(r.code) ? 'other' : undefined) },
      other_category: {
        write: (r, v, record) => {
          if (record.category === 'other') put(r, 'code.text', String(v));
        },
        read: (r, ctx) => (socialCategory.read(r, ctx) ?? 'other') === 'other' ? conceptText(r.code) : undefined,
      },
      start_age: EXTENSION,
      end_age: EXTENSION,
      frequency: EXTENSION,
      interval: EXTENSION,
      specialist_intervention: EXTENSION,
      note: annotation('note', true),
    },
  },
  {
    category: 'familyhistory',
    resourceType: 'FamilyMemberHistory',
    patientElement: 'patient',
    base: () => ({ status: 'completed' }),
    fields: {
      medical_issue: concept('condition.0.code'),
      relationship: coded('relationship', [RELATIONSHIP]),
      name: str('name'),
      deceased: {
        write: (r) => void (r.deceasedBoolean = true),
        read: (r) => (r.deceasedBoolean === true || ['deceasedAge', 'deceasedRange', 'deceasedDate', 'deceasedString'].some((k) => r[k] !== undefined) ? true : undefined),
      },
      age_of_presentation: {
        write: (r, v) => put(r, 'condition.0.onsetAge', { value: v, unit: 'years', system: SYSTEMS.ucum, code: 'a' }),
        read: (r) => number(at(r, 'condition.0.onsetAge.value')),
      },
      outcome: concept('condition.0.outcome'),
      note: annotation(),
    },
  },
  medicationStatement('supplement'),
  {
    category: 'travelhistory',
    resourceType: 'Observation',
    patientElement: 'subject',
    base: () => ({ status: 'final', category: observationCategory('social-history', 'Social History'), code: { coding: [{ system: SYSTEMS.snomed, code: SNOMED_TRAVEL, display: 'Travel' }], text: 'Travel' } }),
    fields: {
      country: {
        write: (r, v) => {
          const name = countryName(String(v), 'en');
          r.valueCodeableConcept = { coding: [{ system: SYSTEMS.iso3166, code: String(v), display: name }], text: name };
        },
        read: (r) => {
          const coding = codingsOf(r.valueCodeableConcept).find((c) => c.system === SYSTEMS.iso3166 || (typeof c.code === 'string' && /^[A-Za-z]{2}$/.test(c.code)));
          const found = typeof coding?.code === 'string' ? coding.code.toUpperCase() : undefined;
          return found && COUNTRY_CODES.includes(found) ? found : conceptText(r.valueCodeableConcept);
        },
      },
      start_date: dateAt('effectivePeriod.start', 'effectiveDateTime'),
      end_date: dateAt('effectivePeriod.end'),
      note: annotation(),
    },
  },
  {
    category: 'biometrics',
    resourceType: 'Observation',
    patientElement: 'subject',
    base: () => ({ status: 'final', category: observationCategory('vital-signs', 'Vital Signs') }),
    fields: {
      measure: measureMap,
      value: measurement,
      diastolic,
      measured_on: dateAt('effectiveDateTime', 'effectivePeriod.start'),
      note: annotation(),
    },
  },
  // Read only: another system's prescriptions (Synthea's) are medicines the patient takes.
  {
    category: 'medication',
    resourceType: 'MedicationRequest',
    patientElement: 'subject',
    importOnly: true,
    base: () => ({}),
    fields: {
      code: medicine,
      ingredient: EXTENSION,
      ...dosageFields('dosageInstruction.0'),
      concentration: EXTENSION,
      start_date: readOnly((r) => fromFhirDate(r.authoredOn) ?? fromFhirDate(at(r, 'dispenseRequest.validityPeriod.start'))),
      stopped: readOnly((r) => (typeof r.status === 'string' ? ['stopped', 'completed', 'cancelled'].includes(r.status) : undefined)),
      stop_reason: concept('statusReason'),
      note: annotation(),
    },
  },
];

function procedure(key: 'surgery' | 'procedure'): CategoryMapping {
  return {
    category: key,
    resourceType: 'Procedure',
    patientElement: 'subject',
    base: () => ({ status: 'completed', ...(key === 'surgery' ? { category: { coding: [{ system: SYSTEMS.snomed, code: SNOMED_SURGICAL_PROCEDURE, display: 'Surgical procedure' }] } } : {}) }),
    fields: {
      procedure: concept('code'),
      date: choiceDate('performed', true),
      biopsy: EXTENSION,
      implant: EXTENSION,
      hospital_doctor: display('performer.0.actor'),
      facility: display('location'),
      complications: concept('complication.0'),
      outcome: coded('outcome', [PROCEDURE_OUTCOME]),
      note: annotation(),
    },
  };
}

/** The mapping a category's records are exported with. */
export function exportMapping(key: string): CategoryMapping {
  const found = FHIR_MAPPINGS.find((m) => m.category === key && !m.importOnly);
  if (!found) throw new Error(`no FHIR mapping for ${key}`);
  return found;
}

// --- Exact values: extensions for what the elements cannot hold ------------------------------

const NO_REFERENCES: ReadContext = { resolve: () => undefined };

/** A field's value in a record, as the mapping handles it; null when empty (a false flag is empty). */
function recordValue(field: RecordField, record: RecordValues): FieldValue | null {
  if (field.kind === 'medicalDate') {
    const value = medicalDateOf(record, field.name);
    return value.part ? value : null;
  }
  const value = record[field.name];
  return value === null || value === undefined || value === false || value === '' ? null : value;
}

/** A value read from a resource, in the field's own form (a plain date from a day; anything less stays a partial date the rules refuse). */
function ownForm(field: RecordField, value: FieldValue | undefined): FieldValue | null {
  if (value === undefined || value === false) return null;
  if (field.kind === 'date' && typeof value === 'object') return value.part === 'day' ? value.date! : (toFhirDate(value) ?? null);
  return value;
}

const same = (a: FieldValue | null, b: FieldValue | null) =>
  a === null || b === null ? a === b : typeof a === 'object' && typeof b === 'object' ? a.date === b.date && a.part === b.part : a === b;

function fieldExtension(field: RecordField, value: FieldValue): Extension {
  const url = `${SYSTEMS.field}${field.name}`;
  switch (field.kind) {
    case 'medicalDate': {
      const date = value as MedicalDate;
      return date.part === 'past' ? { url, valueCode: 'past' } : { url, valueDate: toFhirDate(date)! };
    }
    case 'date':
      return { url, valueDate: String(value) };
    case 'boolean':
      return { url, valueBoolean: value === true };
    case 'number':
      return field.integer ? { url, valueInteger: Number(value) } : { url, valueDecimal: Number(value) };
    case 'measurement':
      return { url, valueDecimal: Number(value) };
    case 'choice':
    case 'country':
      return { url, valueCode: String(value) };
    case 'text':
      return { url, valueString: String(value) };
  }
}

function extensionValue(field: RecordField, extension: unknown): FieldValue | undefined {
  const e = extension as Record<string, unknown>;
  if (field.kind === 'medicalDate') return e.valueCode === 'past' ? PAST : fromFhirDate(e.valueDate);
  for (const key of ['valueString', 'valueCode', 'valueDate', 'valueInteger', 'valueDecimal', 'valueBoolean']) {
    const v = e[key];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  }
  return undefined;
}

/** The natural reading of a resource: each field from its element (extensions not applied). */
function readElements(mapping: CategoryMapping, definition: CategoryDefinition, resource: FhirJson, ctx: ReadContext): Map<string, FieldValue | null> {
  const values = new Map<string, FieldValue | null>();
  for (const field of definition.fields) {
    const map = mapping.fields[field.name];
    values.set(field.name, map && map !== EXTENSION ? ownForm(field, map.read(resource, ctx)) : null);
  }
  return values;
}

/**
 * A record as its category's resource (without id, meta, identifier and patient, which the
 * exporter adds): the elements, then an extension for each field they do not give back exactly.
 */
export function recordToResource(mapping: CategoryMapping, record: RecordValues, ctx: WriteContext): FhirJson {
  const definition = categoryDefinition(mapping.category)!;
  const resource: FhirJson = { resourceType: mapping.resourceType, ...mapping.base() };
  for (const field of definition.fields) {
    const map = mapping.fields[field.name];
    const value = recordValue(field, record);
    if (!map || map === EXTENSION) continue;
    if (value !== null) map.write(resource, value, record, ctx);
    else if (field.kind === 'boolean' && record[field.name] === false) map.writeFalse?.(resource);
  }
  mapping.complete?.(resource, record, ctx);
  const read = readElements(mapping, definition, resource, NO_REFERENCES);
  const extensions: Extension[] = [];
  for (const field of definition.fields) {
    const value = recordValue(field, record);
    if (same(value, read.get(field.name) ?? null)) continue;
    extensions.push(value === null ? { url: SYSTEMS.empty, valueCode: field.name } : fieldExtension(field, value));
  }
  return extensions.length ? { resourceType: resource.resourceType, extension: extensions, ...resource } : resource;
}

/**
 * A resource's values as a record's input (API field names, a medical date with its `_part`),
 * to be checked by the category's rules: the elements, then our extensions over them.
 */
export function resourceToInput(mapping: CategoryMapping, resource: FhirJson, ctx: ReadContext): Record<string, unknown> {
  const definition = categoryDefinition(mapping.category)!;
  const values = readElements(mapping, definition, resource, ctx);
  for (const extension of list(resource.extension)) {
    const url = at(extension, 'url');
    if (url === SYSTEMS.empty) {
      const name = at(extension, 'valueCode');
      if (typeof name === 'string' && values.has(name)) values.set(name, null);
      continue;
    }
    if (typeof url !== 'string' || !url.startsWith(SYSTEMS.field)) continue;
    const field = definition.fields.find((f) => f.name === url.slice(SYSTEMS.field.length));
    if (field) values.set(field.name, ownForm(field, extensionValue(field, extension)));
  }
  const input: Record<string, unknown> = {};
  for (const field of definition.fields) {
    const value = values.get(field.name) ?? null;
    if (field.kind === 'medicalDate') {
      const date = value as MedicalDate | null;
      input[field.name] = date?.date ?? null;
      input[`${field.name}_part`] = date?.part ?? null;
    } else input[field.name] = value;
  }
  input.private = isRestricted(resource);
  return input;
}

// --- Privacy and category tags --------------------------------------------------------------

/** The confidentiality label of a private ("for my eyes only") record. */
export const PRIVATE_LABEL = { system: SYSTEMS.confidentiality, code: 'R', display: 'restricted' } as const;

/** Restricted (R) or very restricted (V): a record for the patient's eyes only. */
export function isRestricted(resource: FhirJson): boolean {
  return list(at(resource, 'meta.security')).some((s) => at(s, 'system') === SYSTEMS.confidentiality && ['R', 'V'].includes(String(at(s, 'code'))));
}

// --- Which category a resource becomes (import) ----------------------------------------------

/** Why a resource is not imported: a message key of the records catalog, with its variables. */
export interface SkipReason {
  key: string;
  vars?: Record<string, string>;
}

/** The category a resource becomes, or why it is skipped. */
export function routeResource(resource: FhirJson): { mapping: CategoryMapping } | { skip: SkipReason } {
  const type = String(resource.resourceType);
  const tagged = list(at(resource, 'meta.tag')).find((t) => at(t, 'system') === SYSTEMS.category);
  if (tagged) {
    const own = FHIR_MAPPINGS.find((m) => !m.importOnly && m.category === at(tagged, 'code') && m.resourceType === type);
    if (own) return { mapping: own };
  }
  const byType = (key: CategoryKey) => ({ mapping: FHIR_MAPPINGS.find((m) => m.category === key && m.resourceType === type)! });
  switch (type) {
    case 'Condition':
      return byType('condition');
    case 'AllergyIntolerance':
      return byType('allergy');
    case 'Immunization':
      return byType('immunization');
    case 'MedicationStatement':
    case 'MedicationRequest':
      return byType('medication');
    case 'Encounter':
      return byType('medicalvisit');
    case 'FamilyMemberHistory':
      return byType('familyhistory');
    case 'Procedure':
      return byType(hasCode(resource.category, SYSTEMS.snomed, SNOMED_SURGICAL_PROCEDURE) ? 'surgery' : 'procedure');
    case 'DiagnosticReport':
      // A laboratory report gathers observations that come on their own.
      return codesOf(resource.category).has('LAB') ? { skip: { key: 'records:fhir.skippedLabReport' } } : byType('diagnostic');
    case 'Observation': {
      const categories = codesOf(resource.category);
      const name = conceptText(resource.code) ?? '';
      if (categories.has('vital-signs')) return measureOf(resource) ? byType('biometrics') : { skip: { key: 'records:fhir.skippedMeasure', vars: { name } } };
      if (categories.has('laboratory')) {
        // A panel without a value of its own: its results come as their own observations.
        const hasValue = Object.keys(resource).some((k) => k.startsWith('value'));
        return hasValue || !Array.isArray(resource.hasMember) ? byType('lab') : { skip: { key: 'records:fhir.skippedPanel', vars: { name } } };
      }
      if (categories.has('social-history')) return byType(hasCode(resource.code, SYSTEMS.snomed, SNOMED_TRAVEL) ? 'travelhistory' : 'socialhistory');
      if (categories.has(SNOMED_REPORTED_FINDING)) return byType('symptom');
      return { skip: { key: 'records:fhir.skippedObservation', vars: { name } } };
    }
    case 'Patient':
      return { skip: { key: 'records:fhir.skippedPatient' } };
    // A document Bundle (an International Patient Summary, a converted C-CDA) opens with its
    // Composition: the sections' list of the entries that follow, which import on their own.
    case 'Composition':
      return { skip: { key: 'records:fhir.skippedComposition' } };
    default:
      return { skip: { key: 'records:fhir.skippedType', vars: { type } } };
  }
}
