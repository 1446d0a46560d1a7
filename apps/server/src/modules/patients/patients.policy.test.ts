import { describe, expect, it } from 'vitest';
import { canChat, canSeeAssessments, canSeePrivate, canWrite, patientAccess } from './patients.policy';

describe('a user’s rights on a patient', () => {
  const actor = { userId: 1, orgId: 10 };
  it('the owner has everything; another organisation or another person nothing', () => {
    expect(patientAccess(actor, { user_id: 1, org_id: 10 })).toBe('owner');
    expect(patientAccess(actor, { user_id: 1, org_id: 11 })).toBeNull();
    expect(patientAccess(actor, { user_id: 2, org_id: 10 })).toBeNull();
  });

  it('read-only access may not write, see private records, or chat with providers (the Terms)', () => {
    expect([canWrite('read-only'), canSeePrivate('read-only'), canChat('read-only')]).toEqual([false, false, false]);
    expect([canWrite('full'), canSeePrivate('full'), canChat('full')]).toEqual([true, false, true]);
    expect([canWrite('owner'), canSeePrivate('owner'), canChat('owner')]).toEqual([true, true, true]);
  });

  it('mental-health assessments: the owner and full access; never read-only', () => {
    expect([canSeeAssessments('owner'), canSeeAssessments('full'), canSeeAssessments('read-only')]).toEqual([true, true, false]);
  });
});
