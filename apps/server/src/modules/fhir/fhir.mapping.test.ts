import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, categoryDefinition, checkRecord, type RecordValues } from '@healthbook/shared';
import { FULL_RECORDS, fhirValidator } from '../../../test/fhir-samples';
import {
  EXTENSION,
  FHIR_MAPPINGS,
  SYSTEMS,
  exportMapping,
  fromFhirDate,
  recordToResource,
  resourceToInput,
  routeResource,
  toFhirDate,
  toStoredUnit,
  type FhirJson,
} from './fhir.mapping';

const write = { pastText: 'In the past', unknownDateText: 'Date unknown' };
const read = { resolve: () => undefined };
const rules = { today: '2025-06-01', dob: '1980-06-15', creating: true };

/** A record's values as the API keeps them (checked by its category's rules). */
function stored(category: string, input: Record<string, unknown>): RecordValues {
  const { values, errors } = checkRecord(categoryDefinition(category)!, input, rules);
  expect(errors, `${category} ${JSON.stringify(input)}`).toBeNull();
  return values;
}
const resourceOf = (category: string, input: Record<string, unknown>) => recordToResource(exportMapping(category), stored(category, input), write);
const extensionOf = (resource: FhirJson, field: string) => (resource.extension as Array<Record<string, unknown>> | undefined)?.find((e) => e.url === `${SYSTEMS.field}${field}`);

describe('the mapping covers the declaration', () => {
  it('maps every field of every category, and nothing else', () => {
    for (const mapping of FHIR_MAPPINGS) {
      const declared = categoryDefinition(mapping.category)!.fields.map((f) => f.name);
      expect(Object.keys(mapping.fields).sort(), mapping.category).toEqual([...declared].sort());
    }
    expect(CATEGORIES.map((c) => exportMapping(c.key).category)).toEqual(CATEGORIES.map((c) => c.key));
  });

  it('gives each category the resource the architecture names', () => {
    expect(Object.fromEntries(CATEGORIES.map((c) => [c.key, exportMapping(c.key).resourceType]))).toEqual({
      condition: 'Condition',
      symptom: 'Observation',
      medication: 'MedicationStatement',
      supplement: 'MedicationStatement',
      allergy: 'AllergyIntolerance',
      immunization: 'Immunization',
      lab: 'Observation',
      diagnostic: 'DiagnosticReport',
      medicalvisit: 'Encounter',
      surgery: 'Procedure',
      procedure: 'Procedure',
      familyhistory: 'FamilyMemberHistory',
      socialhistory: 'Observation',
      travelhistory: 'Observation',
      biometrics: 'Observation',
    });
  });
});

describe('partial dates', () => {
  it('writes a medical date at its own precision', () => {
    expect(toFhirDate({ date: '2019-01-01', part: 'year' })).toBe('2019');
    expect(toFhirDate({ date: '2019-05-01', part: 'month' })).toBe('2019-05');
    expect(toFhirDate({ date: '2019-05-14', part: 'day' })).toBe('2019-05-14');
    expect(toFhirDate({ date: null, part: 'past' })).toBeNull();
  });

  it('reads FHIR dates and dateTimes at theirs (a time: its day as written)', () => {
    expect(fromFhirDate('2019')).toEqual({ date: '2019-01-01', part: 'year' });
    expect(fromFhirDate('2019-05')).toEqual({ date: '2019-05-01', part: 'month' });
    expect(fromFhirDate('2019-05-14')).toEqual({ date: '2019-05-14', part: 'day' });
    expect(fromFhirDate('2015-03-11T23:22:08-04:00')).toEqual({ date: '2015-03-11', part: 'day' });
    expect(fromFhirDate('yesterday')).toBeUndefined();
  });

  it('puts partial dates in the resources', () => {
    expect(resourceOf('condition', { name: 'Asthma', start_date: '2019-05-20', start_date_part: 'month', end_date: '2020-01-01', end_date_part: 'year' })).toMatchObject({ onsetDateTime: '2019-05', abatementDateTime: '2020' });
    expect(resourceOf('surgery', { procedure: 'Appendectomy', date: '1999-07-19' })).toMatchObject({ performedDateTime: '1999-07-19' });
    expect(resourceOf('lab', { test: 'HbA1c', result: 5.6, test_date: '2023-03-01', test_date_part: 'month' })).toMatchObject({ effectiveDateTime: '2023-03' });
  });
});

