import type { Actor } from '../../context';

export type OrganizationAdminAction = 'list' | 'read' | 'create' | 'update' | 'deactivate';

/** The organisations themselves (create, rename, brand, deactivate): super admins only. */
export function canAdministerOrganizations(actor: Pick<Actor, 'isSuperadmin'>, _action: OrganizationAdminAction): boolean {
  return actor.isSuperadmin;
}
