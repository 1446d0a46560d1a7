import type { AuthContext } from '../../plugins/auth';

/** Who asks: the parts of request.auth a decision needs. */
export type UserActor = Pick<AuthContext, 'userId' | 'orgId' | 'roles' | 'isSuperadmin'>;

/** What is asked about: a user record (its id and organisation). */
export interface UserResource {
  id: number;
  org_id: number;
}

export type UserAction = 'read' | 'update';

/**
 * Who may read or change a user record: the user; an organisation admin, for users of their own
 * organisation; a super admin, for anyone. Everyone else is told the record does not exist.
 * (Avatar upload, password change, profile answers and the wizard act on oneself only.)
 */
export function can(actor: UserActor, action: UserAction, resource: UserResource): boolean {
  switch (action) {
    case 'read':
    case 'update':
      if (actor.userId === resource.id) return true;
      if (actor.isSuperadmin) return true;
      return actor.roles.includes('org_admin') && actor.orgId === resource.org_id;
  }
}

/** Reading or changing someone else's record is health-data access and goes to the audit trail. */
export const isOnBehalfOfAnother = (actor: UserActor, resource: UserResource) => actor.userId !== resource.id;