describe('a lab result and its normal range', () => {
  it('is interpreted N within the range and A outside it (HL7 v3 ObservationInterpretation), and read back so', () => {
    const interpretation = (code: string, display: string) => [{ coding: [{ system: SYSTEMS.interpretation, code, display }] }];
    const normal = resourceOf('lab', { test: 'Haemoglobin', result: 13.5, within_normal_range: true });
    const abnormal = resourceOf('lab', { test: 'Ferritin', result: 8, within_normal_range: false });
    expect(normal.interpretation).toEqual(interpretation('N', 'Normal'));
    expect(abnormal.interpretation).toEqual(interpretation('A', 'Abnormal'));
    expect(extensionOf(abnormal, 'within_normal_range')).toBeUndefined();
    expect(resourceToInput(exportMapping('lab'), normal, read)).toMatchObject({ within_normal_range: true });
    expect(resourceToInput(exportMapping('lab'), abnormal, read).within_normal_range ?? false).toBe(false);
  });

  it('carries the reference range in the units of the result, and the flag as the interpretation (L, H, A, AA)', () => {
    const interpretation = (code: string, display: string) => [{ coding: [{ system: SYSTEMS.interpretation, code, display }] }];
    const high = resourceOf('lab', { test: 'Glucose', result: 7.2, units: 'mmol/L', range_low: 3.9, range_high: 5.5, range_text: 'fasting' });
    expect(high.referenceRange).toEqual([{ low: { value: 3.9, unit: 'mmol/L' }, high: { value: 5.5, unit: 'mmol/L' }, text: 'fasting' }]);
    expect(high.interpretation).toEqual(interpretation('H', 'High'));
    expect(high.extension).toBeUndefined();
    expect(resourceToInput(exportMapping('lab'), high, read)).toMatchObject({ range_low: 3.9, range_high: 5.5, range_text: 'fasting', flag: null, within_normal_range: null });
    expect(resourceOf('lab', { test: 'Glucose', result: 3.1, range_low: 3.9 }).interpretation).toEqual(interpretation('L', 'Low'));
    expect(resourceOf('lab', { test: 'Glucose', result: 4.2, range_low: 3.9, range_high: 5.5 }).interpretation).toEqual(interpretation('N', 'Normal'));

    // Set by hand, the flag is the interpretation, and read back as set.
    const critical = resourceOf('lab', { test: 'Potassium', result: 6.9, range_low: 3.5, range_high: 5.1, flag: 'critical' });
    expect(critical.interpretation).toEqual(interpretation('AA', 'Critical abnormal'));
    expect(critical.extension).toBeUndefined();
    expect(resourceToInput(exportMapping('lab'), critical, read)).toMatchObject({ flag: 'critical' });

    // Another system's codes: HH is critical, LU low.
    const other = (code: string) => resourceToInput(exportMapping('lab'), { resourceType: 'Observation', code: { text: 'K' }, valueQuantity: { value: 7 }, interpretation: [{ coding: [{ code }] }] }, read);
    expect(other('HH')).toMatchObject({ flag: 'critical' });
    expect(other('LU')).toMatchObject({ flag: 'low' });
  });
});

describe('"In the past" as the string variant', () => {
  it('uses onsetString, abatementString, occurrenceString and performedString', () => {
    expect(resourceOf('condition', { name: 'Asthma', start_date_part: 'past', end_date_part: 'past' })).toMatchObject({ onsetString: 'In the past', abatementString: 'In the past' });
    expect(resourceOf('allergy', { code: 'Penicillin', onset_date_part: 'past' })).toMatchObject({ onsetString: 'In the past' });
    expect(resourceOf('immunization', { vaccine_name: 'Tetanus', date_part: 'past' })).toMatchObject({ occurrenceString: 'In the past' });
    expect(resourceOf('procedure', { procedure: 'Colonoscopy', date_part: 'past' })).toMatchObject({ performedString: 'In the past' });
  });

  it('keeps it in an extension where the element has no string variant, and reads it back', () => {
    const resource = resourceOf('symptom', { name: 'Headache', start_date_part: 'past' });
    expect(resource.effectivePeriod).toBeUndefined();
    expect(extensionOf(resource, 'start_date')).toEqual({ url: `${SYSTEMS.field}start_date`, valueCode: 'past' });
    expect(resourceToInput(exportMapping('symptom'), resource, read)).toMatchObject({ start_date: null, start_date_part: 'past' });
  });

  it('reads another system\'s string variant as "In the past"', () => {
    const input = resourceToInput(exportMapping('condition'), { resourceType: 'Condition', code: { text: 'Chickenpox' }, onsetString: 'childhood' }, read);
    expect(input).toMatchObject({ name: 'Chickenpox', start_date: null, start_date_part: 'past' });
  });

  it('an immunisation without a date still has its required occurrence, named empty', () => {
    const resource = resourceOf('immunization', { vaccine_name: 'Hepatitis B' });
    expect(resource.occurrenceString).toBe('Date unknown');
    expect(resource.extension).toContainEqual({ url: SYSTEMS.empty, valueCode: 'date' });
    expect(resourceToInput(exportMapping('immunization'), resource, read)).toMatchObject({ date: null, date_part: null });
  });
});

