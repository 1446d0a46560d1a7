import { beforeAll, describe, expect, it } from 'vitest';
import { fhirValidator } from '../../../../test/fhir-samples';
import { readResource } from '../fhir.service';
import { readBundle } from '../fhir.shapes';
import { isDstu2, upgradeDstu2 } from './dstu2';

type Json = Record<string, unknown>;

// DSTU2 resources as a patient-access API gave them to Apple Health (Epic's DSTU2 output, the
// shape of Apple's sample clinical records): absolute references, Epic ids, no fhirVersion.
const BASE = 'https://fhir.example-hospital.org/api/FHIR/DSTU2';
const PATIENT = { display: 'Jason Argonaut', reference: `${BASE}/Patient/Tbt3KuCY0B5PSrJvCu2j-PlK.aiHsu2xUjUM8bWpetXoB` };
const DOCTOR = { display: 'Physician Family Medicine, MD', reference: `${BASE}/Practitioner/T3Mz3KLBDVXXgaRoee3EKAAB` };

const DSTU2: Readonly<Record<string, Json>> = {
  allergy: {
    resourceType: 'AllergyIntolerance',
    id: 'TPcWiBG2h2E1q0vBWl5eCmQB',
    recordedDate: '2017-09-20T14:14:00Z',
    recorder: DOCTOR,
    patient: PATIENT,
    substance: { text: 'Penicillins', coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '7980', display: 'Penicillin G' }] },
    status: 'confirmed',
    criticality: 'CRITH',
    category: 'medication',
    type: 'allergy',
    onset: '2009-04-01',
    lastOccurence: '2016-05-02',
    note: { text: 'Carries an EpiPen' },
    reaction: [
      {
        certainty: 'likely',
        manifestation: [{ text: 'Hives', coding: [{ system: 'http://snomed.info/sct', code: '247472004', display: 'Hives' }] }],
        severity: 'moderate',
        onset: '2016-05-02',
      },
    ],
  },
  condition: {
    resourceType: 'Condition',
    id: 'TR2aGV.RDJ6.xL3Dbc5C71QB',
    patient: PATIENT,
    asserter: DOCTOR,
    dateRecorded: '2015-08-24',
    code: { text: 'Asthma', coding: [{ system: 'http://snomed.info/sct', code: '195967001', display: 'Asthma' }, { system: 'http://hl7.org/fhir/sid/icd-9-cm', code: '493.90' }] },
    category: { text: 'Diagnosis', coding: [{ system: 'http://hl7.org/fhir/condition-category', code: 'diagnosis', display: 'Diagnosis' }] },
    clinicalStatus: 'active',
    verificationStatus: 'confirmed',
    onsetDateTime: '2012-05-01',
    notes: 'Exercise-induced',
  },
  resolvedCondition: {
    resourceType: 'Condition',
    id: 'TNUkhyXKa2H.ELrgSzD2AhAB',
    patient: PATIENT,
    code: { text: 'Acute bronchitis', coding: [{ system: 'http://snomed.info/sct', code: '10509002' }] },
    verificationStatus: 'unknown',
    onsetDateTime: '2014-01-10',
    abatementBoolean: true,
  },
  immunization: {
    resourceType: 'Immunization',
    id: 'TiU3IHS4GHB6tCMXCQbMp3AB',
    status: 'completed',
    date: '2016-10-28T10:30:00-05:00',
    vaccineCode: { text: 'Influenza, seasonal, injectable', coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '141' }] },
    patient: PATIENT,
    wasNotGiven: false,
    reported: false,
    performer: DOCTOR,
    manufacturer: { display: 'Sanofi Pasteur' },
    location: { display: 'Family Medicine Clinic' },
    lotNumber: 'UJ478AA',
    site: { text: 'Left arm', coding: [{ system: 'http://hl7.org/fhir/v3/ActSite', code: 'LA', display: 'left arm' }] },
    route: { text: 'Intramuscular', coding: [{ system: 'http://hl7.org/fhir/v3/RouteOfAdministration', code: 'IM' }] },
    doseQuantity: { value: 0.5, unit: 'mL', system: 'http://unitsofmeasure.org', code: 'mL' },
    vaccinationProtocol: [{ doseSequence: 1, description: 'Annual', seriesDoses: 1, targetDisease: [{ text: 'Influenza' }], doseStatus: { text: 'Counts' } }],
  },
  refusedImmunization: {
    resourceType: 'Immunization',
    status: 'completed',
    date: '2017-11-02',
    vaccineCode: { text: 'Zoster vaccine', coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '121' }] },
    patient: PATIENT,
    wasNotGiven: true,
    reported: true,
    explanation: { reasonNotGiven: [{ text: 'Patient objection', coding: [{ system: 'http://hl7.org/fhir/v3/ActReason', code: 'PATOBJ' }] }] },
  },
  medicationOrder: {
    resourceType: 'MedicationOrder',
    id: 'T4aHnxBWG.ZNWEd-qT5nSeAB',
    dateWritten: '2017-03-14T09:00:00Z',
    status: 'active',
    patient: PATIENT,
    prescriber: DOCTOR,
    reasonCodeableConcept: { text: 'Hypertension' },
    note: 'Take in the morning',
    medicationReference: { display: 'Lisinopril 10 MG Oral Tablet', reference: `${BASE}/Medication/TqfRWd3Ptm1ISxuOfBnLCvwB` },
    dosageInstruction: [
      {
        text: 'Take 1 tablet by mouth once daily.',
        timing: { repeat: { frequency: 1, period: 1, periodUnits: 'd', boundsPeriod: { start: '2017-03-14T00:00:00Z' } }, code: { text: 'Daily' } },
        asNeededBoolean: false,
        route: { text: 'Oral', coding: [{ system: 'urn:oid:1.2.840.114350.1.13.0.1.7.4.698288.330', code: '15', display: 'Oral' }] },
        doseQuantity: { value: 1, unit: 'tablet', system: 'urn:oid:1.2.840.114350.1.13.0.1.7.4.698288.600', code: '1' },
      },
    ],
    dispenseRequest: {
      validityPeriod: { start: '2017-03-14T00:00:00Z' },
      numberOfRepeatsAllowed: 3,
      quantity: { value: 90, unit: 'tablet' },
      expectedSupplyDuration: { value: 90, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' },
      medicationReference: { display: 'Lisinopril 10 MG Oral Tablet' },
    },
  },
  medicationStatement: {
    resourceType: 'MedicationStatement',
    id: 'Tmh.2rsCm2tM3cqwGJDt4sQB',
    patient: PATIENT,
    informationSource: PATIENT,
    dateAsserted: '2018-02-01',
    status: 'active',
    wasNotTaken: false,
    effectivePeriod: { start: '2017-06-01' },
    medicationCodeableConcept: { text: 'Ibuprofen 200 MG Oral Tablet', coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '310965' }] },
    note: 'For knee pain',
    dosage: [
      {
        text: '2 tablets every 8 hours as needed',
        timing: { repeat: { frequency: 1, period: 8, periodUnits: 'h' } },
        asNeededBoolean: true,
        route: { text: 'Oral' },
        quantityQuantity: { value: 2, unit: 'tablets' },
      },
    ],
  },
  stoppedStatement: {
    resourceType: 'MedicationStatement',
    patient: PATIENT,
    status: 'completed',
    wasNotTaken: true,
    reasonNotTaken: [{ text: 'Side effects' }],
    medicationCodeableConcept: { text: 'Simvastatin 20 MG' },
  },
  lab: {
    resourceType: 'Observation',
    id: 'Tl0Bx7j7TIbAmWpOQ6O07DgB',
    status: 'final',
    category: { text: 'Laboratory', coding: [{ system: 'http://hl7.org/fhir/observation-category', code: 'laboratory', display: 'Laboratory' }] },
    code: { text: 'Hemoglobin A1c', coding: [{ system: 'http://loinc.org', code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' }] },
    subject: PATIENT,
    effectiveDateTime: '2018-01-12T08:15:00Z',
    issued: '2018-01-12T15:00:00Z',
    valueQuantity: { value: 6.8, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
    interpretation: { text: 'High', coding: [{ system: 'http://hl7.org/fhir/v2/0078', code: 'H', display: 'High' }] },
    referenceRange: [{ low: { value: 4, unit: '%' }, high: { value: 5.6, unit: '%' }, text: '4.0 - 5.6 %', meaning: { coding: [{ system: 'http://hl7.org/fhir/referencerange-meaning', code: 'normal' }] } }],
    comments: 'Fasting specimen',
    related: [{ type: 'derived-from', target: { reference: `${BASE}/Observation/TlBfYbh8v1B8c` } }],
  },
  bloodPressure: {
    resourceType: 'Observation',
    id: 'TjX5WJd2cDb8Y8n1nfAoWGwB',
    status: 'final',
    category: { coding: [{ system: 'http://hl7.org/fhir/observation-category', code: 'vital-signs', display: 'Vital Signs' }] },
    code: { text: 'Blood Pressure', coding: [{ system: 'http://loinc.org', code: '55284-4', display: 'Blood pressure systolic and diastolic' }] },
    subject: PATIENT,
    effectiveDateTime: '2018-03-20T10:01:00Z',
    component: [
      { code: { coding: [{ system: 'http://loinc.org', code: '8480-6', display: 'Systolic blood pressure' }] }, valueQuantity: { value: 128, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' } },
      { code: { coding: [{ system: 'http://loinc.org', code: '8462-4', display: 'Diastolic blood pressure' }] }, valueQuantity: { value: 82, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' } },
    ],
  },
  procedure: {
    resourceType: 'Procedure',
    id: 'TK5w7yhRkyAkF6gTvXS3tiQB',
    subject: PATIENT,
    status: 'completed',
    code: { text: 'Colonoscopy', coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '45378' }] },
    performedDateTime: '2016-07-06',
    performer: [{ actor: DOCTOR, role: { text: 'Gastroenterologist' } }],
    location: { display: 'Endoscopy Center' },
    reasonCodeableConcept: { text: 'Screening' },
    notes: [{ text: 'No polyps' }],
  },
  cancelledProcedure: {
    resourceType: 'Procedure',
    subject: PATIENT,
    status: 'aborted',
    code: { text: 'MRI of the knee' },
    notPerformed: true,
    reasonNotPerformed: [{ text: 'Claustrophobia' }],
  },
  report: {
    resourceType: 'DiagnosticReport',
    id: 'TwncfOQytqCYtmJKvdpDOSgB',
    status: 'final',
    category: { text: 'Radiology', coding: [{ system: 'http://hl7.org/fhir/v2/0074', code: 'RAD', display: 'Radiology' }] },
    code: { text: 'XR Chest 2 Views', coding: [{ system: 'urn:oid:1.2.840.114350.1.13.0.1.7.5.737384.67', code: 'IMG36' }] },
    subject: PATIENT,
    effectiveDateTime: '2017-02-10T09:40:00Z',
    issued: '2017-02-10T13:25:00Z',
    performer: DOCTOR,
    request: [{ reference: `${BASE}/DiagnosticOrder/T9pLZAJtY`, display: 'XR CHEST 2 VIEWS' }, { reference: `${BASE}/DiagnosticOrder/T9pLZAJtZ` }],
    conclusion: 'No acute cardiopulmonary process.',
    presentedForm: [{ contentType: 'text/plain', data: Buffer.from('Lungs are clear. Heart size normal.').toString('base64') }],
  },
};

// The same kinds of resource as R4 gives them: none is DSTU2.
const R4: Readonly<Record<string, Json>> = {
  AllergyIntolerance: {
    resourceType: 'AllergyIntolerance',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
    verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'confirmed' }] },
    type: 'allergy',
    category: ['food'],
    criticality: 'high',
    code: { text: 'Peanut' },
    patient: { reference: 'Patient/1' },
    onsetDateTime: '2001',
    recordedDate: '2019-01-01',
    asserter: { reference: 'Patient/1' },
    lastOccurrence: '2020-01-01',
    note: [{ text: 'Severe' }],
    reaction: [{ substance: { text: 'Peanut' }, manifestation: [{ text: 'Anaphylaxis' }], severity: 'severe', note: [{ text: 'ER visit' }] }],
  },
  Condition: {
    resourceType: 'Condition',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' }] },
    verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'confirmed' }] },
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item' }] }],
    code: { text: 'Asthma' },
    subject: { reference: 'Patient/1' },
    onsetAge: { value: 12, unit: 'a', system: 'http://unitsofmeasure.org', code: 'a' },
    abatementDateTime: '2010',
    recordedDate: '2009-01-01',
    stage: [{ summary: { text: 'Mild' } }],
    evidence: [{ code: [{ text: 'Wheezing' }] }],
    note: [{ text: 'Childhood' }],
  },
  Immunization: {
    resourceType: 'Immunization',
    status: 'completed',
    vaccineCode: { text: 'Influenza' },
    patient: { reference: 'Patient/1' },
    occurrenceDateTime: '2020-10-01',
    recorded: '2020-10-01',
    primarySource: true,
    lotNumber: 'A1',
    performer: [{ actor: { reference: 'Practitioner/1' } }],
    reaction: [{ date: '2020-10-02', reported: true }],
    protocolApplied: [{ doseNumberPositiveInt: 1 }],
    note: [{ text: 'Left arm' }],
  },
  MedicationRequest: {
    resourceType: 'MedicationRequest',
    status: 'active',
    intent: 'order',
    medicationCodeableConcept: { text: 'Lisinopril' },
    subject: { reference: 'Patient/1' },
    authoredOn: '2020-01-01',
    requester: { reference: 'Practitioner/1' },
    dosageInstruction: [{ text: 'Daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', when: ['MORN'] } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }],
  },
  MedicationStatement: {
    resourceType: 'MedicationStatement',
    status: 'not-taken',
    statusReason: [{ text: 'Side effects' }],
    medicationCodeableConcept: { text: 'Ibuprofen' },
    subject: { reference: 'Patient/1' },
    effectiveDateTime: '2020-01-01',
    dateAsserted: '2020-01-02',
    reasonCode: [{ text: 'Pain' }],
    derivedFrom: [{ reference: 'Observation/1' }],
    note: [{ text: 'With food' }],
    dosage: [{ text: 'As needed', asNeededBoolean: true, doseAndRate: [{ doseQuantity: { value: 2, unit: 'tablet' } }] }],
  },
  Observation: {
    resourceType: 'Observation',
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
    code: { text: 'Glucose' },
    subject: { reference: 'Patient/1' },
    effectiveDateTime: '2020-01-01',
    valueQuantity: { value: 5.2, unit: 'mmol/L' },
    interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'N' }] }],
    note: [{ text: 'Fasting' }],
    referenceRange: [{ low: { value: 3.9 }, high: { value: 5.6 }, type: { text: 'Normal' } }],
    hasMember: [{ reference: 'Observation/2' }],
    component: [{ code: { text: 'Part' }, valueQuantity: { value: 1 }, referenceRange: [{ text: '0-2' }] }],
  },
  Procedure: {
    resourceType: 'Procedure',
    status: 'not-done',
    statusReason: { text: 'Refused' },
    code: { text: 'Colonoscopy' },
    subject: { reference: 'Patient/1' },
    performedDateTime: '2020-01-01',
    performer: [{ function: { text: 'Surgeon' }, actor: { reference: 'Practitioner/1' } }],
    reasonCode: [{ text: 'Screening' }],
    reasonReference: [{ reference: 'Condition/1' }],
    basedOn: [{ reference: 'ServiceRequest/1' }],
    usedReference: [{ reference: 'Device/1' }],
    note: [{ text: 'None' }],
  },
  DiagnosticReport: {
    resourceType: 'DiagnosticReport',
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD' }] }],
    code: { text: 'Chest X-ray' },
    subject: { reference: 'Patient/1' },
    effectiveDateTime: '2020-01-01',
    issued: '2020-01-01T10:00:00Z',
    performer: [{ reference: 'Practitioner/1' }],
    basedOn: [{ reference: 'ServiceRequest/1' }],
    media: [{ link: { reference: 'Media/1' } }],
    conclusionCode: [{ text: 'Normal' }],
    conclusion: 'Normal',
  },
  Patient: { resourceType: 'Patient', name: [{ family: 'Argonaut', given: ['Jason'] }], generalPractitioner: [{ reference: 'Practitioner/1' }], birthDate: '1985-08-01' },
  MedicationDispense: { resourceType: 'MedicationDispense', status: 'completed', subject: { reference: 'Patient/1' }, medicationCodeableConcept: { text: 'X' }, dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 1 } }] }] },
  Encounter: { resourceType: 'Encounter', status: 'finished', class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' }, subject: { reference: 'Patient/1' } },
  DocumentReference: { resourceType: 'DocumentReference', status: 'current', date: '2020-01-01T00:00:00Z', subject: { reference: 'Patient/1' }, content: [{ attachment: { contentType: 'text/plain' } }] },
  Coverage: { resourceType: 'Coverage', status: 'active', subscriberId: 'A1', beneficiary: { reference: 'Patient/1' }, payor: [{ reference: 'Organization/1' }] },
};

