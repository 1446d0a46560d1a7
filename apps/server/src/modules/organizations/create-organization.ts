import { DEFAULT_PRIMARY_COLOR, type NewOrganization } from '@healthbook/shared';
import type { ServiceContext } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { FieldError } from '../../lib/http-errors';
import type { AuditLog } from '../audit/audit.service';
import { OrganizationsRepository, type OrganizationRow } from './organizations.repository';

/**
 * Makes an organisation (the operator's create-organisation command; reusable by the super
 * admins' organisations page). The client id was checked by the shared rule
 * (validateNewClientId); its uniqueness is the database's: a taken one is a 400 on `client_id`,
 * nothing written. Audited as `organization_create` in the new organisation's trail. Pass the
 * transaction as `db` to make more in the same one (its first administrator).
 */
export async function createOrganization(
  db: Db,
  audit: AuditLog,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  input: NewOrganization,
  opts: { via: string },
): Promise<OrganizationRow> {
  const name = input.org_name;
  const repo = new OrganizationsRepository(db);
  let id: number;
  try {
    id = await repo.create({
      name: input.client_id,
      org_name: name,
      org_short_name: input.org_short_name ?? name.slice(0, 30).trim(),
      primary_color: input.primary_color ?? DEFAULT_PRIMARY_COLOR,
    });
  } catch (err) {
    if (isUniqueViolation(err, 'organizations_name_key')) throw new FieldError({ client_id: ['validation:clientIdTaken'] });
    throw err;
  }
  await audit.record(ctx, { action: 'organization_create', outcome: 'success', orgId: id, subject: `org:${input.client_id}`, detail: { via: opts.via } }, db);
  return (await repo.findById(id))!;
}
