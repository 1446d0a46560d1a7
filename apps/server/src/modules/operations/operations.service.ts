import type { OperationsQuery, OperationsSummary } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import type { FeaturesService } from '../features/features.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { OperationsRepository } from './operations.repository';

/** The super admin's operations dashboard: figures per organisation and period, from real activity. */
export class OperationsService {
  constructor(
    private readonly db: Db,
    private readonly organizations: OrganizationsService,
    private readonly features: FeaturesService,
    private readonly audit: AuditLog,
  ) {}

  async summary(ctx: SignedInContext, query: OperationsQuery): Promise<OperationsSummary> {
    if (!ctx.actor.isSuperadmin) {
      await this.audit.record(ctx, { action: 'operations_read', outcome: 'denied', orgId: query.organization_id, detail: { reason: 'not_superadmin' } });
      throw new HttpError(403, 'errors:permissionDenied');
    }
    const org = await this.organizations.findById(query.organization_id);
    if (!org) throw notFound();
    const repo = new OperationsRepository(this.db, orgScope(org.id));
    const period = { from: query.from, to: query.to, tz: query.tz };
    const [accounts, last7, last30, daily, invitations, usage] = await Promise.all([
      repo.accounts(),
      repo.activeUsers(period, 7),
      repo.activeUsers(period, 30),
      repo.dailySignIns(period),
      repo.invitations(period),
      repo.featureUsage(period),
    ]);
    await this.audit.record(ctx, { action: 'operations_read', outcome: 'success', orgId: org.id, detail: { from: query.from, to: query.to } });
    return {
      organization: { id: org.id, name: org.name, org_name: org.org_name },
      period,
      patients: accounts.patients,
      users: accounts.users,
      active_users: { last_7_days: last7, last_30_days: last30 },
      daily,
      second_factor: {
        users_with: accounts.withSecondFactor,
        users: accounts.users,
        share: accounts.users ? Math.round((accounts.withSecondFactor / accounts.users) * 1000) / 1000 : 0,
      },
      invitations,
      feature_usage: usage.map((u) => ({
        feature_id: u.feature_id,
        key: this.features.keyOf(u.feature_id) ?? String(u.feature_id),
        display_name: this.features.displayName(u.feature_id, ctx.lang),
        uses: u.uses,
      })),
    };
  }
}

/** A field for CSV: quoted when it holds a separator, a quote or a line break; formulas neutralised. */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The same figures as a tidy CSV: one value per row (metric, date, feature, value). */
export function summaryToCsv(s: OperationsSummary): string {
  const rows: Array<Array<string | number>> = [['organization', 'metric', 'date', 'feature', 'value']];
  const org = s.organization.name;
  const add = (metric: string, value: number, date = '', feature = '') => rows.push([org, metric, date, feature, value]);
  add('patients', s.patients);
  add('users', s.users);
  add('active_users_7_days', s.active_users.last_7_days);
  add('active_users_30_days', s.active_users.last_30_days);
  add('second_factor_users', s.second_factor.users_with);
  add('second_factor_share', s.second_factor.share);
  add('invitations_pending', s.invitations.pending);
  add('invitations_used', s.invitations.used);
  add('invitations_expired', s.invitations.expired);
  for (const d of s.daily) {
    add('sign_ins', d.sign_ins, d.date);
    add('failed_sign_ins', d.failed_sign_ins, d.date);
    add('lockouts', d.lockouts, d.date);
  }
  for (const f of s.feature_usage) add('feature_uses', f.uses, '', f.key);
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

declare module 'fastify' {
  interface FastifyInstance {
    operations: OperationsService;
  }
}

export default servicePlugin(
  'operations',
  ['db', 'organizations-service', 'features-service', 'audit-service'],
  (app) => new OperationsService(app.db, app.organizations, app.features, app.audit),
);
