/**
 * What an imported Bundle must look like before anything of it is read: a Bundle with a type,
 * entries that hold resources with a resourceType, and, in each resource of a type the mapping
 * reads, the elements it reads of the FHIR datatype they must be (a date that is a FHIR date, a
 * CodeableConcept that is one). The server has no FHIR validator at run time (the tests use
 * Medplum's against the R4 definitions); this checks what the import relies on, so that a
 * malformed resource is refused by name rather than read as something else.
 */
import { z } from 'zod';

/** One problem: where (entry index, resource type, element path) and what (a message key of the errors catalog). */
export interface ShapeProblem {
  entry: number | null;
  type: string | null;
  element: string;
  problem: 'fhirMustBe' | 'fhirNotDate' | 'fhirEmpty' | 'fhirNoResourceType' | 'fhirNoResource' | 'fhirNotBundle' | 'fhirBadId';
  expected?: string;
}

// FHIR R4 primitive formats (http://hl7.org/fhir/R4/datatypes.html).
const DATE_TIME =
  /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$/;
const ID = /^[A-Za-z0-9\-.]{1,64}$/;
const RESOURCE_TYPE = /^[A-Z][A-Za-z]{1,63}$/;

const str = z.string({ message: 'string' }).regex(/\S/, { message: 'empty' });
const code = str;
const uri = str;
const dateTime = z.string({ message: 'string' }).regex(DATE_TIME, { message: 'date' });
const integer = z.number({ message: 'integer' }).int({ message: 'integer' });
const positiveInt = integer.min(1, { message: 'positiveInt' });
const decimal = z.number({ message: 'decimal' });
const array = <T extends z.ZodType>(item: T) => z.array(item, { message: 'array' });
const object = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape, { message: 'object' });

const Coding = object({ system: uri.optional(), code: code.optional(), display: str.optional() });
const CodeableConcept = object({ coding: array(Coding).optional(), text: str.optional() });
const Reference = object({ reference: str.optional(), display: str.optional() });
const Period = object({ start: dateTime.optional(), end: dateTime.optional() });
const Quantity = object({ value: decimal.optional(), unit: str.optional(), system: uri.optional(), code: code.optional() });
const Annotation = object({ text: str });
const Identifier = object({ system: uri.optional(), value: str.optional() });
const Extension = object({ url: uri });
const Meta = object({ tag: array(Coding).optional(), security: array(Coding).optional(), lastUpdated: dateTime.optional() });
const Dosage = object({
  timing: object({ repeat: object({ frequency: positiveInt.optional(), period: decimal.optional(), periodUnit: code.optional() }).optional() }).optional(),
  doseAndRate: array(object({ doseQuantity: Quantity.optional() })).optional(),
  asNeededBoolean: z.boolean({ message: 'boolean' }).optional(),
});

/** Every resource: its id and meta, and what the import reads of any resource (identifiers, extensions, notes). */
const common = {
  resourceType: z.string(),
  id: z.string({ message: 'string' }).regex(ID, { message: 'id' }).optional(),
  meta: Meta.optional(),
  identifier: array(Identifier).optional(),
  extension: array(Extension).optional(),
  note: array(Annotation).optional(),
};
const Any = object(common);

const medication = { status: code.optional(), medicationCodeableConcept: CodeableConcept.optional(), medicationReference: Reference.optional() };

