import { describe, expect, it } from 'vitest';
import { AREA_RULES, PATIENT_DATA_AREAS, reachesArea, reachesCategory, rightsOf, seesPrivate, writesArea } from './patient-data';

const owner = { access: 'owner', categories: null } as const;
const full = { access: 'full', categories: null } as const;
const ro = { access: 'read-only', categories: null } as const;
const limitedFull = { access: 'full', categories: ['allergy'] } as const;
const limitedRo = { access: 'read-only', categories: ['allergy'] } as const;

describe('what a grant reaches of a patient’s record', () => {
  it('the owner reaches and writes every area, private rows included', () => {
    for (const area of PATIENT_DATA_AREAS) expect([reachesArea(owner, area), writesArea(owner, area)], area).toEqual([true, true]);
    expect(seesPrivate(owner)).toBe(true);
  });

  it('full access: everything but private rows', () => {
    for (const area of PATIENT_DATA_AREAS) expect(writesArea(full, area), area).toBe(true);
    expect(seesPrivate(full)).toBe(false);
  });

  it('read-only reads, never writes or chats, never sees assessments, shares or their access logs', () => {
    const reads = PATIENT_DATA_AREAS.filter((a) => reachesArea(ro, a));
    expect(reads).toEqual(['profile', 'records', 'documents', 'journal', 'insurance', 'calendar', 'appointments', 'chat']);
    for (const area of PATIENT_DATA_AREAS) expect(writesArea(ro, area), area).toBe(false);
    expect(AREA_RULES.chat.writeRefusal).toBe('chatReadOnly');
  });

  it('a grant limited to some categories reaches those categories (records, their documents) and nothing else of the record', () => {
    for (const grant of [limitedFull, limitedRo]) {
      expect(PATIENT_DATA_AREAS.filter((a) => reachesArea(grant, a))).toEqual(['profile', 'records', 'documents']);
      expect([reachesCategory(grant, 'allergy'), reachesCategory(grant, 'condition')]).toEqual([true, false]);
    }
    expect(writesArea(limitedFull, 'records')).toBe(true);
    expect(writesArea(limitedRo, 'records')).toBe(false);
    expect(reachesCategory({ categories: [] }, 'allergy')).toBe(false);
  });

  it('rightsOf answers the same, area by area (what the web app shows)', () => {
    const rights = rightsOf(limitedFull);
    expect(rights.reads.journal).toBe(false);
    expect(rights.writes.records).toBe(true);
    expect(rights.seesPrivate).toBe(false);
    expect(rightsOf(ro).reads.shares).toBe(false);
    expect(rightsOf(full).reads.shares).toBe(true);
  });
});
