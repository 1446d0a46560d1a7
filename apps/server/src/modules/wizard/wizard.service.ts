import type { Wizard, WizardStepName } from '@healthbook/shared';
import { CHAT_PROVIDER_TYPES, translate } from '@healthbook/shared';
import { ownScope, type SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import type { ProfileService } from '../profile/profile.service';
import type { RecordsService } from '../records/records.service';
import { UsersRepository, type UserView } from '../users/users.repository';
import { servicePlugin } from '../../lib/service-plugin';
import { wizardChecklist } from './wizard.rules';

export { WIZARD_STEPS } from './wizard.rules';

/** The spec's rule: completed if wizard_complete, else minimized if the setting says so, else pending. */
export function wizardStatus(user: Pick<UserView, 'wizard_complete' | 'settings'>): Wizard['status'] {
  if (user.wizard_complete) return 'completed';
  return (user.settings as { isWizardMinimized?: unknown }).isWizardMinimized === true ? 'minimized' : 'pending';
}

/** Staff: a provider, a peer coach, an organisation admin or a super admin. */
const isStaff = (ctx: SignedInContext) =>
  ctx.actor.isSuperadmin || ctx.actor.roles.includes('org_admin') || CHAT_PROVIDER_TYPES.some((role) => ctx.actor.roles.includes(role));

/**
 * The first-run wizard of the signed-in user: always their own account and record, whatever
 * record the client is viewing (a carer sees their own checklist). Which steps there are and
 * when each is done is wizard.rules.ts; this gathers the facts. When all are done the wizard is
 * complete for good (users.wizard_complete).
 */
export class WizardService {
  constructor(
    private readonly db: Db,
    private readonly profile: ProfileService,
    private readonly records: RecordsService,
  ) {}

  get(ctx: SignedInContext): Promise<Wizard> {
    return this.build(ctx, ctx.actor.user);
  }

  async markDone(ctx: SignedInContext, step: WizardStepName): Promise<Wizard> {
    const steps = await new UsersRepository(this.db, ownScope(ctx)).addWizardStep(ctx.actor.userId, step);
    return this.build(ctx, { ...ctx.actor.user, wizard_steps: steps });
  }

  private async build(ctx: SignedInContext, user: UserView): Promise<Wizard> {
    const staff = isStaff(ctx);
    const [answered, hasOwnRecord] = await Promise.all([
      this.profile.hasAnswers(ctx),
      staff ? Promise.resolve(false) : this.records.ownHasAny(ctx),
    ]);
    const checklist = wizardChecklist({
      staff,
      profileComplete: Boolean(user.first_name && user.last_name && user.dob && user.phone_number),
      secondFactor: user.mfa_devices.length > 0,
      answered,
      hasOwnRecord,
      marked: user.wizard_steps,
    });
    let complete = user.wizard_complete;
    if (!complete && checklist.complete) {
      await new UsersRepository(this.db, ownScope(ctx)).markWizardComplete(user.id);
      complete = true;
    }
    return {
      status: wizardStatus({ ...user, wizard_complete: complete }),
      steps: checklist.steps.map(({ step, done }) => ({ model_name: step, title: translate(ctx.lang, `wizard:${step}`), completed: done })),
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    wizard: WizardService;
  }
}

export default servicePlugin('wizard', ['db', 'profile-service', 'records-service'], (app) => new WizardService(app.db, app.profile, app.records));
