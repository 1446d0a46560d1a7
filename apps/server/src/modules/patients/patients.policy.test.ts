import { describe, expect, it } from 'vitest';
import { patientAccess } from './patients.policy';

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
});
