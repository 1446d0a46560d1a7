import { COMPLAINTS, type Complaint, type ComplaintId } from './complaints';
import { DURATION_LABELS, LEVEL_LABELS, SEVERITY_LABELS, SEX_LABELS, type Bilingual, type Duration, type Severity, type Sex, type TriageLevel } from './types';

const WORDS = {
  title: { en: 'Symptom check', el: 'Έλεγχος συμπτωμάτων' },
  forWhom: { en: 'For', el: 'Για' },
  age: { en: 'age {{age}}', el: 'ηλικία {{age}}' },
  complaint: { en: 'Main complaint', el: 'Κύριο σύμπτωμα' },
  duration: { en: 'How long', el: 'Πόσο καιρό' },
  severity: { en: 'How bad', el: 'Πόσο έντονο' },
  flags: { en: 'Warning signs answered yes', el: 'Προειδοποιητικά σημάδια με απάντηση «ναι»' },
  none: { en: 'none', el: 'κανένα' },
  outcome: { en: 'Outcome', el: 'Αποτέλεσμα' },
  why: { en: 'Why', el: 'Γιατί' },
  checker: { en: 'Checker', el: 'Εργαλείο ελέγχου' },
  disclaimer: {
    en: 'This is not a diagnosis: the symptom checker’s content is experimental.',
    el: 'Αυτό δεν είναι διάγνωση: το περιεχόμενο του ελέγχου συμπτωμάτων είναι πειραματικό.',
  },
} satisfies Record<string, Bilingual>;

export interface SymptomNoteInput {
  age: number;
  sex: Sex;
  complaint: ComplaintId;
  duration: Duration;
  severity: Severity;
  /** The questions of the flags answered yes, in the note's language. */
  flagsAnsweredYes: readonly string[];
  level: TriageLevel;
  /** The reasons in words. */
  reasons: readonly string[];
  checker: string;
}

/** The note of a symptom saved from a check: complaint, duration, severity, flags answered yes and the outcome, in one language. */
export function symptomCheckNote(note: SymptomNoteInput, lang: 'en' | 'el'): string {
  const w = (key: keyof typeof WORDS) => WORDS[key][lang];
  const complaint = COMPLAINTS[note.complaint] as Complaint;
  const lines = [
    `${w('title')}`,
    `${w('forWhom')}: ${SEX_LABELS[note.sex][lang]}, ${w('age').replace('{{age}}', String(note.age))}`,
    `${w('complaint')}: ${complaint.name[lang]}`,
    `${w('duration')}: ${DURATION_LABELS[note.duration][lang]}`,
    `${w('severity')}: ${SEVERITY_LABELS[note.severity][lang]}`,
    note.flagsAnsweredYes.length ? `${w('flags')}:` : `${w('flags')}: ${w('none')}`,
    ...note.flagsAnsweredYes.map((q) => `- ${q}`),
    `${w('outcome')}: ${LEVEL_LABELS[note.level][lang]}`,
    `${w('why')}:`,
    ...note.reasons.map((r) => `- ${r}`),
    `${w('checker')}: ${note.checker}`,
    w('disclaimer'),
  ];
  return lines.join('\n').slice(0, 4000);
}
