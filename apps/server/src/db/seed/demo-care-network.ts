import type { Transaction } from 'kysely';
import { CARE_INVITATION_DAYS } from '@healthbook/shared';
import { randomToken, sha256 } from '../../lib/crypto';
import type { Database } from '../schema';

const DAY = 24 * 3_600_000;

/**
 * The demo patient's care network, so that its page is not empty: a read-only invitation to a
 * relative, sent two days ago and waiting. The relative has no demo account (every other demo
 * account of the organisation is staff: letting a provider or an administrator into the patient's
 * record would blur what the other demo journeys show), so it stays pending; its token was never
 * kept (only a hash is), as for any invitation: the patient can send it again.
 */
export async function seedDemoCareNetwork(trx: Transaction<Database>, who: { orgId: number; patientId: number; userId: number }, now = new Date()): Promise<void> {
  const sent = new Date(now.getTime() - 2 * DAY);
  await trx
    .insertInto('patient_grants')
    .values({
      org_id: who.orgId,
      patient_id: who.patientId,
      kind: 'invitation',
      invited_by: who.userId,
      name: 'Giorgos Papadopoulos',
      email: 'giorgos.papadopoulos@family.example',
      access: 'read-only',
      categories: null,
      status: 'pending',
      token_hash: sha256(randomToken(32)),
      expires_at: new Date(sent.getTime() + CARE_INVITATION_DAYS * DAY),
      created_at: sent,
      updated_at: sent,
    })
    .execute();
}
