import type {
  AllergyIntolerance,
  Binary,
  CodeableConcept,
  Condition,
  DiagnosticReport,
  DocumentReference,
  Encounter,
  FamilyMemberHistory,
  Immunization,
  MedicationRequest,
  MedicationStatement,
  Observation,
  ObservationReferenceRange,
  Patient,
  Procedure,
  Reference,
  Resource,
} from '@medplum/fhirtypes';

/**
 * A deterministic FHIR R4 record for one patient, shaped like what a US Core EHR returns, for the
 * test EHR (test-ehr.ts). Everything comes from a seeded PRNG and a fixed anchor date, so the same
 * seed gives the same resources, ids and dates on every run and every machine.
 */

export const SNOMED = 'http://snomed.info/sct';
export const LOINC = 'http://loinc.org';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const CVX = 'http://hl7.org/fhir/sid/cvx';
export const UCUM = 'http://unitsofmeasure.org';
const OBS_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

/** A file the test server serves outside FHIR, which a DocumentReference points to by absolute URL. */
export interface ExternalFile {
  /** The path on the test server, starting with "/". */
  path: string;
  contentType: string;
  data: Uint8Array;
}

export interface GeneratePatientOptions {
  patientId: string;
  /** "Given Family". */
  name: string;
  /** The number of resources to produce; below the base record's size, the base record is returned whole. */
  resources?: number;
  /** The origin that serves `files` (the test server's), for the external attachment's absolute URL. */
  fileOrigin?: string;
}

export interface GeneratedRecords {
  /** Patient first; a Binary comes before the DocumentReference that points to it. */
  resources: Resource[];
  files: ExternalFile[];
}

/** Mulberry32: a small, fast, seeded 32-bit PRNG, good enough for test data. */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Dates are spread back from this fixed instant rather than from the clock, to stay deterministic. */
const ANCHOR_MS = Date.UTC(2025, 5, 1, 9, 0, 0);
const DAY_MS = 86_400_000;

interface LabSpec {
  loinc: string;
  display: string;
  unit: string;
  low?: number;
  high: number;
  /** The range values are drawn from, wider than the reference range so some are flagged. */
  min: number;
  max: number;
  decimals: number;
}