const upgraded = (resource: Json): Json => {
  const result = upgradeDstu2(resource);
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result.resource;
};
const read = (resource: Json) => readResource(resource, { reaches: () => true, dob: null, today: '2026-11-28', resolve: () => undefined });
const recordOf = (resource: Json) => {
  const reading = read(resource);
  expect(reading.kind, JSON.stringify(reading)).toBe('record');
  if (reading.kind !== 'record') throw new Error('not a record');
  return { category: reading.category.key, values: reading.values };
};

/**
 * Medplum's validator, against the R4 definitions. R4 allows an absolute reference (Epic's are),
 * but Medplum's reference check reads its scheme ("https:") as the resource type and warns: the
 * references are checked in their relative form (`Patient/<id>`), every other element as it is.
 */
const relative = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(relative)
    : node !== null && typeof node === 'object'
      ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'reference' && typeof v === 'string' ? v.replace(/^https?:\/\/.*\/([A-Z][A-Za-z]+\/[^/]+)$/, '$1') : relative(v)]))
      : node;
let validate: (resource: Json) => void;
beforeAll(async () => {
  const validateR4 = await fhirValidator();
  validate = (resource) => validateR4(relative(resource) as Json);
});

describe('telling DSTU2 from R4', () => {
  it('detects every DSTU2 sample', () => {
    for (const [name, resource] of Object.entries(DSTU2)) expect(isDstu2(resource), name).toBe(true);
  });

  it('never takes an R4 resource for DSTU2', () => {
    for (const [type, resource] of Object.entries(R4)) {
      validate(resource);
      expect(isDstu2(resource), type).toBe(false);
      expect(upgradeDstu2(resource), type).toEqual({ resource });
    }
  });

  it('takes an upgraded resource for R4', () => {
    for (const [name, resource] of Object.entries(DSTU2)) expect(isDstu2(upgraded(resource)), name).toBe(false);
  });

  it('knows a DSTU2 resource by one element of DSTU2 only', () => {
    expect(isDstu2({ resourceType: 'Observation', status: 'final', code: { text: 'X' }, comments: 'c' })).toBe(true);
    expect(isDstu2({ resourceType: 'Observation', status: 'final', code: { text: 'X' }, interpretation: { text: 'High' } })).toBe(true);
    expect(isDstu2({ resourceType: 'Procedure', status: 'aborted', subject: PATIENT, code: { text: 'X' } })).toBe(true);
    expect(isDstu2({ resourceType: 'AllergyIntolerance', patient: PATIENT, code: { text: 'X' }, criticality: 'CRITL' })).toBe(true);
    expect(isDstu2({ resourceType: 'MedicationStatement', subject: PATIENT, status: 'active', dosage: [{ quantityQuantity: { value: 1 } }] })).toBe(true);
    expect(isDstu2({ resourceType: 'DiagnosticReport', status: 'final', code: { text: 'X' }, subject: PATIENT, performer: DOCTOR })).toBe(true);
    expect(isDstu2({ resourceType: 'Basic', code: { text: 'X' } })).toBe(false);
    expect(isDstu2({ code: { text: 'X' } })).toBe(false);
  });
});

