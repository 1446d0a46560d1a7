import {
  COMPLAINTS,
  COMPLAINT_IDS,
  RED_FLAGS,
  SOURCES,
  byUrgency,
  reasonText,
  triage,
  type Complaint,
  type Language,
  type RedFlag,
  type SymptomCheckInput,
  type SymptomCheckResult,
  type SymptomComplaintList,
  type TriageOutcome,
} from '@healthbook/shared';

/**
 * A symptom checker: its complaints (with their red-flag questions) in a language, and the
 * assessment of a checked input. The built-in one is the default; others are plugged in by
 * configuration (SYMPTOM_CHECKER) behind this same interface.
 */
export interface SymptomChecker {
  readonly id: string;
  complaints(lang: Language): Promise<SymptomComplaintList>;
  assess(input: SymptomCheckInput, lang: Language): Promise<SymptomCheckResult>;
}

/** A triage outcome of the shared rules as the API answers it: reasons in words, with their sources. */
export function presentOutcome(checker: string, outcome: TriageOutcome, lang: Language): SymptomCheckResult {
  return {
    checker,
    level: outcome.level,
    reasons: outcome.reasons.map((reason) => {
      const { text, source } = reasonText(reason, lang);
      return { kind: reason.kind, id: reason.id, text, source: source ? { ...SOURCES[source] } : null };
    }),
    advice: outcome.advice,
  };
}

/** The complaints of the shared data, in a language. */
export function complaintList(checker: string, lang: Language): SymptomComplaintList {
  return {
    checker,
    complaints: COMPLAINT_IDS.map((id) => {
      const c = COMPLAINTS[id] as Complaint;
      return {
        id,
        name: c.name[lang],
        synonyms: [...c.synonyms[lang]],
        sexes: c.for?.sexes ? [...c.for.sexes] : null,
        min_age: c.for?.minAge ?? null,
        max_age: c.for?.maxAge ?? null,
        // In the order they are asked: the most urgent first (a "yes" ends the questions).
        red_flags: byUrgency(c.flags.map((flagId) => ({ flagId, level: (RED_FLAGS[flagId] as RedFlag).level }))).map(({ flagId }) => {
          const flag = RED_FLAGS[flagId] as RedFlag;
          return {
            id: flagId,
            question: flag.question[lang],
            level: flag.level,
            sexes: flag.for?.sexes ? [...flag.for.sexes] : null,
            min_age: flag.for?.minAge ?? null,
            max_age: flag.for?.maxAge ?? null,
          };
        }),
      };
    }),
  };
}

/** The built-in checker: the shared red-flag rules and triage (packages/shared/src/symptom-checker). Works offline. */
export class BuiltInSymptomChecker implements SymptomChecker {
  readonly id = 'built-in';

  async complaints(lang: Language): Promise<SymptomComplaintList> {
    return complaintList(this.id, lang);
  }

  async assess(input: SymptomCheckInput, lang: Language): Promise<SymptomCheckResult> {
    return presentOutcome(this.id, triage(input), lang);
  }
}
