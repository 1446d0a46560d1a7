import type { CrisisLine } from './contracts/organizations';

/**
 * Sensible emergency contacts per country: what an administrator fills in with one choice
 * (Administration → help and crisis contacts) and changes as they wish. The numbers are the
 * national ones, free and answered at any hour.
 */
export interface EmergencyPreset {
  emergency_number: string;
  crisis_lines: CrisisLine[];
}

export const EMERGENCY_PRESETS = {
  GR: {
    emergency_number: '112',
    crisis_lines: [
      { number: '1018', name: { en: 'Suicide prevention line (KLIMAKA, 24/7)', el: 'Γραμμή παρέμβασης για την αυτοκτονία (ΚΛΙΜΑΚΑ, 24/7)' } },
      { number: '10306', name: { en: 'Psychosocial support line (24/7)', el: 'Γραμμή ψυχοκοινωνικής υποστήριξης (24/7)' } },
      { number: '1056', name: { en: 'SOS line for children and young people (The Smile of the Child)', el: 'Γραμμή SOS για παιδιά και νέους (Το Χαμόγελο του Παιδιού)' } },
    ],
  },
  CY: {
    emergency_number: '112',
    crisis_lines: [{ number: '1455', name: { en: 'Suicide prevention line (24/7)', el: 'Γραμμή πρόληψης της αυτοκτονίας (24/7)' } }],
  },
  EU: {
    emergency_number: '112',
    crisis_lines: [{ number: '116 123', name: { en: 'Emotional support helpline (EU number)', el: 'Γραμμή συναισθηματικής υποστήριξης (ευρωπαϊκός αριθμός)' } }],
  },
  GB: {
    emergency_number: '999',
    crisis_lines: [{ number: '116 123', name: { en: 'Samaritans (24/7)', el: 'Samaritans (24/7)' } }],
  },
  US: {
    emergency_number: '911',
    crisis_lines: [{ number: '988', name: { en: '988 Suicide & Crisis Lifeline (call or text)', el: 'Γραμμή 988 για την αυτοκτονία και την κρίση (κλήση ή μήνυμα)' } }],
  },
} as const satisfies Record<string, EmergencyPreset>;

export type EmergencyCountry = keyof typeof EMERGENCY_PRESETS;
export const EMERGENCY_COUNTRIES = Object.keys(EMERGENCY_PRESETS) as EmergencyCountry[];
