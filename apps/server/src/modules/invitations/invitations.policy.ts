import type { Actor } from '../../context';
import { isAdministrator } from '../users/users.policy';

export type InvitationAction = 'create' | 'list';
export type InvitationActor = Pick<Actor, 'orgId' | 'roles' | 'isSuperadmin'>;

export { isAdministrator };

/**
 * Who may invite patients into an organisation and see its invitations: that organisation's
 * administrators, and super administrators for any organisation.
 */
export function can(actor: InvitationActor, _action: InvitationAction, org: { id: number }): boolean {
  if (actor.isSuperadmin) return true;
  return actor.roles.includes('org_admin') && actor.orgId === org.id;
}
