import { describe, expect, it } from 'vitest';
import { acceptRefusal, invitationLink, memberStatus } from './care-network.policy';
import { accessDetail, presentAccess } from './care-network.presenter';
import type { AccessLogRow } from './care-network.repository';

const now = new Date('2026-11-25T12:00:00Z');
const later = new Date('2026-11-26T12:00:00Z');
const earlier = new Date('2026-11-24T12:00:00Z');

describe('memberStatus', () => {
  it('active stays active; pending turns expired at its expiry (not before)', () => {
    expect(memberStatus({ status: 'active', expires_at: earlier }, now)).toBe('active');
    expect(memberStatus({ status: 'pending', expires_at: later }, now)).toBe('pending');
    expect(memberStatus({ status: 'pending', expires_at: now }, now)).toBe('expired');
    expect(memberStatus({ status: 'pending', expires_at: earlier }, now)).toBe('expired');
    expect(memberStatus({ status: 'pending', expires_at: null }, now)).toBe('pending');
  });
});

describe('acceptRefusal', () => {
  const invitation = { status: 'pending' as const, expires_at: later, email: 'anna@example.test', org_id: 1 };
  const anna = { userId: 7, orgId: 1, email: 'Anna@Example.test' };

  it('lets the invited address’s account of the organisation accept a live invitation', () => {
    expect(acceptRefusal(invitation, 3, anna, { now })).toBeNull();
  });

  it('refuses, in order: unknown or not pending or another organisation (404), own record (400), another address (403), expired (410)', () => {
    expect(acceptRefusal(undefined, 3, anna, { now })).toEqual({ status: 404, key: 'errors:careInvitationNotFound' });
    expect(acceptRefusal({ ...invitation, status: 'revoked' }, 3, anna, { now })?.status).toBe(404);
    expect(acceptRefusal({ ...invitation, status: 'declined' }, 3, anna, { now })?.status).toBe(404);
    expect(acceptRefusal({ ...invitation, org_id: 2 }, 3, anna, { now })?.status).toBe(404);
    expect(acceptRefusal(invitation, 7, anna, { now })).toEqual({ status: 400, key: 'errors:careInvitationOwnRecord' });
    expect(acceptRefusal(invitation, 3, { ...anna, email: 'bob@example.test' }, { now })).toEqual({ status: 403, key: 'errors:careInvitationOtherAccount' });
    expect(acceptRefusal({ ...invitation, expires_at: earlier }, 3, anna, { now })).toEqual({ status: 410, key: 'errors:careInvitationExpired' });
    // Another account is told so even when it ran out (the address decides first).
    expect(acceptRefusal({ ...invitation, expires_at: earlier }, 3, { ...anna, email: 'bob@example.test' }, { now })?.status).toBe(403);
    // Declining an expired invitation is allowed.
    expect(acceptRefusal({ ...invitation, expires_at: earlier }, 3, anna, { now, allowExpired: true })).toBeNull();
  });
});

describe('invitationLink', () => {
  it('carries the token in the fragment, never in the query or path', () => {
    const link = invitationLink('https://hb.example/', 'healthbook', 'abc_DEF-123');
    expect(link).toBe('https://hb.example/healthbook/caring-person-info#token=abc_DEF-123');
    const url = new URL(link);
    expect(url.search).toBe('');
    expect(url.pathname).not.toContain('abc_DEF-123');
  });
});

describe('who saw my record', () => {
  it('says what an action was about, in the reader’s language', () => {
    expect(accessDetail('record_read', { category: 'medication', records: 3 }, 'en')).toBe('Medications');
    expect(accessDetail('record_read', { category: 'medication' }, 'el')).toBe('Φάρμακα');
    expect(accessDetail('record_read', { category: 'journal' }, 'en')).toBe('Journal');
    expect(accessDetail('document_read', { document: 4 }, 'en')).toBe('Document Center');
    expect(accessDetail('appointment_book', { appointment: 1 }, 'en')).toBe('Appointments');
    expect(accessDetail('record_export', {}, 'en')).toBe('PDF export');
    expect(accessDetail('share_read', { share: 1, what: 'pdf' }, 'en')).toBe('Shared records downloaded as PDF');
    expect(accessDetail('patient_access', { intent: 'read' }, 'en')).toBe('Access refused');
    expect(accessDetail('something_else', {}, 'en')).toBeNull();
  });

  it('names care-network people, share recipients and others apart', () => {
    const row: AccessLogRow = {
      id: 1,
      at: now,
      first_at: now,
      count: 3,
      action: 'record_read',
      outcome: 'success',
      actor_user_id: 5,
      detail: { category: 'allergy' },
      actor_first_name: 'Anna',
      actor_last_name: 'Smith',
      actor_in_network: true,
      share_recipient: null,
    };
    expect(presentAccess(row, 'en')).toEqual({
      at: now.toISOString(),
      first_at: now.toISOString(),
      count: 3,
      who: 'Anna Smith',
      via: 'care-network',
      action: 'record_read',
      outcome: 'success',
      text: 'Anna Smith viewed your health records 3 times',
      detail: 'Allergies',
    });
    expect(presentAccess({ ...row, count: 1 }, 'el').text).toBe('Anna Smith είδε τις καταχωρίσεις υγείας σας');
    expect(presentAccess({ ...row, actor_in_network: false, action: 'appointment_read', detail: {} }, 'en')).toMatchObject({ who: 'Anna Smith', via: 'other' });
    expect(presentAccess({ ...row, actor_user_id: null, actor_first_name: null, actor_last_name: null, actor_in_network: false, action: 'share_read', share_recipient: 'Dr Grey', detail: { share: 2, what: 'viewed' } }, 'en')).toMatchObject({
      who: 'Dr Grey',
      via: 'share',
      detail: 'Shared records viewed',
      text: 'Dr Grey opened your shared link and viewed the records 3 times',
    });
    expect(presentAccess({ ...row, outcome: 'failure' }, 'en').outcome).toBe('denied');
  });
});
