import { describe, expect, it } from 'vitest';
import { wizardChecklist, type WizardFacts } from './wizard.rules';

const nothing: WizardFacts = { staff: false, profileComplete: false, secondFactor: false, answered: false, hasOwnRecord: false, marked: [] };
const done = (facts: Partial<WizardFacts>) => Object.fromEntries(wizardChecklist({ ...nothing, ...facts }).steps.map((s) => [s.step, s.done]));

describe('wizardChecklist', () => {
  it('starts with a patient’s four steps, none done', () => {
    expect(wizardChecklist(nothing)).toEqual({
      steps: [
        { step: 'profile', done: false },
        { step: 'mfa', done: false },
        { step: 'profile_questions', done: false },
        { step: 'health_record', done: false },
      ],
      complete: false,
    });
  });

  it('ticks "Add your first health record" once the own record holds one, marked or not', () => {
    expect(done({ hasOwnRecord: true }).health_record).toBe(true);
    expect(done({ marked: ['health_record'] }).health_record).toBe(true);
    expect(done({ hasOwnRecord: false }).health_record).toBe(false);
  });

  it('counts each step by its own fact or its mark', () => {
    expect(done({ profileComplete: true, secondFactor: true })).toEqual({ profile: true, mfa: true, profile_questions: false, health_record: false });
    expect(done({ answered: true, marked: ['profile'] })).toEqual({ profile: true, mfa: false, profile_questions: true, health_record: false });
  });

  it('is complete when every step is done', () => {
    expect(wizardChecklist({ ...nothing, profileComplete: true, secondFactor: true, answered: true, hasOwnRecord: true }).complete).toBe(true);
    expect(wizardChecklist({ ...nothing, profileComplete: true, secondFactor: true, answered: true }).complete).toBe(false);
  });

  it('gives staff the steps of their account only: no first record, no health questions', () => {
    const staff = wizardChecklist({ ...nothing, staff: true, profileComplete: true });
    expect(staff.steps.map((s) => s.step)).toEqual(['profile', 'mfa']);
    expect(staff.complete).toBe(false);
    expect(wizardChecklist({ ...nothing, staff: true, profileComplete: true, secondFactor: true }).complete).toBe(true);
  });
});
