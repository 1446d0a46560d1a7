import { COMPLAINTS, type Complaint, type ComplaintId } from './complaints';
import { RED_FLAGS, type FlagId, type RedFlag } from './flags';
import { byUrgency } from './questions';
import type { SourceId } from './sources';
import { DURATIONS, TRIAGE_LEVELS, applies, type Bilingual, type Duration, type Severity, type Sex, type TriageLevel } from './types';

/** What the checker is told: who it is for, the main complaint, how long, how bad, and the red flags answered yes. */
export interface TriageInput {
  age: number;
  sex: Sex;
  complaint: ComplaintId;
  duration: Duration;
  severity: Severity;
  /** The complaint's red-flag questions answered "yes" (the others were answered "no"). */
  red_flags: readonly FlagId[];
}

/** Escalations after the red flags, as data: when one matches, the outcome is at least its level. */
export interface EscalationRule {
  level: Exclude<TriageLevel, 'self-care' | 'emergency'>;
  when: {
    complaints?: readonly ComplaintId[];
    sexes?: readonly Sex[];
    minAge?: number;
    maxAge?: number;
    severities?: readonly Severity[];
    durations?: readonly Duration[];
    /** It has lasted at least the complaint's `longFrom`. */
    longDuration?: true;
  };
  /** Why, as the result screen says it. */
  reason: Bilingual;
  source: SourceId;
}

const FROM_4_DAYS: readonly Duration[] = ['4-7-days', '1-4-weeks', 'over-a-month'];

export const ESCALATION_RULES = {
  'infant-fever': {
    level: 'urgent',
    when: { complaints: ['fever'], maxAge: 0 },
    reason: {
      en: 'A baby under 1 year with a fever should be checked by a doctor today.',
      el: 'Ένα μωρό κάτω του 1 έτους με πυρετό πρέπει να εξεταστεί από γιατρό σήμερα.',
    },
    source: 'nice-ng143',
  },
  'child-fever-4-days': {
    level: 'urgent',
    when: { complaints: ['fever'], maxAge: 4, durations: FROM_4_DAYS },
    reason: {
      en: 'A child under 5 with a fever lasting several days should be checked by a doctor today.',
      el: 'Ένα παιδί κάτω των 5 ετών με πυρετό που κρατά αρκετές ημέρες πρέπει να εξεταστεί από γιατρό σήμερα.',
    },
    source: 'nhs-fever-children',
  },
  'infant-dehydration-risk': {
    level: 'soon',
    when: { complaints: ['vomiting', 'diarrhoea'], maxAge: 0 },
    reason: {
      en: 'Babies under 1 year can lose fluids quickly: a doctor should see them soon.',
      el: 'Τα μωρά κάτω του 1 έτους χάνουν γρήγορα υγρά: πρέπει να τα δει γιατρός σύντομα.',
    },
    source: 'nhs-diarrhoea-vomiting',
  },
  'older-adult-fever': {
    level: 'soon',
    when: { complaints: ['fever'], minAge: 75 },
    reason: {
      en: 'At 75 or over, a fever should be checked by a doctor soon.',
      el: 'Από τα 75 και πάνω, ο πυρετός πρέπει να ελεγχθεί σύντομα από γιατρό.',
    },
    source: 'nice-ng51',
  },
  severe: {
    level: 'soon',
    when: { severities: ['severe'] },
    reason: { en: 'You said it is severe.', el: 'Είπατε ότι είναι σοβαρό.' },
    source: 'nhs-111',
  },
  'long-duration': {
    level: 'soon',
    when: { longDuration: true },
    reason: {
      en: 'It has lasted longer than this usually does.',
      el: 'Κρατά περισσότερο απ’ ό,τι συνήθως.',
    },
    source: 'nhs-111',
  },
} as const satisfies Record<string, EscalationRule>;

export type EscalationRuleId = keyof typeof ESCALATION_RULES;

/** What to do and when to seek help, per outcome: keys the apps word in their language. */
export const ADVICE_KEYS = {
  emergency: ['call-now', 'while-waiting'],
  urgent: ['urgent-care-today', 'if-worse-call'],
  soon: ['see-doctor-soon', 'if-worse-urgent'],
  'self-care': ['home-care', 'pharmacist', 'seek-help-if'],
} as const satisfies Record<TriageLevel, readonly string[]>;

export type AdviceKey = (typeof ADVICE_KEYS)[TriageLevel][number];
export const ALL_ADVICE_KEYS = [...new Set(Object.values(ADVICE_KEYS).flat())] as [AdviceKey, ...AdviceKey[]];

export type TriageReason = { kind: 'flag'; id: FlagId } | { kind: 'rule'; id: EscalationRuleId } | { kind: 'default'; id: ComplaintId };

export interface TriageOutcome {
  level: TriageLevel;
  /** Why: the red flags answered yes; else the rules that escalated it; else the complaint's default. */
  reasons: TriageReason[];
  advice: AdviceKey[];
}

