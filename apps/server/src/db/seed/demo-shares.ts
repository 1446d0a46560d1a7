import type { Transaction } from 'kysely';
import { randomDigits, randomToken, sha256 } from '../../lib/crypto';
import type { Database } from '../schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The demo patient's shares, so that "Share my record" has a history to show: a link share with
 * their doctor, opened twice (who saw my record), and a QR share they revoked. Their addresses
 * were never kept (only hashes are), as for any share: the patient can issue new ones.
 */
export async function seedDemoShares(trx: Transaction<Database>, who: { orgId: number; patientId: number; userId: number }, now = new Date()): Promise<void> {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  const [link, qr] = await trx
    .insertInto('shares')
    .values([
      {
        org_id: who.orgId,
        patient_id: who.patientId,
        created_by: who.userId,
        uid: randomToken(12),
        token_hash: sha256(randomToken(32)),
        kind: 'records',
        method: 'link',
        recipient_name: 'Dr Eleni Papadopoulou',
        recipient_email: 'eleni.papadopoulou@clinic.example',
        language: 'en',
        message: 'For our appointment next week.',
        categories: ['condition', 'allergy', 'medication'],
        record_ids: [],
        document_ids: [],
        passcode_hash: null,
        expires_at: at(6 * DAY),
        first_opened_at: at(-20 * HOUR),
        created_at: at(-DAY),
      },
      {
        org_id: who.orgId,
        patient_id: who.patientId,
        created_by: who.userId,
        uid: randomToken(12),
        token_hash: sha256(randomToken(32)),
        kind: 'records',
        method: 'qr',
        recipient_name: 'Nikos Georgiou',
        recipient_email: 'nikos.georgiou@example.com',
        language: 'el',
        message: null,
        categories: ['immunization'],
        record_ids: [],
        document_ids: [],
        passcode_hash: sha256(`${randomToken(32)}:${randomDigits(6)}`),
        expires_at: at(20 * DAY),
        revoked_at: at(-5 * DAY),
        created_at: at(-10 * DAY),
      },
    ])
    .returning('id')
    .execute();
  const browser = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
  const shown = JSON.stringify({ categories: ['condition', 'allergy', 'medication'], records: 9, documents: 0 });
  await trx
    .insertInto('share_accesses')
    .values([
      { share_id: link!.id, action: 'verified', ip: '192.0.2.44', user_agent: browser, shown: JSON.stringify({ categories: [], records: 0, documents: 0 }), opened_at: at(-20 * HOUR) },
      { share_id: link!.id, action: 'viewed', ip: '192.0.2.44', user_agent: browser, shown, opened_at: at(-20 * HOUR + 5_000) },
      { share_id: link!.id, action: 'pdf', ip: '192.0.2.44', user_agent: browser, shown, opened_at: at(-20 * HOUR + 60_000) },
      { share_id: link!.id, action: 'viewed', ip: '192.0.2.44', user_agent: browser, shown, opened_at: at(-2 * HOUR) },
      { share_id: qr!.id, action: 'verified', ip: '198.51.100.7', user_agent: browser, shown: JSON.stringify({ categories: [], records: 0, documents: 0 }), opened_at: at(-9 * DAY) },
      { share_id: qr!.id, action: 'viewed', ip: '198.51.100.7', user_agent: browser, shown: JSON.stringify({ categories: ['immunization'], records: 4, documents: 0 }), opened_at: at(-9 * DAY + 4_000) },
    ])
    .execute();
}
