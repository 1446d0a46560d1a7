import type { Wizard, WizardStepName } from '@healthbook/shared';
import { ownScope, type SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { translate } from '@healthbook/shared';
import type { ProfileService } from '../profile/profile.service';
import { UsersRepository, type UserView } from '../users/users.repository';
import { servicePlugin } from '../../lib/service-plugin';

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
  constructor(
    private readonly db: Db,
    private readonly profile: ProfileService,
  ) {}

  get(ctx: SignedInContext): Promise<Wizard> {
    return this.build(ctx, ctx.actor.user);
  }

  async markDone(ctx: SignedInContext, step: WizardStepName): Promise<Wizard> {
    const steps = await new UsersRepository(this.db, ownScope(ctx)).addWizardStep(ctx.actor.userId, step);
    return this.build(ctx, { ...ctx.actor.user, wizard_steps: steps });
  }

  private async build(ctx: SignedInContext, user: UserView): Promise<Wizard> {
    const marked = new Set(user.wizard_steps);
    const done: Record<WizardStepName, boolean> = {
      profile: marked.has('profile') || Boolean(user.first_name && user.last_name && user.dob && user.phone_number),
      mfa: marked.has('mfa') || user.mfa_devices.length > 0,
      profile_questions: marked.has('profile_questions') || (await this.profile.hasAnswers(ctx)),
      health_record: marked.has('health_record'),
    };
    let complete = user.wizard_complete;
    if (!complete && WIZARD_STEPS.every((s) => done[s])) {
      await new UsersRepository(this.db, ownScope(ctx)).markWizardComplete(user.id);
      complete = true;
    }
    return {
      status: wizardStatus({ ...user, wizard_complete: complete }),
      steps: WIZARD_STEPS.map((s) => ({ model_name: s, title: translate(ctx.lang, `wizard:${s}`), completed: done[s] })),
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    wizard: WizardService;
  }
}

export default servicePlugin('wizard', ['db', 'profile-service'], (app) => new WizardService(app.db, app.profile));
