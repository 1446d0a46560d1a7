import { describe, expect, it } from 'vitest';
import { accessRights } from './record-access';

describe('what an access level allows in the app (as patients.policy.ts decides on the server)', () => {
  it('owner: everything, private records included', () => {
    expect(accessRights('owner')).toEqual({ canWrite: true, canChat: true, canSeePrivate: true, readOnly: false });
  });
  it('full: writes and chats for the patient, never private records', () => {
    expect(accessRights('full')).toEqual({ canWrite: true, canChat: true, canSeePrivate: false, readOnly: false });
  });
  it('read-only: nothing but reading; cannot communicate with providers', () => {
    expect(accessRights('read-only')).toEqual({ canWrite: false, canChat: false, canSeePrivate: false, readOnly: true });
  });
  it('not known yet (the list loading): nothing offered, nothing said', () => {
    expect(accessRights(null)).toEqual({ canWrite: false, canChat: false, canSeePrivate: false, readOnly: false });
  });
});