describe('upgrading', () => {
  it('gives valid R4 resources', () => {
    for (const [name, resource] of Object.entries(DSTU2)) {
      expect(() => validate(upgraded(resource)), name).not.toThrow();
    }
  });

  it('gives resources that pass the import shape check', () => {
    const entry = Object.values(DSTU2).map((resource) => ({ resource: upgraded(resource) }));
    const { entries, problems } = readBundle({ resourceType: 'Bundle', type: 'collection', entry });
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(entry.length);
  });

  it('does not change its input', () => {
    for (const [name, resource] of Object.entries(DSTU2)) {
      const before = structuredClone(resource);
      upgraded(resource);
      expect(resource, name).toEqual(before);
    }
  });

  it('upgrades an AllergyIntolerance: substance, status, criticality, onset, category, notes', () => {
    const r4 = upgraded(DSTU2.allergy!);
    expect(r4).toMatchObject({
      code: DSTU2.allergy!.substance,
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
      verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'confirmed' }] },
      criticality: 'high',
      category: ['medication'],
      onsetDateTime: '2009-04-01',
      lastOccurrence: '2016-05-02',
      recordedDate: '2017-09-20T14:14:00Z',
      note: [{ text: 'Carries an EpiPen' }],
      reaction: [{ manifestation: [{ text: 'Hives' }], severity: 'moderate' }],
    });
    for (const gone of ['substance', 'status', 'onset', 'lastOccurence']) expect(r4).not.toHaveProperty(gone);
    expect(r4.reaction).toEqual([{ manifestation: (DSTU2.allergy!.reaction as Json[])[0]!.manifestation, severity: 'moderate', onset: '2016-05-02' }]);
    const { category, values } = recordOf(r4);
    expect(category).toBe('allergy');
    expect(values).toMatchObject({ code: 'Penicillins', clinical_status: 'active', verification_status: 'confirmed', type: 'allergy', category: 'medication', criticality: 'high', reaction: 'Hives', reaction_severity: 'moderate', onset_date: '2009-04-01', recorded_date: '2017-09-20' });
  });

  it('maps each DSTU2 allergy status and criticality', () => {
    const statusOf = (status: string) => {
      const r4 = upgraded({ ...DSTU2.allergy!, status });
      validate(r4);
      return [(r4.clinicalStatus as { coding: Json[] } | undefined)?.coding[0]!.code, (r4.verificationStatus as { coding: Json[] } | undefined)?.coding[0]!.code];
    };
    expect(statusOf('active')).toEqual(['active', undefined]);
    expect(statusOf('unconfirmed')).toEqual(['active', 'unconfirmed']);
    expect(statusOf('inactive')).toEqual(['inactive', undefined]);
    expect(statusOf('resolved')).toEqual(['resolved', undefined]);
    expect(statusOf('refuted')).toEqual(['inactive', 'refuted']);
    expect(statusOf('entered-in-error')).toEqual([undefined, 'entered-in-error']);
    expect(upgraded({ ...DSTU2.allergy!, criticality: 'CRITL' }).criticality).toBe('low');
    expect(upgraded({ ...DSTU2.allergy!, criticality: 'CRITU' }).criticality).toBe('unable-to-assess');
    expect(upgraded({ ...DSTU2.allergy!, category: 'other' })).not.toHaveProperty('category');
  });

  it('upgrades a Condition: patient, statuses, category, dates, notes', () => {
    const r4 = upgraded(DSTU2.condition!);
    expect(r4).toMatchObject({
      subject: PATIENT,
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'confirmed' }] },
      category: [DSTU2.condition!.category],
      recordedDate: '2015-08-24',
      onsetDateTime: '2012-05-01',
      note: [{ text: 'Exercise-induced' }],
    });
    for (const gone of ['patient', 'dateRecorded', 'notes']) expect(r4).not.toHaveProperty(gone);
    expect(recordOf(r4)).toMatchObject({ category: 'condition', values: { name: 'Asthma', verification_status: 'confirmed', start_date: '2012-05-01', note: 'Exercise-induced' } });
  });

  it('makes an abated Condition resolved and leaves out what R4 has no code for', () => {
    const r4 = upgraded(DSTU2.resolvedCondition!);
    expect(r4.clinicalStatus).toEqual({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' }] });
    for (const gone of ['abatementBoolean', 'verificationStatus']) expect(r4).not.toHaveProperty(gone);
    expect(recordOf(r4)).toMatchObject({ category: 'condition', values: { name: 'Acute bronchitis', start_date: '2014-01-10' } });
    expect(upgraded({ ...DSTU2.condition!, clinicalStatus: 'active', abatementDateTime: '2016-01-01' }).clinicalStatus).toMatchObject({ coding: [{ code: 'resolved' }] });
    expect(upgraded({ ...DSTU2.condition!, onsetQuantity: { value: 12, unit: 'years', system: 'http://unitsofmeasure.org', code: 'a' }, onsetDateTime: undefined })).toMatchObject({ onsetAge: { value: 12 } });
  });

  it('upgrades an Immunization: date, status, reported, performer, protocol', () => {
    const r4 = upgraded(DSTU2.immunization!);
    expect(r4).toMatchObject({
      status: 'completed',
      occurrenceDateTime: '2016-10-28T10:30:00-05:00',
      primarySource: true,
      patient: PATIENT,
      lotNumber: 'UJ478AA',
      doseQuantity: { value: 0.5 },
      site: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActSite', code: 'LA' }] },
      route: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RouteOfAdministration', code: 'IM' }] },
      performer: [{ actor: DOCTOR, function: { coding: [{ code: 'AP' }] } }],
      protocolApplied: [{ doseNumberPositiveInt: 1, seriesDosesPositiveInt: 1, targetDisease: [{ text: 'Influenza' }] }],
    });
    for (const gone of ['date', 'wasNotGiven', 'reported', 'vaccinationProtocol']) expect(r4).not.toHaveProperty(gone);
    expect(recordOf(r4)).toMatchObject({ category: 'immunization', values: { vaccine_name: 'Influenza, seasonal, injectable', date: '2016-10-28', manufacturer: 'Sanofi Pasteur', occurrence: 'Family Medicine Clinic', dose_number: 1, series_doses: 1 } });
  });

  it('upgrades an Immunization not given as not-done, with its reason', () => {
    const r4 = upgraded(DSTU2.refusedImmunization!);
    expect(r4).toMatchObject({ status: 'not-done', statusReason: { text: 'Patient objection', coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason' }] }, primarySource: false });
    expect(recordOf(r4)).toMatchObject({ category: 'immunization', values: { vaccine_name: 'Zoster vaccine', date: '2017-11-02', stopped: true, stop_reason: 'Patient objection' } });
    expect(upgradeDstu2({ ...DSTU2.immunization!, status: 'in-progress' })).toEqual({ skip: 'a FHIR DSTU2 Immunization with status in-progress, which R4 has no status for' });
  });

  it('upgrades a MedicationOrder to a MedicationRequest', () => {
    const r4 = upgraded(DSTU2.medicationOrder!);
    expect(r4).toMatchObject({
      resourceType: 'MedicationRequest',
      intent: 'order',
      status: 'active',
      subject: PATIENT,
      requester: DOCTOR,
      authoredOn: '2017-03-14T09:00:00Z',
      reasonCode: [{ text: 'Hypertension' }],
      note: [{ text: 'Take in the morning' }],
      medicationReference: DSTU2.medicationOrder!.medicationReference,
      dosageInstruction: [
        {
          text: 'Take 1 tablet by mouth once daily.',
          timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', boundsPeriod: { start: '2017-03-14T00:00:00Z' } } },
          asNeededBoolean: false,
          route: { text: 'Oral' },
          doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }],
        },
      ],
      dispenseRequest: { numberOfRepeatsAllowed: 3, quantity: { value: 90 } },
    });
    expect(r4.dispenseRequest).not.toHaveProperty('medicationReference');
    for (const gone of ['patient', 'prescriber', 'dateWritten', 'reasonCodeableConcept']) expect(r4).not.toHaveProperty(gone);
    expect(recordOf(r4)).toMatchObject({ category: 'medication', values: { code: 'Lisinopril 10 MG Oral Tablet', dosage: 1, unit: 'tablet', times: 1, frequency: 1, repeat: 'days', start_date: '2017-03-14', note: 'Take in the morning' } });
    expect(upgraded({ ...DSTU2.medicationOrder!, status: 'stopped', reasonEnded: { text: 'Cough' } })).toMatchObject({ status: 'stopped', statusReason: { text: 'Cough' } });
    expect(upgraded({ ...DSTU2.medicationOrder!, status: undefined }).status).toBe('unknown');
  });

  it('upgrades a MedicationStatement: patient, dosage quantity, notes', () => {
    const r4 = upgraded(DSTU2.medicationStatement!);
    expect(r4).toMatchObject({
      status: 'active',
      subject: PATIENT,
      dateAsserted: '2018-02-01',
      effectivePeriod: { start: '2017-06-01' },
      note: [{ text: 'For knee pain' }],
      dosage: [{ timing: { repeat: { frequency: 1, period: 8, periodUnit: 'h' } }, asNeededBoolean: true, doseAndRate: [{ doseQuantity: { value: 2, unit: 'tablets' } }] }],
    });
    for (const gone of ['patient', 'wasNotTaken']) expect(r4).not.toHaveProperty(gone);
    expect(recordOf(r4)).toMatchObject({ category: 'medication', values: { code: 'Ibuprofen 200 MG Oral Tablet', dosage: 2, unit: 'tablet', times: 1, frequency: 8, repeat: 'hours', as_needed: true, start_date: '2017-06-01' } });
  });

  it('upgrades a MedicationStatement not taken as not-taken', () => {
    const r4 = upgraded(DSTU2.stoppedStatement!);
    expect(r4).toMatchObject({ status: 'not-taken', statusReason: [{ text: 'Side effects' }] });
    expect(recordOf(r4)).toMatchObject({ category: 'medication', values: { code: 'Simvastatin 20 MG', stop_reason: 'Side effects' } });
  });

  it('upgrades a laboratory Observation: category, interpretation, comments, range, related', () => {
    const r4 = upgraded(DSTU2.lab!);
    expect(r4).toMatchObject({
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0078', code: 'H' }] }],
      note: [{ text: 'Fasting specimen' }],
      referenceRange: [{ low: { value: 4 }, high: { value: 5.6 }, type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/referencerange-meaning', code: 'normal' }] } }],
      derivedFrom: [{ reference: `${BASE}/Observation/TlBfYbh8v1B8c` }],
    });
    for (const gone of ['comments', 'related']) expect(r4).not.toHaveProperty(gone);
    expect(recordOf(r4)).toMatchObject({ category: 'lab', values: { test: 'Hemoglobin A1c', test_date: '2018-01-12', result: 6.8, units: '%', range_low: 4, range_high: 5.6, within_normal_range: false, note: 'Fasting specimen' } });
  });

  it('upgrades a vital-signs Observation (blood pressure with its components)', () => {
    const r4 = upgraded(DSTU2.bloodPressure!);
    expect(r4.category).toEqual([{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs', display: 'Vital Signs' }] }]);
    expect(r4.component).toEqual(DSTU2.bloodPressure!.component);
    expect(recordOf(r4)).toMatchObject({ category: 'biometrics', values: { measure: 'blood_pressure', value: 128, diastolic: 82, measured_on: '2018-03-20' } });
  });

  it('upgrades a Procedure: performer role, reason, notes', () => {
    const r4 = upgraded(DSTU2.procedure!);
    expect(r4).toMatchObject({ status: 'completed', subject: PATIENT, performer: [{ actor: DOCTOR, function: { text: 'Gastroenterologist' } }], reasonCode: [{ text: 'Screening' }], note: [{ text: 'No polyps' }] });
    for (const gone of ['notes', 'reasonCodeableConcept']) expect(r4).not.toHaveProperty(gone);
    expect(recordOf(r4)).toMatchObject({ category: 'procedure', values: { procedure: 'Colonoscopy', date: '2016-07-06', hospital_doctor: DOCTOR.display, facility: 'Endoscopy Center', note: 'No polyps' } });
  });

  it('upgrades a Procedure not performed as not-done, with its reason', () => {
    const r4 = upgraded(DSTU2.cancelledProcedure!);
    expect(r4).toMatchObject({ status: 'not-done', statusReason: { text: 'Claustrophobia' } });
    for (const gone of ['notPerformed', 'reasonNotPerformed']) expect(r4).not.toHaveProperty(gone);
    expect(upgraded({ ...DSTU2.cancelledProcedure!, notPerformed: false, reasonNotPerformed: undefined }).status).toBe('stopped');
    expect(recordOf(r4)).toMatchObject({ category: 'procedure', values: { procedure: 'MRI of the knee' } });
  });

  it('upgrades a DiagnosticReport: category, performer, request', () => {
    const r4 = upgraded(DSTU2.report!);
    expect(r4.basedOn).toHaveLength(1);
    expect(r4).toMatchObject({
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD' }] }],
      performer: [DOCTOR],
      // R4 has no DiagnosticOrder: a reference to one keeps its display only.
      basedOn: [{ display: 'XR CHEST 2 VIEWS' }],
      issued: '2017-02-10T13:25:00Z',
      effectiveDateTime: '2017-02-10T09:40:00Z',
    });
    expect(r4).not.toHaveProperty('request');
    expect(recordOf(r4)).toMatchObject({ category: 'diagnostic', values: { test: 'XR Chest 2 Views', test_date: '2017-02-10', result: 'Lungs are clear. Heart size normal.', conclusion: 'No acute cardiopulmonary process.' } });
  });

  it('upgrades a DSTU2 Patient and keeps an R4 one as it is', () => {
    const dstu2 = { resourceType: 'Patient', name: [{ family: 'Argonaut', given: ['Jason'] }], careProvider: [DOCTOR], birthDate: '1985-08-01' };
    const r4 = upgraded(dstu2);
    expect(r4).toEqual({ resourceType: 'Patient', name: dstu2.name, generalPractitioner: [DOCTOR], birthDate: '1985-08-01' });
    validate(r4);
  });

  it('gives a reason for a DSTU2 resource it cannot upgrade', () => {
    expect(upgradeDstu2({ resourceType: 'DiagnosticOrder', status: 'completed', subject: PATIENT })).toEqual({ skip: 'a FHIR DSTU2 DiagnosticOrder, which is not read' });
    expect(upgradeDstu2({ resourceType: 'MedicationDispense', status: 'completed', patient: PATIENT, medicationCodeableConcept: { text: 'X' } })).toEqual({ skip: 'a FHIR DSTU2 MedicationDispense, which is not read' });
    expect(upgradeDstu2({ resourceType: 'Encounter', status: 'finished', class: 'outpatient', patient: PATIENT })).toEqual({ skip: 'a FHIR DSTU2 Encounter, which is not read' });
  });
});
