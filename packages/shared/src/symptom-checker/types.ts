/** Words of the symptom checker's data, in both languages of the app. */
export interface Bilingual {
  en: string;
  el: string;
}

/** Who a complaint or a question is for (absent: everyone). Ages in whole years. */
export interface Applies {
  sexes?: readonly Sex[];
  minAge?: number;
  maxAge?: number;
}

export const MIN_AGE = 0;
export const MAX_AGE = 120;

export const SEXES = ['female', 'male'] as const;
export type Sex = (typeof SEXES)[number];

/** How long it has been going on, shortest first. */
export const DURATIONS = ['under-24-hours', '1-3-days', '4-7-days', '1-4-weeks', 'over-a-month'] as const;
export type Duration = (typeof DURATIONS)[number];

export const SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The outcomes, least urgent first. */
export const TRIAGE_LEVELS = ['self-care', 'soon', 'urgent', 'emergency'] as const;
export type TriageLevel = (typeof TRIAGE_LEVELS)[number];

export const LEVEL_LABELS: Record<TriageLevel, Bilingual> = {
  emergency: { en: 'Call the emergency number now', el: 'Καλέστε τώρα τον αριθμό έκτακτης ανάγκης' },
  urgent: { en: 'Get urgent care today', el: 'Ζητήστε επείγουσα φροντίδα σήμερα' },
  soon: { en: 'See a doctor soon (book a telehealth visit)', el: 'Δείτε γιατρό σύντομα (κλείστε τηλεϊατρική επίσκεψη)' },
  'self-care': { en: 'Look after yourself at home', el: 'Φροντίστε τον εαυτό σας στο σπίτι' },
};

export const DURATION_LABELS: Record<Duration, Bilingual> = {
  'under-24-hours': { en: 'Under 24 hours', el: 'Λιγότερο από 24 ώρες' },
  '1-3-days': { en: '1 to 3 days', el: '1 έως 3 ημέρες' },
  '4-7-days': { en: '4 to 7 days', el: '4 έως 7 ημέρες' },
  '1-4-weeks': { en: '1 to 4 weeks', el: '1 έως 4 εβδομάδες' },
  'over-a-month': { en: 'Over a month', el: 'Περισσότερο από έναν μήνα' },
};

export const SEVERITY_LABELS: Record<Severity, Bilingual> = {
  mild: { en: 'Mild', el: 'Ήπιο' },
  moderate: { en: 'Moderate', el: 'Μέτριο' },
  severe: { en: 'Severe', el: 'Σοβαρό' },
};

export const SEX_LABELS: Record<Sex, Bilingual> = {
  female: { en: 'Female', el: 'Γυναίκα' },
  male: { en: 'Male', el: 'Άνδρας' },
};

/** Whether a complaint or question is for this person. */
export function applies(to: Applies | undefined, person: { age: number; sex: Sex }): boolean {
  if (!to) return true;
  if (to.sexes && !to.sexes.includes(person.sex)) return false;
  if (to.minAge !== undefined && person.age < to.minAge) return false;
  if (to.maxAge !== undefined && person.age > to.maxAge) return false;
  return true;
}