describe('choices as codes', () => {
  it('codes condition and allergy statuses in their FHIR code systems', () => {
    const condition = resourceOf('condition', { name: 'Asthma', verification_status: 'confirmed', end_date: '2020-02-02' });
    expect(condition.verificationStatus).toEqual({ coding: [{ system: SYSTEMS.conditionVerification, code: 'confirmed' }] });
    expect(condition.clinicalStatus).toEqual({ coding: [{ system: SYSTEMS.conditionClinical, code: 'resolved' }] });
    const allergy = resourceOf('allergy', { code: 'Penicillin', clinical_status: 'relapse', verification_status: 'confirmed', criticality: 'high', type: 'allergy', category: 'medication' });
    // relapse is an active allergy in FHIR; the exact value rides along.
    expect(allergy.clinicalStatus).toEqual({ coding: [{ system: SYSTEMS.allergyClinical, code: 'active' }] });
    expect(extensionOf(allergy, 'clinical_status')).toEqual({ url: `${SYSTEMS.field}clinical_status`, valueCode: 'relapse' });
    expect(allergy).toMatchObject({ criticality: 'high', type: 'allergy', category: ['medication'] });
  });

  it('codes relatives as v3 RoleCode, and reads narrower ones as the relative', () => {
    expect(resourceOf('familyhistory', { medical_issue: 'Diabetes', relationship: 'mother' }).relationship).toEqual({ coding: [{ system: SYSTEMS.roleCode, code: 'MTH', display: 'mother' }] });
    const input = resourceToInput(exportMapping('familyhistory'), { resourceType: 'FamilyMemberHistory', relationship: { coding: [{ system: SYSTEMS.roleCode, code: 'PGRMTH' }] }, condition: [{ code: { text: 'Stroke' } }] }, read);
    expect(input).toMatchObject({ relationship: 'grandmother', medical_issue: 'Stroke' });
  });

  it('codes procedure outcomes in SNOMED and surgeries as surgical procedures', () => {
    const surgery = resourceOf('surgery', { procedure: 'Appendectomy', outcome: 'successful' });
    expect(surgery.outcome).toEqual({ coding: [{ system: SYSTEMS.snomed, code: '385669000', display: 'Successful' }] });
    expect(surgery.category).toEqual({ coding: [{ system: SYSTEMS.snomed, code: '387713003', display: 'Surgical procedure' }] });
    expect(routeResource({ resourceType: 'Procedure', category: surgery.category, code: { text: 'x' } })).toMatchObject({ mapping: { category: 'surgery' } });
    expect(routeResource({ resourceType: 'Procedure', code: { text: 'x' } })).toMatchObject({ mapping: { category: 'procedure' } });
  });

  it("codes a medicine's dose unit in UCUM and its timing", () => {
    const resource = resourceOf('medication', { code: 'Salbutamol', dosage: 100, unit: 'mcg', times: 2, frequency: 1, repeat: 'days', as_needed: true });
    expect(resource.dosage).toEqual([{ doseAndRate: [{ doseQuantity: { value: 100, unit: 'mcg', system: SYSTEMS.ucum, code: 'ug' } }], timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, asNeededBoolean: true }]);
    expect(resource.extension).toBeUndefined();
    expect(resourceOf('medication', { code: 'Metformin', frequency: 12, repeat: 'hours' }).dosage).toEqual([{ timing: { repeat: { period: 12, periodUnit: 'h' } } }]);
  });

  it('reads "every 8 hours" as every 8 hours, "twice a day" as twice a day, a reason as "as needed"', () => {
    const statement = (dosage: unknown) => resourceToInput(exportMapping('medication'), { resourceType: 'MedicationStatement', medicationCodeableConcept: { text: 'Amoxicillin' }, dosage: [dosage] }, read);
    expect(statement({ timing: { repeat: { frequency: 1, period: 8, periodUnit: 'h' } } })).toMatchObject({ code: 'Amoxicillin', times: 1, frequency: 8, repeat: 'hours', as_needed: null });
    expect(statement({ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, asNeededCodeableConcept: { text: 'pain' } })).toMatchObject({ times: 2, frequency: 1, repeat: 'days', as_needed: true });
    expect(statement({ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'min' } } })).toMatchObject({ times: null, frequency: null, repeat: null });
  });
});

