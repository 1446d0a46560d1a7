import type { FastifyRequest } from 'fastify';
import type { Wizard, WizardStepName } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { ProfileRepository } from '../profile/profile.repository';
import { UsersRepository, type UserView } from '../users/users.repository';

/** The first-run wizard's steps, in order. */
export const WIZARD_STEPS = ['profile', 'mfa', 'profile_questions', 'health_record'] as const satisfies readonly WizardStepName[];

/** The spec's rule: completed if wizard_complete, else minimized if the setting says so, else pending. */
export function wizardStatus(user: Pick<UserView, 'wizard_complete' | 'settings'>): Wizard['status'] {
  if (user.wizard_complete) return 'completed';
  return (user.settings as { isWizardMinimized?: unknown }).isWizardMinimized === true ? 'minimized' : 'pending';
}

/**
 * Each step is done when the user has done what it asks, or has marked it done (POST):
 * profile: first and last name, date of birth and phone number; mfa: a confirmed second factor;
 * profile_questions: any answer; health_record: marked done (records come later).
 * When all four are done the wizard is complete for good (users.wizard_complete).
 */
export class WizardService {
  private readonly users: UsersRepository;
  private readonly profile: ProfileRepository;

  constructor(db: Db) {
    this.users = new UsersRepository(db);
    this.profile = new ProfileRepository(db);
  }

  async get(request: FastifyRequest): Promise<Wizard> {
    return this.build(request, request.auth!.user);
  }

  async markDone(request: FastifyRequest, step: WizardStepName): Promise<Wizard> {
    const user = request.auth!.user;
    const steps = await this.users.addWizardStep(user.org_id, user.id, step);
    return this.build(request, { ...user, wizard_steps: steps });
  }

  private async build(request: FastifyRequest, user: UserView): Promise<Wizard> {
    const marked = new Set(user.wizard_steps);
    const done: Record<WizardStepName, boolean> = {
      profile: marked.has('profile') || Boolean(user.first_name && user.last_name && user.dob && user.phone_number),
      mfa: marked.has('mfa') || user.mfa_devices.length > 0,
      profile_questions: marked.has('profile_questions') || (await this.profile.hasAnswers(user.org_id, user.id)),
      health_record: marked.has('health_record'),
    };
    let complete = user.wizard_complete;
    if (!complete && WIZARD_STEPS.every((s) => done[s])) {
      await this.users.markWizardComplete(user.org_id, user.id);
      complete = true;
    }
    return {
      status: wizardStatus({ ...user, wizard_complete: complete }),
      steps: WIZARD_STEPS.map((s) => ({ model_name: s, title: request.t(`wizard:${s}`), completed: done[s] })),
    };
  }
}
