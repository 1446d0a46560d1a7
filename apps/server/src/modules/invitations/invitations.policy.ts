import type { AuthContext } from '../../plugins/auth';

export type InvitationAction = 'create' | 'list';
export type InvitationActor = Pick<AuthContext, 'orgId' | 'roles' | 'isSuperadmin'>;

/**
 * Who may invite patients into an organisation and see its invitations: that organisation's
 * administrators, and super administrators for any organisation.
 */
export function can(actor: InvitationActor, _action: InvitationAction, org: { id: number }): boolean {
  if (actor.isSuperadmin) return true;
  return actor.roles.includes('org_admin') && actor.orgId === org.id;
}

/** Whether the actor administers anything at all (decides 403 versus "no such organisation"). */
export function isAdministrator(actor: InvitationActor): boolean {
  return actor.isSuperadmin || actor.roles.includes('org_admin');
}