/** The elements the mapping reads, per resource type. */
const SHAPES: Record<string, z.ZodType> = {
  // R4 gives a QuestionnaireResponse one identifier, not a list (the import skips the resource; its shape must still pass).
  QuestionnaireResponse: object({ ...common, identifier: Identifier.optional() }),
  // So does a Composition (the first entry of a document Bundle, an International Patient Summary's).
  Composition: object({ ...common, identifier: Identifier.optional() }),
  Condition: object({
    ...common,
    code: CodeableConcept.optional(),
    category: array(CodeableConcept).optional(),
    clinicalStatus: CodeableConcept.optional(),
    verificationStatus: CodeableConcept.optional(),
    onsetDateTime: dateTime.optional(),
    onsetPeriod: Period.optional(),
    onsetString: str.optional(),
    abatementDateTime: dateTime.optional(),
    abatementPeriod: Period.optional(),
    abatementString: str.optional(),
  }),
  Observation: object({
    ...common,
    status: code.optional(),
    category: array(CodeableConcept).optional(),
    code: CodeableConcept.optional(),
    effectiveDateTime: dateTime.optional(),
    effectivePeriod: Period.optional(),
    valueQuantity: Quantity.optional(),
    valueString: str.optional(),
    valueInteger: integer.optional(),
    valueCodeableConcept: CodeableConcept.optional(),
    interpretation: array(CodeableConcept).optional(),
    referenceRange: array(object({ low: Quantity.optional(), high: Quantity.optional(), text: str.optional() })).optional(),
    component: array(object({ code: CodeableConcept, valueQuantity: Quantity.optional() })).optional(),
    hasMember: array(Reference).optional(),
  }),
  MedicationStatement: object({
    ...common,
    ...medication,
    effectiveDateTime: dateTime.optional(),
    effectivePeriod: Period.optional(),
    statusReason: array(CodeableConcept).optional(),
    dosage: array(Dosage).optional(),
  }),
  MedicationRequest: object({ ...common, ...medication, authoredOn: dateTime.optional(), statusReason: CodeableConcept.optional(), dosageInstruction: array(Dosage).optional() }),
  Medication: object({ ...common, code: CodeableConcept.optional() }),
  AllergyIntolerance: object({
    ...common,
    code: CodeableConcept.optional(),
    clinicalStatus: CodeableConcept.optional(),
    verificationStatus: CodeableConcept.optional(),
    type: code.optional(),
    category: array(code).optional(),
    criticality: code.optional(),
    reaction: array(object({ manifestation: array(CodeableConcept).optional(), severity: code.optional() })).optional(),
    onsetDateTime: dateTime.optional(),
    onsetPeriod: Period.optional(),
    onsetString: str.optional(),
    lastOccurrence: dateTime.optional(),
    recordedDate: dateTime.optional(),
    recorder: Reference.optional(),
  }),
  Immunization: object({
    ...common,
    status: code.optional(),
    vaccineCode: CodeableConcept.optional(),
    manufacturer: Reference.optional(),
    protocolApplied: array(object({ doseNumberPositiveInt: positiveInt.optional(), seriesDosesPositiveInt: positiveInt.optional() })).optional(),
    occurrenceDateTime: dateTime.optional(),
    occurrenceString: str.optional(),
    location: Reference.optional(),
    reaction: array(object({ detail: Reference.optional() })).optional(),
    statusReason: CodeableConcept.optional(),
  }),
  DiagnosticReport: object({
    ...common,
    status: code.optional(),
    category: array(CodeableConcept).optional(),
    code: CodeableConcept.optional(),
    effectiveDateTime: dateTime.optional(),
    effectivePeriod: Period.optional(),
    presentedForm: array(object({ contentType: code.optional(), data: z.string({ message: 'string' }).optional() })).optional(),
    conclusion: str.optional(),
  }),
  Encounter: object({
    ...common,
    status: code.optional(),
    class: Coding.optional(),
    reasonCode: array(CodeableConcept).optional(),
    type: array(CodeableConcept).optional(),
    period: Period.optional(),
    participant: array(object({ individual: Reference.optional() })).optional(),
    diagnosis: array(object({ condition: Reference.optional() })).optional(),
  }),
  Procedure: object({
    ...common,
    status: code.optional(),
    category: CodeableConcept.optional(),
    code: CodeableConcept.optional(),
    performedDateTime: dateTime.optional(),
    performedPeriod: Period.optional(),
    performedString: str.optional(),
    performer: array(object({ actor: Reference.optional() })).optional(),
    location: Reference.optional(),
    complication: array(CodeableConcept).optional(),
    outcome: CodeableConcept.optional(),
  }),
  FamilyMemberHistory: object({
    ...common,
    status: code.optional(),
    relationship: CodeableConcept.optional(),
    name: str.optional(),
    deceasedBoolean: z.boolean({ message: 'boolean' }).optional(),
    condition: array(object({ code: CodeableConcept.optional(), onsetAge: Quantity.optional(), outcome: CodeableConcept.optional() })).optional(),
  }),
};

function problemOf(entry: number, type: string, issue: z.core.$ZodIssue): ShapeProblem {
  const element = issue.path.map(String).join('.');
  const where = { entry, type, element };
  if (issue.message === 'date') return { ...where, problem: 'fhirNotDate' };
  if (issue.message === 'empty') return { ...where, problem: 'fhirEmpty' };
  if (issue.message === 'id') return { ...where, problem: 'fhirBadId' };
  // A required element of an object missing reads "object"/"string" from its own schema; zod's own words otherwise.
  const expected = /^[A-Za-z]+$/.test(issue.message) ? issue.message : issue.code === 'invalid_type' ? String((issue as { expected?: unknown }).expected) : 'valid';
  return { ...where, problem: 'fhirMustBe', expected };
}

export interface BundleEntryRead {
  /** Its position in Bundle.entry. */
  index: number;
  fullUrl: string | null;
  resource: Record<string, unknown>;
}

/**
 * A Bundle's entries, or every problem found (at most `maxProblems` listed): not a Bundle, no
 * type, an entry without a resource or a resourceType, an element of the wrong FHIR type.
 */
export function readBundle(bundle: Record<string, unknown>, maxProblems = 10): { entries: BundleEntryRead[]; problems: ShapeProblem[]; more: number } {
  const problems: ShapeProblem[] = [];
  let more = 0;
  const add = (p: ShapeProblem) => (problems.length < maxProblems ? problems.push(p) : more++);
  if (bundle.resourceType !== 'Bundle') {
    add({ entry: null, type: String(bundle.resourceType).slice(0, 64), element: 'resourceType', problem: 'fhirNotBundle' });
    return { entries: [], problems, more };
  }
  if (typeof bundle.type !== 'string' || bundle.type.trim() === '') add({ entry: null, type: 'Bundle', element: 'type', problem: 'fhirMustBe', expected: 'code' });
  if (bundle.entry !== undefined && !Array.isArray(bundle.entry)) add({ entry: null, type: 'Bundle', element: 'entry', problem: 'fhirMustBe', expected: 'array' });
  const entries: BundleEntryRead[] = [];
  const raw = Array.isArray(bundle.entry) ? (bundle.entry as unknown[]) : [];
  raw.forEach((entry, index) => {
    const resource = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).resource : undefined;
    if (resource === null || typeof resource !== 'object' || Array.isArray(resource)) return void add({ entry: index, type: null, element: 'resource', problem: 'fhirNoResource' });
    const r = resource as Record<string, unknown>;
    if (typeof r.resourceType !== 'string' || !RESOURCE_TYPE.test(r.resourceType)) return void add({ entry: index, type: null, element: 'resourceType', problem: 'fhirNoResourceType' });
    const result = (SHAPES[r.resourceType] ?? Any).safeParse(r);
    if (!result.success) {
      for (const issue of result.error.issues) add(problemOf(index, r.resourceType, issue));
      return;
    }
    const fullUrl = (entry as Record<string, unknown>).fullUrl;
    entries.push({ index, fullUrl: typeof fullUrl === 'string' && fullUrl.trim() !== '' ? fullUrl : null, resource: r });
  });
  return { entries, problems, more };
}
