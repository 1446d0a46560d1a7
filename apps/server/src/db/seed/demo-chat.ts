import type { Transaction } from 'kysely';
import type { Database } from '../schema';

const MINUTE = 60_000;

/**
 * A past chat of the demo patient with the demo peer coach, so that "Past chats" (the patient's
 * and the coach's console) has a conversation to show: greeting, a few words each way, the end.
 */
export async function seedDemoChat(
  trx: Transaction<Database>,
  who: { orgId: number; patientId: number; patientUserId: number; patientName: string; coachUserId: number; coachName: string },
  now = new Date(),
): Promise<void> {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * MINUTE);
  const started = 3 * 24 * 60;
  const conversation = await trx
    .insertInto('chat_conversations')
    .values({
      org_id: who.orgId,
      patient_id: who.patientId,
      patient_user_id: who.patientUserId,
      provider_user_id: who.coachUserId,
      provider_type: 'coach',
      reason: 'stress',
      language: 'en',
      status: 'ended',
      queued_at: at(started + 2),
      started_at: at(started),
      ended_at: at(started - 12),
      ended_by: who.patientUserId,
      end_reason: 'patient',
      patient_seen_at: at(started - 12),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const patient = { sender_user_id: who.patientUserId, sender_name: who.patientName, sender_role: 'patient' as const };
  const coach = { sender_user_id: who.coachUserId, sender_name: who.coachName, sender_role: 'staff' as const };
  const endedAt = at(started - 12);
  const lines = [
    { ...coach, kind: 'greeting' as const, body: `Hello Maria, I'm ${who.coachName}, your peer coach. How can I help you today?`, minute: started },
    { ...patient, kind: 'text' as const, body: 'Work has been very stressful lately and I am sleeping badly.', minute: started - 1 },
    { ...coach, kind: 'text' as const, body: 'That sounds hard. What helped you wind down in the past?', minute: started - 2 },
    { ...patient, kind: 'text' as const, body: 'Walking in the evening, but I stopped doing it.', minute: started - 4 },
    { ...coach, kind: 'text' as const, body: 'Could you try a short walk three evenings this week? We can talk again next week about how it went.', minute: started - 6 },
    { ...patient, kind: 'text' as const, body: 'Yes, I will try. Thank you!', minute: started - 11 },
    { ...patient, kind: 'exit' as const, body: `${who.patientName} exited the chat session at ${endedAt.toISOString()}`, minute: started - 12 },
  ];
  await trx
    .insertInto('chat_messages')
    .values(
      lines.map(({ minute, ...line }) => ({
        ...line,
        conversation_id: conversation.id,
        content_type: 'text/plain',
        created_at: at(minute),
      })),
    )
    .execute();
}