export const levelRank = (level: TriageLevel) => TRIAGE_LEVELS.indexOf(level);
const higher = (a: TriageLevel, b: TriageLevel) => (levelRank(a) >= levelRank(b) ? a : b);

/** The red flags a complaint asks this person (a baby's question only for a baby, and so on), most urgent first. */
export function flagsFor(complaint: ComplaintId, person: { age: number; sex: Sex }): FlagId[] {
  const own = (COMPLAINTS[complaint] as Complaint).flags.map((id) => ({ id, level: (RED_FLAGS[id] as RedFlag).level }));
  return byUrgency(own.filter(({ id }) => applies((RED_FLAGS[id] as RedFlag).for, person))).map(({ id }) => id);
}

/** Whether a complaint is for this person (periods, testicles). */
export const complaintApplies = (complaint: ComplaintId, person: { age: number; sex: Sex }) => applies((COMPLAINTS[complaint] as Complaint).for, person);

function ruleMatches(rule: EscalationRule, input: TriageInput): boolean {
  const w = rule.when;
  if (w.complaints && !w.complaints.includes(input.complaint)) return false;
  if (w.sexes && !w.sexes.includes(input.sex)) return false;
  if (w.minAge !== undefined && input.age < w.minAge) return false;
  if (w.maxAge !== undefined && input.age > w.maxAge) return false;
  if (w.severities && !w.severities.includes(input.severity)) return false;
  if (w.durations && !w.durations.includes(input.duration)) return false;
  if (w.longDuration) {
    const from = (COMPLAINTS[input.complaint] as Complaint).longFrom;
    if (!from || DURATIONS.indexOf(input.duration) < DURATIONS.indexOf(from)) return false;
  }
  return true;
}

/**
 * The built-in triage: pure and deterministic. Any red flag answered yes wins (the highest level
 * among them); else the escalation rules that match raise the complaint's default level; else the
 * complaint's default. The input is assumed checked (the contract's schema); flags that are not
 * the complaint's are ignored here.
 */
export function triage(input: TriageInput): TriageOutcome {
  const asked = new Set(flagsFor(input.complaint, input));
  const yes = [...new Set(input.red_flags)].filter((id) => asked.has(id));
  if (yes.length > 0) {
    const level = yes.map((id) => RED_FLAGS[id].level as TriageLevel).reduce(higher);
    // The flags at the level reached first, then the others answered yes.
    const ordered = [...yes.filter((id) => RED_FLAGS[id].level === level), ...yes.filter((id) => RED_FLAGS[id].level !== level)];
    return { level, reasons: ordered.map((id) => ({ kind: 'flag', id })), advice: [...ADVICE_KEYS[level]] };
  }
  const complaint = COMPLAINTS[input.complaint] as Complaint;
  let level: TriageLevel = complaint.defaultLevel;
  const raised: TriageReason[] = [];
  for (const [id, rule] of Object.entries(ESCALATION_RULES) as Array<[EscalationRuleId, EscalationRule]>) {
    if (!ruleMatches(rule, input) || levelRank(rule.level) < levelRank(complaint.defaultLevel)) continue;
    level = higher(level, rule.level);
    raised.push({ kind: 'rule', id });
  }
  // The reason is the rules that decided the level; when none raised it, the complaint's default.
  const reasons: TriageReason[] = level === complaint.defaultLevel ? [{ kind: 'default', id: input.complaint }] : raised.filter((r) => r.kind === 'rule' && ESCALATION_RULES[r.id].level === level);
  return { level, reasons, advice: [...ADVICE_KEYS[level]] };
}

/** A reason in words, in a language, with the guidance it comes from. */
export function reasonText(reason: TriageReason, lang: 'en' | 'el'): { text: string; source: SourceId | null } {
  if (reason.kind === 'flag') return { text: RED_FLAGS[reason.id].question[lang], source: RED_FLAGS[reason.id].source };
  if (reason.kind === 'rule') return { text: ESCALATION_RULES[reason.id].reason[lang], source: ESCALATION_RULES[reason.id].source };
  const complaint = COMPLAINTS[reason.id] as Complaint;
  const words: Record<string, Bilingual> = {
    'self-care': { en: '{{name}} without warning signs can usually be looked after at home.', el: '{{name}} χωρίς προειδοποιητικά σημάδια συνήθως αντιμετωπίζεται στο σπίτι.' },
    soon: { en: '{{name}} should be checked by a doctor soon.', el: '{{name}}: καλό είναι να το δει γιατρός σύντομα.' },
    urgent: { en: '{{name}} should be checked by a doctor today.', el: '{{name}}: πρέπει να το δει γιατρός σήμερα.' },
  };
  return { text: words[complaint.defaultLevel]![lang].replace('{{name}}', complaint.name[lang]), source: null };
}
