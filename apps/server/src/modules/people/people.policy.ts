import type { Actor } from '../../context';

export type PeopleActor = Pick<Actor, 'userId' | 'orgId' | 'roles' | 'isSuperadmin'>;
export type PeopleAction = 'list' | 'invite' | 'roles' | 'deactivate' | 'reactivate' | 'unlock' | 'reset_mfa' | 'resend' | 'import';

/** Answers why the actor may not, or null when they may. */
export type Refusal = { status: 403 | 404 | 409; reason: string; detail: string } | null;

const denied = (reason: string, detail = 'errors:permissionDenied'): Refusal => ({ status: 403, reason, detail });
const hidden = (reason: string): Refusal => ({ status: 404, reason, detail: 'errors:notFound' });

/** Administrators of the organisation (its org admins) and super admins (any organisation). */
export const isPeopleAdmin = (actor: Pick<PeopleActor, 'roles' | 'isSuperadmin'>) => actor.isSuperadmin || actor.roles.includes('org_admin');

/** May the actor manage the people of this organisation? Another organisation's: 404 (nothing said about it). */
export function canReachOrg(actor: PeopleActor, orgId: number): Refusal {
  if (!isPeopleAdmin(actor)) return denied('not_admin');
  if (!actor.isSuperadmin && actor.orgId !== orgId) return hidden('other_org');
  return null;
}

/**
 * May the actor act on this account? Not on themselves (their own roles and standing are
 * another administrator's to change), an organisation admin never on a super admin, and only a
 * super admin makes someone a super admin.
 */
export function canChange(
  actor: PeopleActor,
  action: PeopleAction,
  target: { id: number; org_id: number; is_superadmin: boolean },
  change: { makeSuperadmin?: boolean } = {},
): Refusal {
  const reach = canReachOrg(actor, target.org_id);
  if (reach) return reach;
  if ((action === 'roles' || action === 'deactivate') && actor.userId === target.id) return denied('self', 'errors:peopleOwnRoles');
  if (!actor.isSuperadmin && target.is_superadmin && action !== 'resend') return denied('superadmin_target');
  if (change.makeSuperadmin && !actor.isSuperadmin) return denied('make_superadmin', 'errors:peopleSuperadminOnly');
  return null;
}

/** The roles stored for the roles chosen: provider and coach are professionals (and only they: "professional" is never chosen, only derived). */
export function storedRoles(chosen: readonly string[]): string[] {
  const roles = new Set(chosen);
  roles.delete('professional');
  if (roles.has('provider') || roles.has('coach')) roles.add('professional');
  return ['patient', 'professional', 'provider', 'coach', 'org_admin'].filter((r) => roles.has(r));
}