describe('biometrics: LOINC vital signs in UCUM units', () => {
  it('writes each measure with its LOINC code and UCUM unit', () => {
    const expected: Record<string, [string, string, number]> = {
      weight: ['29463-7', 'kg', 72.5],
      height: ['8302-2', 'm', 1.78],
      heart_rate: ['8867-4', '/min', 64],
      glucose: ['15074-8', 'mmol/L', 5.4],
      temperature: ['8310-5', 'Cel', 36.8],
      oxygen_saturation: ['2708-6', '%', 98],
    };
    for (const [measure, [loinc, ucum, value]] of Object.entries(expected)) {
      const resource = resourceOf('biometrics', { measure, value, measured_on: '2024-01-05' });
      expect(resource, measure).toMatchObject({
        category: [{ coding: [{ system: SYSTEMS.observationCategory, code: 'vital-signs' }] }],
        code: { coding: [{ system: SYSTEMS.loinc, code: loinc }] },
        valueQuantity: { value, system: SYSTEMS.ucum, code: ucum },
        effectiveDateTime: '2024-01-05',
      });
      expect(resource.extension, measure).toBeUndefined();
    }
  });

  it('writes blood pressure as a panel with systolic and diastolic components', () => {
    const resource = resourceOf('biometrics', { measure: 'blood_pressure', value: 120, diastolic: 80, measured_on: '2024-01-06' });
    expect(resource.code).toMatchObject({ coding: [{ system: SYSTEMS.loinc, code: '85354-9' }] });
    expect(resource.valueQuantity).toBeUndefined();
    expect(resource.component).toEqual([
      { code: { coding: [{ system: SYSTEMS.loinc, code: '8480-6', display: 'Systolic blood pressure' }] }, valueQuantity: { value: 120, unit: 'mmHg', system: SYSTEMS.ucum, code: 'mm[Hg]' } },
      { code: { coding: [{ system: SYSTEMS.loinc, code: '8462-4', display: 'Diastolic blood pressure' }] }, valueQuantity: { value: 80, unit: 'mmHg', system: SYSTEMS.ucum, code: 'mm[Hg]' } },
    ]);
  });

  it("converts another system's units to the stored ones", () => {
    expect(toStoredUnit('height', { value: 165.3, code: 'cm' })).toBeCloseTo(1.653);
    expect(toStoredUnit('weight', { value: 160, code: '[lb_av]' })).toBeCloseTo(72.57, 2);
    expect(toStoredUnit('temperature', { value: 98.6, code: '[degF]' })).toBeCloseTo(37);
    expect(toStoredUnit('glucose', { value: 90, code: 'mg/dL' })).toBeCloseTo(5, 1);
  });
});

