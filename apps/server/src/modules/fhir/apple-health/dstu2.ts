/**
 * FHIR DSTU2 (1.0.2) resources as R4, for the clinical records of an Apple Health export: a
 * patient-access API that spoke DSTU2 when the record was downloaded left it in DSTU2, and the
 * files carry no fhirVersion. So the version is told by the shape (an element only DSTU2 has, a
 * string where R4 has a CodeableConcept, one object where R4 has a list), and the resource is
 * rewritten by a table of rules per type: element renames, value conversions, elements R4 has no
 * place for, and a small function where one element becomes several or several one.
 *
 * Definitions: http://hl7.org/fhir/DSTU2/ and http://hl7.org/fhir/R4/ (each resource's
 * "Resource ... - Content" page). An R4 resource is never detected as DSTU2: every mark below is
 * an element R4 does not have at that place, or a value of a kind R4 does not allow there.
 */

type Json = Record<string, unknown>;

// --- Small helpers ----------------------------------------------------------------------------

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const nonEmpty = (value: unknown[]): unknown[] | undefined => (value.length ? value : undefined);

// --- How a DSTU2 resource shows ---------------------------------------------------------------

/** One sign of DSTU2: true when the resource has it. */
type Mark = (resource: Json) => boolean;

/** An element R4 does not have (at the top of the resource, or `a.*.b` inside a list). */
const has = (path: string): Mark => (r) => valuesAt(r, path).length > 0;
/** A string where R4 has a CodeableConcept (Condition.clinicalStatus). */
const isString = (path: string): Mark => (r) => valuesAt(r, path).some((v) => typeof v === 'string');
/** One object where R4 has a list (Observation.category, DiagnosticReport.performer). */
const isSingle = (path: string): Mark => (r) => valuesAt(r, path).some(isObject);
/** A code R4 does not have in that element (AllergyIntolerance.criticality CRITH). */
const isOneOf = (path: string, codes: readonly string[]): Mark => (r) => valuesAt(r, path).some((v) => typeof v === 'string' && codes.includes(v));

/** The values at a path; `*` steps into every item of a list. */
function valuesAt(node: unknown, path: string): unknown[] {
  let current: unknown[] = [node];
  for (const key of path.split('.')) {
    current = current.flatMap((n) => (key === '*' ? (Array.isArray(n) ? n : []) : isObject(n) && n[key] !== undefined ? [n[key]] : []));
  }
  return current;
}

// --- Rewriting ------------------------------------------------------------------------------

/** A DSTU2 value as its R4 one (undefined: R4 has no place for it). */
type Convert = (value: unknown) => unknown;

interface ElementRules {
  /** DSTU2 element -> its R4 name. */
  rename?: Readonly<Record<string, string>>;
  /** DSTU2 element (by its DSTU2 name) -> its value in R4. */
  convert?: Readonly<Record<string, Convert>>;
  /** DSTU2 elements R4 has no place for (or that `finish` reads from the source). */
  drop?: readonly string[];
  /** What a rename cannot say: several elements into one, one into several. A string: why it cannot be upgraded. */
  finish?: (out: Json, source: Json) => string | void;
}

interface TypeRules extends ElementRules {
  /** The signs of DSTU2 (any one is enough); a type R4 does not have needs none. */
  marks: readonly Mark[];
  /** The R4 resource type, when it is another one. */
  to?: string;
  /** Elements R4 requires that DSTU2 did not have (MedicationRequest.intent). */
  add?: Readonly<Json>;
  /** No rules to upgrade it: detected, then skipped. */
  unread?: true;
}

/** An element rewritten by its rules (a new object; the source is not touched). */
function rewrite(node: Json, rules: ElementRules): Json | string {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (rules.drop?.includes(key)) continue;
    const converted = rules.convert?.[key] ? rules.convert[key](value) : value;
    if (converted !== undefined) out[rules.rename?.[key] ?? key] = converted;
  }
  return rules.finish?.(out, node) ?? out;
}

