import type { Actor } from '../../context';

/** Who asks: the parts of the actor a decision needs. */
export type UserActor = Pick<Actor, 'userId' | 'orgId' | 'roles' | 'isSuperadmin'>;

/** What is asked about: a user record (its id, organisation and standing). */
export interface UserResource {
  id: number;
  org_id: number;
  roles: readonly string[];
  is_superadmin: boolean;
}

export type UserAction = 'read' | 'update';

export const isAdministrator = (actor: Pick<UserActor, 'roles' | 'isSuperadmin'>) => actor.isSuperadmin || actor.roles.includes('org_admin');

/**
 * Who may read or change a user record: the user; a super admin, anyone; an organisation
 * admin, the members of their own organisation who administer nothing (not another admin, not
 * a super admin). Everyone else is told the record does not exist.
 * (Avatar upload, password and e-mail changes, profile answers and the wizard act on oneself only.)
 */
export function can(actor: UserActor, action: UserAction, resource: UserResource): boolean {
  switch (action) {
    case 'read':
    case 'update':
      if (actor.userId === resource.id) return true;
      if (actor.isSuperadmin) return true;
      return (
        actor.roles.includes('org_admin') &&
        actor.orgId === resource.org_id &&
        !resource.is_superadmin &&
        !resource.roles.includes('org_admin')
      );
  }
}

/** Reading or changing someone else's record is health-data access and goes to the audit trail. */
export const isOnBehalfOfAnother = (actor: UserActor, resource: Pick<UserResource, 'id'>) => actor.userId !== resource.id;
