import type { ChatDetails } from '@healthbook/shared/contracts/chat';

/** The chat connection details of the demo patient waiting for a peer coach (tests only). */
export const chatDetails = (extra: Partial<ChatDetails> = {}): ChatDetails => ({
  conversation_id: 9,
  status: 'queued',
  user_id: 5,
  patient_name: 'Maria Papadopoulou',
  patient_id: 5,
  reason: 'stress',
  reason_for_visit: 'Stress or anxiety',
  provider_type: 'coach',
  provider_name: null,
  credential_id: 'cred-5',
  org_name: 'healthbook',
  position: 1,
  queued_at: '2026-03-01T10:00:00.000Z',
  ...extra,
});