// Conversions used by several types.

/** One value as a list (as it is when it is one already). */
const list: Convert = (v) => nonEmpty(asList(v));
/** Notes: a string, an Annotation or a list of them, as R4's Annotation list. */
const annotations: Convert = (v) => nonEmpty(asList(v).flatMap((n) => (typeof n === 'string' ? (n.trim() ? [{ text: n }] : []) : isObject(n) ? [n] : [])));
/** Each item of a list (or the one object) by the rules of its element. */
const each =
  (rules: ElementRules): Convert =>
  (v) =>
    nonEmpty(asList(v).flatMap((item) => (isObject(item) ? [rewrite(item, rules)].filter(isObject) : [])));
/** One object by the rules of its element. */
const element =
  (rules: ElementRules): Convert =>
  (v) => {
    const out = isObject(v) ? rewrite(v, rules) : v;
    return isObject(out) ? out : undefined;
  };
/** A code through a table (a code missing there has no R4 equivalent: dropped). */
const codes =
  (table: Readonly<Record<string, string>>): Convert =>
  (v) =>
    typeof v === 'string' ? table[v] : undefined;
/** A code as a CodeableConcept of an R4 code system. */
const conceptOf = (system: string, code: string) => ({ coding: [{ system, code }] });

// --- Code systems ------------------------------------------------------------------------------

const TERMINOLOGY = 'http://terminology.hl7.org/CodeSystem/';

/** DSTU2 code system URLs that R4 moved to terminology.hl7.org (v2 tables and v3 code systems by pattern). */
const SYSTEM_RENAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^http:\/\/hl7\.org\/fhir\/v2\/([0-9]{4})$/, `${TERMINOLOGY}v2-$1`],
  [/^http:\/\/hl7\.org\/fhir\/v3\/([A-Za-z]+)$/, `${TERMINOLOGY}v3-$1`],
  [/^http:\/\/hl7\.org\/fhir\/(observation-category|referencerange-meaning)$/, `${TERMINOLOGY}$1`],
];

/** Every Coding's system that moved, renamed (in place: on the upgraded copy only). */
function renameSystems(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(renameSystems);
  if (!isObject(node)) return;
  // A Coding (a Quantity's system is UCUM's, and it has a value).
  const system = node.system;
  if (typeof system === 'string' && node.code !== undefined && !('value' in node)) {
    const rename = SYSTEM_RENAMES.find(([pattern]) => pattern.test(system));
    if (rename) node.system = system.replace(rename[0], rename[1]);
  }
  for (const value of Object.values(node)) renameSystems(value);
}

/** Resource types DSTU2 has and R4 has not. */
const DSTU2_ONLY_TYPES = [
  'MedicationOrder', 'DiagnosticOrder', 'ProcedureRequest', 'ReferralRequest', 'Order', 'OrderResponse', 'DeviceUseRequest',
  'Conformance', 'BodySite', 'ImagingObjectSelection', 'ProcessRequest', 'ProcessResponse', 'EligibilityRequest', 'EligibilityResponse',
] as const;
const DSTU2_ONLY_REFERENCE = new RegExp(`(^|/)(${DSTU2_ONLY_TYPES.join('|')})/[^/]+$`);

/**
 * References to a resource of a type R4 has not (a DiagnosticOrder the report was requested by, a
 * prior MedicationOrder): R4 allows none there, so only their display is kept (none: left out).
 */
