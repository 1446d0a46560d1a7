import type { WizardStepName } from '@healthbook/shared';

/** The first-run wizard's steps, in order (a patient's). */
export const WIZARD_STEPS = ['profile', 'mfa', 'profile_questions', 'health_record'] as const satisfies readonly WizardStepName[];

/**
 * Staff (providers, peer coaches, administrators) work in their console: the steps about their
 * own health record (the health questions, a first record) are a patient's, not theirs.
 */
const STAFF_STEPS = ['profile', 'mfa'] as const satisfies readonly WizardStepName[];

/** What is known of the signed-in user, from their own account and record (never a viewed one). */
export interface WizardFacts {
  /** Holds a staff role (provider, coach, organisation admin) or is a super admin. */
  staff: boolean;
  /** First and last name, date of birth and phone number are all filled in. */
  profileComplete: boolean;
  /** A confirmed second factor. */
  secondFactor: boolean;
  /** Any answer to the profile questions. */
  answered: boolean;
  /** The user's own record holds at least one health record (any category, private ones too). */
  hasOwnRecord: boolean;
  /** Steps marked done by hand (POST /api/v1/wizard/). */
  marked: readonly string[];
}

export interface WizardChecklist {
  steps: readonly { step: WizardStepName; done: boolean }[];
  /** Every step is done: the wizard is complete for good. */
  complete: boolean;
}

/**
 * The checklist, from what the user did: a step is done when its fact holds or it was marked.
 * A patient with records has "Add your first health record" ticked whether or not they ever
 * marked it; staff have only the steps of their account.
 */
export function wizardChecklist(facts: WizardFacts): WizardChecklist {
  const marked = new Set<string>(facts.marked);
  const byFact: Record<WizardStepName, boolean> = {
    profile: facts.profileComplete,
    mfa: facts.secondFactor,
    profile_questions: facts.answered,
    health_record: facts.hasOwnRecord,
  };
  const names: readonly WizardStepName[] = facts.staff ? STAFF_STEPS : WIZARD_STEPS;
  const steps = names.map((step) => ({ step, done: byFact[step] || marked.has(step) }));
  return { steps, complete: steps.every((s) => s.done) };
}
