/** The least a valid record of each category holds (its required fields), for tests that go through every category. */
const MINIMAL: Record<string, Record<string, unknown>> = {
  condition: { name: 'Asthma' },
  symptom: { name: 'Headache' },
  medication: { code: 'Salbutamol' },
  allergy: { code: 'Penicillin' },
  immunization: { vaccine_name: 'Tetanus' },
  lab: { test: 'Haemoglobin', result: 13.5, units: 'g/dL' },
  diagnostic: { test: 'Chest X-ray', result: 'No findings' },
  medicalvisit: { reason: 'Annual check-up' },
  surgery: { procedure: 'Appendectomy' },
  procedure: { procedure: 'Colonoscopy' },
  socialhistory: { category: 'physical-activity' },
  familyhistory: { medical_issue: 'Type 2 diabetes', relationship: 'mother' },
  supplement: { code: 'Vitamin D3' },
  travelhistory: { country: 'GR' },
  biometrics: { measure: 'weight', value: 72.5 },
};

export const minimalRecord = (category: string): Record<string, unknown> => ({ ...MINIMAL[category]! });
