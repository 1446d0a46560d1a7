import type { Actor } from '../../context';

/**
 * Who may change an organisation's features and settings: its administrators, and super
 * administrators for any organisation.
 */
export function canManageOrganization(actor: Pick<Actor, 'orgId' | 'roles' | 'isSuperadmin'>, orgId: number): boolean {
  return actor.isSuperadmin || (actor.roles.includes('org_admin') && actor.orgId === orgId);
}

/** Whether the actor belongs to the organisation (or, for a super admin, may act in any). */
export const reachesOrganization = (actor: Pick<Actor, 'orgId' | 'isSuperadmin'>, orgId: number) => actor.isSuperadmin || actor.orgId === orgId;