const LABS: LabSpec[] = [
  { loinc: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma', unit: 'mg/dL', low: 70, high: 99, min: 65, max: 160, decimals: 0 },
  { loinc: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood', unit: '%', low: 4, high: 5.6, min: 4.8, max: 8.5, decimals: 1 },
  { loinc: '2160-0', display: 'Creatinine [Mass/volume] in Serum or Plasma', unit: 'mg/dL', low: 0.6, high: 1.3, min: 0.5, max: 1.6, decimals: 2 },
  { loinc: '2093-3', display: 'Cholesterol [Mass/volume] in Serum or Plasma', unit: 'mg/dL', high: 200, min: 140, max: 260, decimals: 0 },
  { loinc: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', unit: 'g/dL', low: 12, high: 16, min: 10.5, max: 17, decimals: 1 },
  { loinc: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma', unit: 'mmol/L', low: 3.5, high: 5.1, min: 3.2, max: 5.6, decimals: 1 },
];

/** Builds a generator bound to one patient; each method makes one resource. */
class RecordBuilder {
  private readonly random: () => number;
  private readonly subject: Reference<Patient>;
  private counter = 0;

  constructor(
    seed: number,
    private readonly patientId: string,
  ) {
    this.random = createPrng(seed);
    this.subject = { reference: `Patient/${patientId}` };
  }

  private id(kind: string): string {
    this.counter += 1;
    return `${this.patientId}-${kind}-${this.counter}`;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private between(min: number, max: number, decimals: number): number {
    const factor = 10 ** decimals;
    return Math.round((min + this.random() * (max - min)) * factor) / factor;
  }

  /** An instant `daysAgo` days (plus a random part of a day) before the anchor. */
  private date(daysAgo: number): string {
    return new Date(ANCHOR_MS - daysAgo * DAY_MS - Math.floor(this.random() * 8) * 3_600_000).toISOString();
  }

  private day(daysAgo: number): string {
    return this.date(daysAgo).slice(0, 10);
  }

  patient(name: string): Patient {
    const parts = name.trim().split(/\s+/);
    const family = parts.length > 1 ? (parts.pop() as string) : 'Example';
    const birthYear = 1950 + Math.floor(this.random() * 50);
    return {
      resourceType: 'Patient',
      id: this.patientId,
      identifier: [{ system: 'urn:oid:2.16.840.1.113883.19.5', value: `MRN-${Math.floor(this.random() * 9_000_000) + 1_000_000}` }],
      active: true,
      name: [{ use: 'official', family, given: parts }],
      telecom: [{ system: 'phone', value: `555-01${String(Math.floor(this.random() * 100)).padStart(2, '0')}`, use: 'home' }],
      gender: this.pick(['female', 'male'] as const),
      birthDate: `${birthYear}-${String(1 + Math.floor(this.random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(this.random() * 28)).padStart(2, '0')}`,
      address: [{ use: 'home', line: [`${100 + Math.floor(this.random() * 900)} Main Street`], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
      communication: [{ language: { coding: [{ system: 'urn:ietf:bcp:47', code: 'en-US', display: 'English (United States)' }] }, preferred: true }],
    };
  }

  allergy(substance: CodeableConcept, criticality: 'low' | 'high', manifestation: CodeableConcept, category: 'food' | 'medication'): AllergyIntolerance {
    return {
      resourceType: 'AllergyIntolerance',
      id: this.id('allergy'),
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
      verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'confirmed' }] },
      type: 'allergy',
      category: [category],
      criticality,
      code: substance,
      patient: this.subject,
      recordedDate: this.date(900),
      reaction: [{ manifestation: [manifestation], severity: criticality === 'high' ? 'severe' : 'mild' }],
    };
  }

  condition(code: string, display: string, onsetDaysAgo: number): Condition {
    return {
      resourceType: 'Condition',
      id: this.id('condition'),
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'confirmed' }] },
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item', display: 'Problem List Item' }] }],
      code: { coding: [{ system: SNOMED, code, display }], text: display },
      subject: this.subject,
      onsetDateTime: this.day(onsetDaysAgo),
      recordedDate: this.date(onsetDaysAgo - 1),
    };
  }

  medicationRequest(rxnorm: string, display: string, frequency: number, period: number, periodUnit: 'd' | 'wk' | 'h', dose: number): MedicationRequest {
    return {
      resourceType: 'MedicationRequest',
      id: this.id('medrequest'),
      status: 'active',
      intent: 'order',
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: rxnorm, display }], text: display },
      subject: this.subject,
      authoredOn: this.date(200),
      dosageInstruction: [
        {
          text: `${dose} tablet(s) by mouth ${frequency} time(s) per ${period} ${periodUnit}`,
          timing: { repeat: { frequency, period, periodUnit } },
          route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
          doseAndRate: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/dose-rate-type', code: 'ordered' }] }, doseQuantity: { value: dose, unit: 'tablet', system: UCUM, code: '{tbl}' } }],
        },
      ],
      dispenseRequest: { numberOfRepeatsAllowed: 3, quantity: { value: 90, unit: 'tablet', system: UCUM, code: '{tbl}' } },
    };
  }

  medicationStatement(rxnorm: string, display: string): MedicationStatement {
    return {
      resourceType: 'MedicationStatement',
      id: this.id('medstatement'),
      status: 'active',
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: rxnorm, display }], text: display },
      subject: this.subject,
      effectivePeriod: { start: this.day(400) },
      dateAsserted: this.date(30),
      dosage: [{ text: '2 puffs every 4 hours as needed', asNeededBoolean: true, timing: { repeat: { frequency: 1, period: 4, periodUnit: 'h' } }, doseAndRate: [{ doseQuantity: { value: 2, unit: 'puff', system: UCUM, code: '{puff}' } }] }],
    };
  }

  immunization(cvx: string, display: string, daysAgo: number): Immunization {
    return {
      resourceType: 'Immunization',
      id: this.id('immunization'),
      status: 'completed',
      vaccineCode: { coding: [{ system: CVX, code: cvx, display }], text: display },
      patient: this.subject,
      occurrenceDateTime: this.date(daysAgo),
      primarySource: true,
      lotNumber: `LOT${Math.floor(this.random() * 90_000) + 10_000}`,
      site: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActSite', code: 'LA', display: 'left arm' }] },
    };
  }

  private category(code: 'laboratory' | 'vital-signs' | 'social-history'): CodeableConcept[] {
    const display = { laboratory: 'Laboratory', 'vital-signs': 'Vital Signs', 'social-history': 'Social History' }[code];
    return [{ coding: [{ system: OBS_CATEGORY, code, display }] }];
  }

  lab(spec: LabSpec, daysAgo: number): Observation {
    const value = this.between(spec.min, spec.max, spec.decimals);
    const range: ObservationReferenceRange = { high: { value: spec.high, unit: spec.unit, system: UCUM, code: spec.unit } };
    if (spec.low !== undefined) range.low = { value: spec.low, unit: spec.unit, system: UCUM, code: spec.unit };
    const flag = value > spec.high ? ['H', 'High'] : spec.low !== undefined && value < spec.low ? ['L', 'Low'] : ['N', 'Normal'];
    const effective = this.date(daysAgo);
    return {
      resourceType: 'Observation',
      id: this.id('lab'),
      status: 'final',
      category: this.category('laboratory'),
      code: { coding: [{ system: LOINC, code: spec.loinc, display: spec.display }], text: spec.display },
      subject: this.subject,
      effectiveDateTime: effective,
      issued: effective,
      valueQuantity: { value, unit: spec.unit, system: UCUM, code: spec.unit },
      interpretation: [{ coding: [{ system: INTERPRETATION, code: flag[0] as string, display: flag[1] as string }] }],
      referenceRange: [range],
    };
  }

  private vital(loinc: string, display: string, daysAgo: number, value: number, unit: string, code: string): Observation {
    return {
      resourceType: 'Observation',
      id: this.id('vital'),
      status: 'final',
      category: this.category('vital-signs'),
      code: { coding: [{ system: LOINC, code: loinc, display }], text: display },
      subject: this.subject,
      effectiveDateTime: this.date(daysAgo),
      valueQuantity: { value, unit, system: UCUM, code },
    };
  }

  /** One visit's vital signs: weight, height, heart rate, blood pressure, temperature, SpO2. */
  vitals(daysAgo: number): Observation[] {
    const bloodPressure: Observation = {
      resourceType: 'Observation',
      id: this.id('vital'),
      status: 'final',
      category: this.category('vital-signs'),
      code: { coding: [{ system: LOINC, code: '85354-9', display: 'Blood pressure panel with all children optional' }], text: 'Blood pressure' },
      subject: this.subject,
      effectiveDateTime: this.date(daysAgo),
      component: [
        { code: { coding: [{ system: LOINC, code: '8480-6', display: 'Systolic blood pressure' }] }, valueQuantity: { value: this.between(108, 150, 0), unit: 'mmHg', system: UCUM, code: 'mm[Hg]' } },
        { code: { coding: [{ system: LOINC, code: '8462-4', display: 'Diastolic blood pressure' }] }, valueQuantity: { value: this.between(65, 95, 0), unit: 'mmHg', system: UCUM, code: 'mm[Hg]' } },
      ],
    };
    return [
      this.vital('29463-7', 'Body weight', daysAgo, this.between(55, 95, 1), 'kg', 'kg'),
      this.vital('8302-2', 'Body height', daysAgo, this.between(155, 190, 0), 'cm', 'cm'),
      this.vital('8867-4', 'Heart rate', daysAgo, this.between(55, 95, 0), '/min', '/min'),
      bloodPressure,
      this.vital('8310-5', 'Body temperature', daysAgo, this.between(36.2, 37.6, 1), 'Cel', 'Cel'),
      {
        ...this.vital('59408-5', 'Oxygen saturation in Arterial blood by Pulse oximetry', daysAgo, this.between(94, 100, 0), '%', '%'),
        code: {
          coding: [
            { system: LOINC, code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry' },
            { system: LOINC, code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
          ],
          text: 'SpO2',
        },
      },
    ];
  }

  smokingStatus(): Observation {
    const status = this.pick([
      ['266919005', 'Never smoker'],
      ['8517006', 'Ex-smoker'],
    ] as const);
    return {
      resourceType: 'Observation',
      id: this.id('social'),
      status: 'final',
      category: this.category('social-history'),
      code: { coding: [{ system: LOINC, code: '72166-2', display: 'Tobacco smoking status' }], text: 'Tobacco smoking status' },
      subject: this.subject,
      effectiveDateTime: this.date(60),
      valueCodeableConcept: { coding: [{ system: SNOMED, code: status[0], display: status[1] }], text: status[1] },
    };
  }

  diagnosticReport(results: Observation[], daysAgo: number): DiagnosticReport {
    return {
      resourceType: 'DiagnosticReport',
      id: this.id('report'),
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB', display: 'Laboratory' }] }],
      code: { coding: [{ system: LOINC, code: '24323-8', display: 'Comprehensive metabolic 2000 panel - Serum or Plasma' }], text: 'Metabolic panel' },
      subject: this.subject,
      effectiveDateTime: this.date(daysAgo),
      issued: this.date(daysAgo - 1),
      result: results.map((r) => ({ reference: `Observation/${r.id}`, display: r.code.text })),
      conclusion: 'Results reviewed.',
    };
  }

  procedure(code: string, display: string, daysAgo: number): Procedure {
    return {
      resourceType: 'Procedure',
      id: this.id('procedure'),
      status: 'completed',
      code: { coding: [{ system: SNOMED, code, display }], text: display },
      subject: this.subject,
      performedDateTime: this.date(daysAgo),
    };
  }

  encounter(daysAgo: number, reason: string): Encounter {
    const start = this.date(daysAgo);
    return {
      resourceType: 'Encounter',
      id: this.id('encounter'),
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' },
      type: [{ coding: [{ system: SNOMED, code: '185349003', display: 'Encounter for check up' }], text: 'Check-up' }],
      subject: this.subject,
      period: { start, end: new Date(Date.parse(start) + 30 * 60_000).toISOString() },
      reasonCode: [{ text: reason }],
    };
  }

  familyHistory(): FamilyMemberHistory {
    return {
      resourceType: 'FamilyMemberHistory',
      id: this.id('family'),
      status: 'completed',
      patient: this.subject,
      date: this.day(300),
      relationship: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode', code: 'FTH', display: 'father' }] },
      condition: [{ code: { coding: [{ system: SNOMED, code: '22298006', display: 'Myocardial infarction' }], text: 'Heart attack' }, onsetAge: { value: 58, unit: 'a', system: UCUM, code: 'a' } }],
    };
  }

  binary(data: Uint8Array, contentType: string): Binary {
    return { resourceType: 'Binary', id: this.id('binary'), contentType, securityContext: this.subject, data: Buffer.from(data).toString('base64') };
  }

  document(loinc: string, display: string, daysAgo: number, attachment: NonNullable<DocumentReference['content'][number]['attachment']>): DocumentReference {
    return {
      resourceType: 'DocumentReference',
      id: this.id('document'),
      status: 'current',
      type: { coding: [{ system: LOINC, code: loinc, display }], text: display },
      category: [{ coding: [{ system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', code: 'clinical-note', display: 'Clinical Note' }] }],
      subject: this.subject,
      date: this.date(daysAgo),
      content: [{ attachment }],
    };
  }

  /** Filler for large records: a lab or a vital sign on an earlier day. */
  extraObservation(index: number): Observation {
    const daysAgo = 30 + (index % 3650);
    if (index % 2 === 0) return this.lab(LABS[index % LABS.length] as LabSpec, daysAgo);
    const vitals = [
      () => this.vital('29463-7', 'Body weight', daysAgo, this.between(55, 95, 1), 'kg', 'kg'),
      () => this.vital('8867-4', 'Heart rate', daysAgo, this.between(55, 95, 0), '/min', '/min'),
      () => this.vital('8310-5', 'Body temperature', daysAgo, this.between(36.2, 37.6, 1), 'Cel', 'Cel'),
    ];
    return (vitals[index % vitals.length] as () => Observation)();
  }
}

/** A small, valid one-page PDF whose page shows `text` (ASCII), with a correct cross-reference table. */
export function makePdf(text: string): Uint8Array {
  const safe = text.replace(/[()\\]/g, '');
  const stream = `BT /F1 18 Tf 72 720 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/**
 * One patient's record: about 40 resources of every type the SMART sync reads, or `resources` of
 * them (the rest lab and vital-sign Observations spread over ten years) for a benchmark.
 */
export function generatePatientRecords(seed: number, options: GeneratePatientOptions): GeneratedRecords {
  const b = new RecordBuilder(seed, options.patientId);
  const fileOrigin = options.fileOrigin ?? 'http://127.0.0.1';
  const resources: Resource[] = [b.patient(options.name)];

  resources.push(
    b.allergy({ coding: [{ system: SNOMED, code: '256349002', display: 'Peanut' }], text: 'Peanuts' }, 'high', { coding: [{ system: SNOMED, code: '39579001', display: 'Anaphylaxis' }] }, 'food'),
    b.allergy({ coding: [{ system: RXNORM, code: '70618', display: 'Penicillin' }], text: 'Penicillin' }, 'low', { coding: [{ system: SNOMED, code: '271807003', display: 'Eruption of skin' }] }, 'medication'),
    b.condition('38341003', 'Hypertensive disorder, systemic arterial', 1500),
    b.condition('44054006', 'Diabetes mellitus type 2', 1100),
    b.condition('195967001', 'Asthma', 4000),
    b.medicationRequest('314076', 'lisinopril 10 MG Oral Tablet', 1, 1, 'd', 1),
    b.medicationRequest('861007', 'metformin hydrochloride 500 MG Oral Tablet', 2, 1, 'd', 1),
    b.medicationStatement('745679', '200 ACTUAT albuterol 0.09 MG/ACTUAT Metered Dose Inhaler'),
    b.immunization('140', 'Influenza, seasonal, injectable, preservative free', 240),
    b.immunization('208', 'SARS-COV-2 (COVID-19) vaccine, mRNA, spike protein, LNP, preservative free, 30 mcg/0.3mL dose', 500),
    b.immunization('115', 'Tdap', 2000),
  );
  const labs = LABS.map((spec) => b.lab(spec, 45));
  resources.push(...labs, ...b.vitals(45), ...b.vitals(400), b.smokingStatus(), b.diagnosticReport(labs, 45));
  resources.push(
    b.procedure('73761001', 'Colonoscopy', 700),
    b.procedure('80146002', 'Appendectomy', 6000),
    b.encounter(45, 'Annual check-up'),
    b.encounter(400, 'Follow-up of hypertension'),
    b.familyHistory(),
  );

  const pdf = makePdf(`Discharge summary for ${options.name}`);
  const binary = b.binary(pdf, 'application/pdf');
  resources.push(
    binary,
    b.document('18842-5', 'Discharge summary', 700, { contentType: 'application/pdf', url: `Binary/${binary.id}`, size: pdf.byteLength, title: 'Discharge summary' }),
  );
  const notePath = `/files/${encodeURIComponent(options.patientId)}/progress-note.html`;
  const note = new TextEncoder().encode(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Progress note</title></head><body><h1>Progress note</h1><p>${options.name} was seen for a check-up.</p></body></html>`);
  resources.push(b.document('11506-3', 'Progress note', 45, { contentType: 'text/html', url: `${fileOrigin}${notePath}`, size: note.byteLength, title: 'Progress note' }));

  const target = options.resources ?? 0;
  for (let i = 0; resources.length < target; i++) resources.push(b.extraObservation(i));
  return { resources, files: [{ path: notePath, contentType: 'text/html; charset=utf-8', data: note }] };
}
