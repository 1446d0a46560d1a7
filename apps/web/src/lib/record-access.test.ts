import { describe, expect, it } from 'vitest';
import { accessRights } from './record-access';

const flags = (r: ReturnType<typeof accessRights>) => ({ canWrite: r.canWrite, canChat: r.canChat, canSeePrivate: r.canSeePrivate, readOnly: r.readOnly });

describe('what an access level allows in the app (the server’s own rules, packages/shared patient-data.ts)', () => {
  it('owner: everything, private records included', () => {
    expect(flags(accessRights('owner'))).toEqual({ canWrite: true, canChat: true, canSeePrivate: true, readOnly: false });
    expect(Object.values(accessRights('owner').writes).every(Boolean)).toBe(true);
  });
  it('full: writes and chats for the patient, never private records', () => {
    expect(flags(accessRights('full'))).toEqual({ canWrite: true, canChat: true, canSeePrivate: false, readOnly: false });
  });
  it('read-only: nothing but reading; cannot communicate with providers; no shares or assessments', () => {
    const r = accessRights('read-only');
    expect(flags(r)).toEqual({ canWrite: false, canChat: false, canSeePrivate: false, readOnly: true });
    expect([r.reads.calendar, r.reads.shares, r.reads.assessments]).toEqual([true, false, false]);
  });
  it('limited to some categories: those records and their documents, nothing else of the record', () => {
    const r = accessRights('full', ['allergy']);
    expect(r.canWrite).toBe(true);
    expect([r.reads.records, r.reads.documents, r.reads.journal, r.reads.calendar, r.reads.insurance, r.reads.chat, r.reads.shares]).toEqual([true, true, false, false, false, false, false]);
    expect(r.canChat).toBe(false);
  });
  it('not known yet (the list loading): nothing offered, nothing said', () => {
    const r = accessRights(null);
    expect(flags(r)).toEqual({ canWrite: false, canChat: false, canSeePrivate: false, readOnly: false });
    expect(Object.values(r.reads).some(Boolean)).toBe(false);
  });
});