function dropDstu2References(node: unknown): unknown {
  if (Array.isArray(node)) {
    const items = node.map(dropDstu2References).filter((item) => item !== undefined);
    return items.length ? items : undefined;
  }
  if (!isObject(node)) return node;
  if (typeof node.reference === 'string' && DSTU2_ONLY_REFERENCE.test(node.reference)) {
    const { reference: _reference, ...rest } = node;
    return typeof rest.display === 'string' ? rest : undefined;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    const kept = dropDstu2References(value);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

// --- Shared element rules -------------------------------------------------------------------

/** Timing: DSTU2 periodUnits/durationUnits, boundsQuantity, one `when`. */
const TIMING: ElementRules = {
  convert: {
    repeat: element({ rename: { periodUnits: 'periodUnit', durationUnits: 'durationUnit', boundsQuantity: 'boundsDuration' }, convert: { when: list } }),
  },
};

const DOSE_AND_RATE = ['doseQuantity', 'doseRange', 'rateRatio', 'rateRange', 'rateQuantity'] as const;

/**
 * Dosage (MedicationOrder.dosageInstruction, MedicationStatement.dosage): the dose and rate go
 * into one doseAndRate; a site is a CodeableConcept only.
 */
const DOSAGE: ElementRules = {
  rename: { additionalInstructions: 'additionalInstruction', siteCodeableConcept: 'site', quantityQuantity: 'doseQuantity', quantityRange: 'doseRange' },
  convert: { additionalInstructions: list, timing: element(TIMING) },
  drop: ['siteReference'],
  finish: (out) => {
    const doseAndRate: Json = {};
    for (const key of DOSE_AND_RATE) {
      if (out[key] === undefined) continue;
      doseAndRate[key] = out[key];
      delete out[key];
    }
    if (Object.keys(doseAndRate).length) out.doseAndRate = [doseAndRate];
  },
};

/** A reference range: its meaning is R4's type. */
const REFERENCE_RANGE: ElementRules = { rename: { meaning: 'type' } };

/** reason[x] as R4's reasonCode and reasonReference lists. */
const REASONS = {
  rename: { reasonCodeableConcept: 'reasonCode' },
  convert: { reasonCodeableConcept: list, reasonReference: list },
} as const;

// --- Status tables ------------------------------------------------------------------------------

/** DSTU2 AllergyIntolerance.status as R4's two statuses (R4 requires a clinical status unless entered in error). */
const ALLERGY_STATUS: Readonly<Record<string, { clinical?: string; verification?: string }>> = {
  active: { clinical: 'active' },
  unconfirmed: { clinical: 'active', verification: 'unconfirmed' },
  confirmed: { clinical: 'active', verification: 'confirmed' },
  inactive: { clinical: 'inactive' },
  resolved: { clinical: 'resolved' },
  refuted: { clinical: 'inactive', verification: 'refuted' },
  'entered-in-error': { verification: 'entered-in-error' },
};

const CRITICALITY: Readonly<Record<string, string>> = { CRITL: 'low', CRITH: 'high', CRITU: 'unable-to-assess', low: 'low', high: 'high', 'unable-to-assess': 'unable-to-assess' };

/** DSTU2 Condition.verificationStatus: all but `unknown` are R4 codes. */
const CONDITION_VERIFICATION = ['provisional', 'differential', 'confirmed', 'refuted', 'entered-in-error'];
/** R4 con-4: an abated condition is not active. */
const NOT_ABATED = ['active', 'recurrence', 'relapse'];

/** DSTU2 Immunization.status (MedicationAdministrationStatus) as R4's; in-progress and on-hold have none. */
const IMMUNIZATION_STATUS: Readonly<Record<string, string>> = { completed: 'completed', 'entered-in-error': 'entered-in-error', stopped: 'not-done' };

/** DSTU2 MedicationOrder.status: every code is an R4 MedicationRequest one. */
const ORDER_STATUS: Readonly<Record<string, string>> = { active: 'active', 'on-hold': 'on-hold', completed: 'completed', 'entered-in-error': 'entered-in-error', stopped: 'stopped', draft: 'draft' };
const STATEMENT_STATUS: Readonly<Record<string, string>> = { active: 'active', completed: 'completed', 'entered-in-error': 'entered-in-error', intended: 'intended' };
const PROCEDURE_STATUS: Readonly<Record<string, string>> = { 'in-progress': 'in-progress', aborted: 'stopped', completed: 'completed', 'entered-in-error': 'entered-in-error' };

/** Immunization.vaccinationProtocol as protocolApplied (R4 requires the dose number: one without it is left out). */
const PROTOCOL: ElementRules = {
  rename: { doseSequence: 'doseNumberPositiveInt', seriesDoses: 'seriesDosesPositiveInt' },
  convert: { targetDisease: list },
  drop: ['description', 'doseStatus', 'doseStatusReason'],
  finish: (out) => (typeof out.doseNumberPositiveInt === 'number' ? undefined : 'no dose number'),
};

/** v2-0443: who did what to an immunization. */
const PERFORMER_FUNCTION = (code: 'AP' | 'OP') => ({ coding: [{ system: `${TERMINOLOGY}v2-0443`, code, display: code === 'AP' ? 'Administering Provider' : 'Ordering Provider' }] });

// --- The rules, one entry per type ---------------------------------------------------------

const RULES: Readonly<Record<string, TypeRules>> = {
  AllergyIntolerance: {
    marks: [has('substance'), isString('status'), isOneOf('criticality', ['CRITL', 'CRITH', 'CRITU']), has('lastOccurence'), has('reporter'), isSingle('note'), has('reaction.*.certainty')],
    rename: { substance: 'code', onset: 'onsetDateTime', lastOccurence: 'lastOccurrence', reporter: 'asserter' },
    convert: {
      criticality: codes(CRITICALITY),
      // R4 has no `other` category.
      category: (v) => (typeof v === 'string' && ['food', 'medication', 'environment'].includes(v) ? [v] : undefined),
      note: annotations,
      reaction: each({ convert: { note: annotations }, drop: ['certainty'] }),
    },
    drop: ['status'],
    finish: (out, source) => {
      const status = typeof source.status === 'string' ? ALLERGY_STATUS[source.status] : undefined;
      // No status (DSTU2 made it optional): active, as R4 requires a clinical status (ait-1).
      const { clinical, verification } = status ?? { clinical: 'active' };
      if (clinical) out.clinicalStatus = conceptOf(`${TERMINOLOGY}allergyintolerance-clinical`, clinical);
      if (verification) out.verificationStatus = conceptOf(`${TERMINOLOGY}allergyintolerance-verification`, verification);
    },
  },
  Condition: {
    marks: [has('patient'), isString('clinicalStatus'), isString('verificationStatus'), has('dateRecorded'), isSingle('category'), has('notes'), has('abatementBoolean'), has('onsetQuantity'), has('abatementQuantity'), isSingle('stage'), isSingle('evidence.*.code')],
    rename: { patient: 'subject', dateRecorded: 'recordedDate', notes: 'note', onsetQuantity: 'onsetAge', abatementQuantity: 'abatementAge' },
    convert: {
      clinicalStatus: (v) => (typeof v === 'string' ? conceptOf(`${TERMINOLOGY}condition-clinical`, v) : v),
      verificationStatus: (v) => (typeof v === 'string' ? (CONDITION_VERIFICATION.includes(v) ? conceptOf(`${TERMINOLOGY}condition-ver-status`, v) : undefined) : v),
      category: list,
      notes: annotations,
      stage: list,
      evidence: each({ convert: { code: list } }),
    },
    drop: ['abatementBoolean'],
    finish: (out, source) => {
      const abated = source.abatementBoolean === true || Object.keys(out).some((k) => k.startsWith('abatement'));
      const clinical = valuesAt(out, 'clinicalStatus.coding.*.code')[0];
      const enteredInError = valuesAt(out, 'verificationStatus.coding.*.code')[0] === 'entered-in-error';
      if (enteredInError) delete out.clinicalStatus; // R4 con-5
      else if (abated && (clinical === undefined || NOT_ABATED.includes(String(clinical)))) out.clinicalStatus = conceptOf(`${TERMINOLOGY}condition-clinical`, 'resolved'); // con-4
    },
  },
  Immunization: {
    marks: [has('date'), has('wasNotGiven'), has('reported'), has('explanation'), has('vaccinationProtocol'), has('requester'), isSingle('performer')],
    rename: { date: 'occurrenceDateTime', reported: 'primarySource', vaccinationProtocol: 'protocolApplied' },
    convert: {
      reported: (v) => (typeof v === 'boolean' ? !v : undefined),
      vaccinationProtocol: each(PROTOCOL),
    },
    drop: ['status', 'wasNotGiven', 'explanation', 'performer', 'requester'],
    finish: (out, source) => {
      const status = source.wasNotGiven === true ? 'not-done' : typeof source.status === 'string' ? IMMUNIZATION_STATUS[source.status] : 'completed';
      if (!status) return `a FHIR DSTU2 Immunization with status ${String(source.status)}, which R4 has no status for`;
      out.status = status;
      const explanation = isObject(source.explanation) ? source.explanation : {};
      const notGiven = asList(explanation.reasonNotGiven)[0];
      if (status === 'not-done' && notGiven) out.statusReason = notGiven;
      if (Array.isArray(explanation.reason) && explanation.reason.length) out.reasonCode = explanation.reason;
      const performer = [
        ...(isObject(source.performer) ? [{ function: PERFORMER_FUNCTION('AP'), actor: source.performer }] : []),
        ...(isObject(source.requester) ? [{ function: PERFORMER_FUNCTION('OP'), actor: source.requester }] : []),
      ];
      if (performer.length) out.performer = performer;
      // R4 requires an occurrence: one without a date is said in words.
      if (out.occurrenceDateTime === undefined) out.occurrenceString = 'Date not recorded';
    },
  },
  MedicationOrder: {
    marks: [],
    to: 'MedicationRequest',
    add: { intent: 'order' },
    rename: { patient: 'subject', prescriber: 'requester', dateWritten: 'authoredOn', reasonEnded: 'statusReason', ...REASONS.rename },
    convert: {
      ...REASONS.convert,
      status: codes(ORDER_STATUS),
      note: annotations,
      dosageInstruction: each(DOSAGE),
      dispenseRequest: element({ drop: ['medicationCodeableConcept', 'medicationReference'] }),
      substitution: element({ rename: { type: 'allowedCodeableConcept' } }),
    },
    drop: ['dateEnded'],
    finish: (out) => void (out.status ??= 'unknown'),
  },
  MedicationStatement: {
    marks: [has('patient'), has('wasNotTaken'), has('reasonNotTaken'), has('reasonForUseCodeableConcept'), has('reasonForUseReference'), has('supportingInformation'), isString('note'), has('dosage.*.quantityQuantity'), has('dosage.*.quantityRange')],
    rename: { patient: 'subject', reasonNotTaken: 'statusReason', reasonForUseCodeableConcept: 'reasonCode', reasonForUseReference: 'reasonReference', supportingInformation: 'derivedFrom' },
    convert: { status: codes(STATEMENT_STATUS), reasonForUseCodeableConcept: list, reasonForUseReference: list, note: annotations, dosage: each(DOSAGE) },
    drop: ['wasNotTaken'],
    finish: (out, source) => {
      if (source.wasNotTaken === true) out.status = 'not-taken';
      out.status ??= 'unknown';
    },
  },
  Observation: {
    marks: [isSingle('category'), isSingle('interpretation'), has('comments'), has('related'), has('valueAttachment'), has('referenceRange.*.meaning'), has('component.*.referenceRange.*.meaning')],
    rename: { comments: 'note' },
    convert: {
      category: list,
      interpretation: list,
      comments: annotations,
      referenceRange: each(REFERENCE_RANGE),
      component: each({ convert: { referenceRange: each(REFERENCE_RANGE) } }),
    },
    // R4 has no Attachment value.
    drop: ['related', 'valueAttachment'],
    finish: (out, source) => {
      for (const [type, to] of [['has-member', 'hasMember'], ['derived-from', 'derivedFrom']] as const) {
        const targets = asList(source.related).filter((r) => isObject(r) && r.type === type && isObject(r.target)).map((r) => (r as Json).target);
        if (targets.length) out[to] = targets;
      }
    },
  },
  Procedure: {
    marks: [has('patient'), has('notPerformed'), has('reasonNotPerformed'), has('notes'), isOneOf('status', ['aborted']), has('reasonCodeableConcept'), isSingle('reasonReference'), has('request'), has('used'), has('performer.*.role')],
    rename: { patient: 'subject', notes: 'note', request: 'basedOn', used: 'usedReference', ...REASONS.rename },
    convert: { ...REASONS.convert, status: codes(PROCEDURE_STATUS), notes: annotations, request: list, performer: each({ rename: { role: 'function' } }) },
    drop: ['notPerformed', 'reasonNotPerformed'],
    finish: (out, source) => {
      if (source.notPerformed === true) {
        out.status = 'not-done';
        const reason = asList(source.reasonNotPerformed)[0];
        if (reason) out.statusReason = reason;
      }
      out.status ??= 'unknown';
    },
  },
  DiagnosticReport: {
    marks: [has('patient'), isSingle('category'), isSingle('performer'), has('request'), has('image'), has('codedDiagnosis')],
    rename: { patient: 'subject', request: 'basedOn', image: 'media', codedDiagnosis: 'conclusionCode' },
    convert: { category: list, performer: list },
  },
  Patient: {
    marks: [has('careProvider'), has('animal')],
    rename: { careProvider: 'generalPractitioner' },
    drop: ['animal'],
  },
  // Types Apple Health may hold that the import does not read as DSTU2 (by an element R4 does not have).
  MedicationDispense: { marks: [has('patient'), has('dispenser'), has('dosageInstruction.*.doseQuantity')], unread: true },
  Encounter: { marks: [has('patient'), isString('class'), has('indication')], unread: true },
  DocumentReference: { marks: [has('indexed'), has('class'), has('created')], unread: true },
  Coverage: { marks: [has('issuer'), has('bin'), has('plan'), has('subPlan')], unread: true },
  // Types R4 does not have.
  ...Object.fromEntries(DSTU2_ONLY_TYPES.filter((type) => type !== 'MedicationOrder').map((type) => [type, { marks: [], unread: true } satisfies TypeRules])),
};

/** Types R4 has not: each is DSTU2 (or older) whatever its elements. */
const R4_TYPES_WITHOUT: ReadonlySet<string> = new Set(DSTU2_ONLY_TYPES);

// --- The API --------------------------------------------------------------------------------

/** Whether a resource is DSTU2, by its shape (Apple's files carry no fhirVersion). */
export function isDstu2(resource: Record<string, unknown>): boolean {
  const type = resource.resourceType;
  if (typeof type !== 'string') return false;
  if (R4_TYPES_WITHOUT.has(type)) return true;
  return RULES[type]?.marks.some((mark) => mark(resource)) ?? false;
}

/**
 * A DSTU2 resource as R4 (a new object; the input is not changed), or why it cannot be. A
 * resource that is not DSTU2 is returned as it is.
 */
export function upgradeDstu2(resource: Record<string, unknown>): { resource: Record<string, unknown> } | { skip: string } {
  if (!isDstu2(resource)) return { resource };
  const type = String(resource.resourceType);
  const rules = RULES[type];
  if (!rules || rules.unread) return { skip: `a FHIR DSTU2 ${type}, which is not read` };
  const copy = structuredClone(resource);
  const out = rewrite(copy, rules);
  if (typeof out === 'string') return { skip: out };
  renameSystems(out);
  return { resource: { ...(dropDstu2References(out) as Json), resourceType: rules.to ?? type, ...rules.add } };
}
