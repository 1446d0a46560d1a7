import { describe, expect, it } from 'vitest';
import { allowsCategory, canChat, canSeeAssessments, canSeeAssessmentsOf, canSeePrivate, canWrite, patientAccess } from './patients.policy';

describe('a user’s rights on a patient', () => {
  const actor = { userId: 1, orgId: 10 };
  it('the owner has everything; another organisation or another person nothing', () => {
    expect(patientAccess(actor, { id: 5, user_id: 1, org_id: 10 })).toBe('owner');
    expect(patientAccess(actor, { id: 5, user_id: 1, org_id: 11 })).toBeNull();
    expect(patientAccess(actor, { id: 5, user_id: 2, org_id: 10 })).toBeNull();
  });

  it('the care network: an active grant of this patient to this user gives its access level, nothing else does', () => {
    const patient = { id: 5, user_id: 2, org_id: 10 };
    const grant = { patient_id: 5, grantee_user_id: 1, status: 'active', access: 'read-only' as const };
    expect(patientAccess(actor, patient, grant)).toBe('read-only');
    expect(patientAccess(actor, patient, { ...grant, access: 'full' })).toBe('full');
    expect(patientAccess(actor, { id: 6, user_id: null, org_id: 10 }, { ...grant, patient_id: 6, access: 'full' })).toBe('full');
    for (const status of ['pending', 'revoked', 'declined']) expect(patientAccess(actor, patient, { ...grant, status })).toBeNull();
    expect(patientAccess(actor, patient, { ...grant, grantee_user_id: 3 })).toBeNull();
    expect(patientAccess(actor, patient, { ...grant, patient_id: 6 })).toBeNull();
    expect(patientAccess(actor, { ...patient, org_id: 11 }, grant)).toBeNull();
  });

  it('read-only access may not write, see private records, or chat with providers (the Terms)', () => {
    expect([canWrite('read-only'), canSeePrivate('read-only'), canChat('read-only')]).toEqual([false, false, false]);
    expect([canWrite('full'), canSeePrivate('full'), canChat('full')]).toEqual([true, false, true]);
    expect([canWrite('owner'), canSeePrivate('owner'), canChat('owner')]).toEqual([true, true, true]);
  });

  it('mental-health assessments: the owner and full access; never read-only', () => {
    expect([canSeeAssessments('owner'), canSeeAssessments('full'), canSeeAssessments('read-only')]).toEqual([true, true, false]);
  });

  it('a grant limited to some categories: those categories only, and no assessments', () => {
    expect([allowsCategory(null, 'condition'), allowsCategory(['allergy'], 'allergy'), allowsCategory(['allergy'], 'condition'), allowsCategory([], 'allergy')]).toEqual([true, true, false, false]);
    expect(canSeeAssessmentsOf({ access: 'full', categories: null })).toBe(true);
    expect(canSeeAssessmentsOf({ access: 'full', categories: ['allergy'] })).toBe(false);
    expect(canSeeAssessmentsOf({ access: 'read-only', categories: null })).toBe(false);
  });
});