describe('which category a resource becomes', () => {
  const route = (resource: FhirJson) => {
    const r = routeResource(resource);
    return 'mapping' in r ? r.mapping.category : r.skip.key;
  };
  const observation = (category: string, extra: FhirJson = {}) => ({ resourceType: 'Observation', category: [{ coding: [{ system: SYSTEMS.observationCategory, code: category }] }], code: { text: 'x' }, ...extra });

  it('by resource type and category codes', () => {
    expect(route({ resourceType: 'Condition' })).toBe('condition');
    expect(route({ resourceType: 'MedicationRequest' })).toBe('medication');
    expect(route({ resourceType: 'MedicationStatement' })).toBe('medication');
    expect(route(observation('laboratory', { valueQuantity: { value: 1 } }))).toBe('lab');
    expect(route(observation('laboratory', { hasMember: [{ reference: 'urn:uuid:1' }] }))).toBe('records:fhir.skippedPanel');
    expect(route(observation('vital-signs', { code: { coding: [{ system: SYSTEMS.loinc, code: '8867-4' }] } }))).toBe('biometrics');
    expect(route(observation('vital-signs', { code: { coding: [{ system: SYSTEMS.loinc, code: '39156-5' }] } }))).toBe('records:fhir.skippedMeasure');
    expect(route(observation('social-history'))).toBe('socialhistory');
    expect(route(observation('social-history', { code: { coding: [{ system: SYSTEMS.snomed, code: '420008001' }] } }))).toBe('travelhistory');
    expect(route(observation('survey'))).toBe('records:fhir.skippedObservation');
    expect(route({ resourceType: 'DiagnosticReport', category: [{ coding: [{ code: 'LAB' }] }] })).toBe('records:fhir.skippedLabReport');
    expect(route({ resourceType: 'DiagnosticReport' })).toBe('diagnostic');
    expect(route({ resourceType: 'Patient' })).toBe('records:fhir.skippedPatient');
    expect(route({ resourceType: 'Claim' })).toBe('records:fhir.skippedType');
    expect(route({ resourceType: 'ExplanationOfBenefit' })).toBe('records:fhir.skippedType');
  });

  it('by our category tag first (a supplement, a symptom)', () => {
    const supplement = { ...resourceOf('supplement', { code: 'Vitamin D3' }), meta: { tag: [{ system: SYSTEMS.category, code: 'supplement' }] } };
    expect(route(supplement)).toBe('supplement');
    expect(route({ ...supplement, meta: {} })).toBe('medication');
    expect(route(resourceOf('symptom', { name: 'Headache' }))).toBe('symptom');
  });
});

describe('round trip', () => {
  let validate: (resource: Record<string, unknown>) => void;
  beforeAll(async () => {
    validate = await fhirValidator();
  }, 60_000);

  it('every sample record becomes a valid R4 resource and reads back to the same record', () => {
    const categories = new Set<string>();
    for (const { category, values } of FULL_RECORDS) {
      categories.add(category);
      const mapping = exportMapping(category);
      const record = stored(category, values);
      const resource = recordToResource(mapping, record, write);
      expect(() => validate({ ...resource, [mapping.patientElement]: { reference: 'urn:uuid:9d1c5c2e-2f4e-4b8a-9c6f-000000000001' } }), `${category} ${JSON.stringify(resource)}`).not.toThrow();
      const again = stored(category, resourceToInput(mapping, resource, read));
      expect(again, `${category} ${JSON.stringify(resource)}`).toEqual(record);
      // Extensions only for what the elements cannot say.
      for (const e of (resource.extension as Array<{ url: string }> | undefined) ?? []) expect(e.url.startsWith(SYSTEMS.field) || e.url === SYSTEMS.empty).toBe(true);
    }
    expect(categories.size).toBe(CATEGORIES.length);
  });

  it('a private record is labelled restricted, and comes back private', () => {
    const resource = { ...resourceOf('condition', { name: 'Asthma' }), meta: { security: [{ system: SYSTEMS.confidentiality, code: 'R' }] } };
    expect(resourceToInput(exportMapping('condition'), resource, read)).toMatchObject({ private: true });
  });

  it('fields with a place of their own are not duplicated in extensions', () => {
    const fields = FHIR_MAPPINGS.flatMap((m) => Object.entries(m.fields).filter(([, v]) => v !== EXTENSION).map(([k]) => `${m.category}.${k}`));
    expect(fields.length).toBeGreaterThan(60);
    const resource = resourceOf('medicalvisit', { reason: 'Check-up', date: '2023-04-12', professional: 'Dr. G', diagnosis: 'Healthy' });
    expect(resource.extension).toBeUndefined();
    expect(resource).toMatchObject({ reasonCode: [{ text: 'Check-up' }], period: { start: '2023-04-12' }, participant: [{ individual: { display: 'Dr. G' } }], diagnosis: [{ condition: { display: 'Healthy' } }] });
  });
});
