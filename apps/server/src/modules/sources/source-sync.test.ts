import { describe, expect, it } from 'vitest';
import { ofPatient, syncKey } from './source-sync';

describe('a synced resource', () => {
  it('comes in only when it names no other patient than the connection’s', () => {
    expect(ofPatient({ resourceType: 'Condition', subject: { reference: 'Patient/alice' } }, 'alice')).toBe(true);
    expect(ofPatient({ resourceType: 'AllergyIntolerance', patient: { reference: 'https://ehr.example/fhir/Patient/alice/_history/3' } }, 'alice')).toBe(true);
    expect(ofPatient({ resourceType: 'Condition', subject: { reference: 'Patient/bob' } }, 'alice')).toBe(false);
    expect(ofPatient({ resourceType: 'Observation', subject: { reference: 'https://ehr.example/fhir/Patient/bob' } }, 'alice')).toBe(false);
    // No patient named (a contained or a group resource): the search's own filter answers for it.
    expect(ofPatient({ resourceType: 'Observation' }, 'alice')).toBe(true);
  });

  it('is known by its source and resource, whatever the connection', () => {
    expect(syncKey(7, 'Condition', 'c-1')).toBe('source:7|Condition/c-1');
  });
});
