/**
 * An International Patient Summary made by the tests (HL7 IPS, FHIR R4): a Bundle of type
 * document whose first entry is its Composition (one identifier, as R4 has it, not a list),
 * then the patient and the sections' resources: an allergy, a medication (a MedicationStatement
 * naming a Medication), a problem, an immunization, a laboratory result.
 */
const LOINC = 'http://loinc.org';
const SNOMED = 'http://snomed.info/sct';

export function ipsBundle(): Record<string, unknown> {
  const url = (n: number) => `urn:uuid:5d2c8e6a-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const patient = { reference: url(1) };
  const section = (code: string, title: string, entries: number[]) => ({
    title,
    code: { coding: [{ system: LOINC, code }] },
    text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${title}</div>` },
    entry: entries.map((n) => ({ reference: url(n) })),
  });
  const resources: Array<Record<string, unknown>> = [
    {
      resourceType: 'Composition',
      identifier: { system: 'urn:oid:2.16.724.4.8.10.200.10', value: 'ips-1' },
      status: 'final',
      type: { coding: [{ system: LOINC, code: '60591-5', display: 'Patient summary Document' }] },
      subject: patient,
      date: '2024-02-01T10:00:00+01:00',
      author: [{ display: 'Dr. Eleni Papadopoulou' }],
      title: 'Patient Summary',
      section: [
        section('48765-2', 'Allergies and Intolerances', [2]),
        section('10160-0', 'Medication Summary', [3]),
        section('11450-4', 'Problem List', [5]),
        section('11369-6', 'History of Immunizations', [6]),
        section('30954-2', 'Diagnostic Results', [7]),
      ],
    },
    { resourceType: 'Patient', name: [{ family: 'Ioannou', given: ['Ines'] }], gender: 'female', birthDate: '1982-02-02' },
    {
      resourceType: 'AllergyIntolerance',
      identifier: [{ system: 'urn:oid:2.16.724.4.8.10.200.10', value: 'allergy-1' }],
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
      type: 'allergy',
      category: ['medication'],
      criticality: 'high',
      code: { coding: [{ system: SNOMED, code: '373270004', display: 'Substance with penicillin structure and antibacterial mechanism of action' }], text: 'Penicillin' },
      patient,
      onsetDateTime: '2010',
    },
    {
      resourceType: 'MedicationStatement',
      identifier: [{ system: 'urn:oid:2.16.724.4.8.10.200.10', value: 'medication-1' }],
      status: 'active',
      medicationReference: { reference: url(4) },
      subject: patient,
      effectivePeriod: { start: '2019-03-01' },
      dosage: [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet', system: 'http://unitsofmeasure.org', code: '{tbl}' } }] }],
    },
    { resourceType: 'Medication', code: { coding: [{ system: SNOMED, code: '325278007', display: 'Metformin 500 mg tablet' }], text: 'Metformin 500 mg tablet' } },
    {
      resourceType: 'Condition',
      identifier: [{ system: 'urn:oid:2.16.724.4.8.10.200.10', value: 'problem-1' }],
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      category: [{ coding: [{ system: LOINC, code: '75326-9', display: 'Problem' }] }],
      code: { coding: [{ system: SNOMED, code: '44054006', display: 'Diabetes mellitus type 2' }], text: 'Type 2 diabetes' },
      subject: patient,
      onsetDateTime: '2019-02',
    },
    {
      resourceType: 'Immunization',
      identifier: [{ system: 'urn:oid:2.16.724.4.8.10.200.10', value: 'immunization-1' }],
      status: 'completed',
      vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '140', display: 'Influenza, seasonal, injectable' }], text: 'Influenza vaccine' },
      patient,
      occurrenceDateTime: '2023-10-15',
    },
    {
      resourceType: 'Observation',
      identifier: [{ system: 'urn:oid:2.16.724.4.8.10.200.10', value: 'result-1' }],
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      code: { coding: [{ system: LOINC, code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' }], text: 'HbA1c' },
      subject: patient,
      effectiveDateTime: '2024-01-20',
      valueQuantity: { value: 6.8, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
    },
  ];
  return {
    resourceType: 'Bundle',
    identifier: { system: 'urn:oid:2.16.724.4.8.10.200.10', value: 'ips-bundle-1' },
    type: 'document',
    timestamp: '2024-02-01T10:00:00+01:00',
    // Each entry's full URL is its position: the Composition 0, the Patient 1, and so on.
    entry: resources.map((resource, i) => ({ fullUrl: url(i), resource })),
  };
}
