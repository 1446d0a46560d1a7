import type { AuditAction } from '@healthbook/shared';
import {
  type CopyRecordsBody,
  type CopyRecordsResult,
  type CreateLinkBody,
  type LinkedAccount,
  type LoginAnswer,
  type SwitchToken,
} from '@healthbook/shared';
import { CopyRecordsBodySchema } from '@healthbook/shared';
import type { Actor, ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { randomToken, sha256 } from '../../lib/crypto';
import { HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { FeaturesService } from '../features/features.service';
import type { FhirService } from '../fhir/fhir.service';
import { assetUrl } from '../organizations/organizations.presenter';
import type { OrganizationsService } from '../organizations/organizations.service';
import { UsersRepository, type UserRecord } from '../users/users.repository';
import { AccountLinksRepository, LinkTokensRepository, type AccountScope, type LinkRow } from './connection-hub.repository';

/** A switch token lives this long (seconds). */
export const SWITCH_TOKEN_TTL_S = 60;
const FEATURE = 'connection-hub';

/** What the routes need to answer a switch: the sign-in answer, and the device cookie to set when the device had none. */
export type SwitchAnswer = LoginAnswer & { access_level: 'full' | 'limited'; newDevice: string | null };

const accountOf = (actor: Pick<Actor, 'userId' | 'orgId'>): AccountScope => ({ userId: actor.userId, orgId: actor.orgId });

/**
 * The connection hub: links between one person's accounts in different organisations.
 *
 * - Linking signs in to the other account without opening a session, through the sign-in's own
 *   checks (AuthService.checkCredentials: throttled per account, the same 401 whether the
 *   account exists or not; checkSecondFactor: the other account's second factor, e-mailed codes
 *   bound to the account linking). The same organisation is refused (400), a second link with
 *   the same account too (409). The browser that linked is remembered as having passed both
 *   accounts' second factors.
 * - Switching: a single-use token of 60 seconds (stored hashed), exchanged once at the public
 *   POST /api/v1/auth/linked/ for the other account's sign-in answer: full, or limited when that
 *   account has a second factor this device has not passed (the ordinary verification page
 *   then completes it). The session the token was asked from ends.
 * - Copying records: the FHIR export of one account's own patient (never private records),
 *   imported into the other's (duplicates known by their source), each side acting as itself.
 * - Unlinking deletes the one row both sides read: gone for both at once.
 * Everything is audited in both organisations; refusals too.
 */
export class ConnectionHubService {
  private readonly tokens: LinkTokensRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: { auth: AuthService; audit: AuditLog; organizations: OrganizationsService; features: FeaturesService; fhir: FhirService },
  ) {
    this.tokens = new LinkTokensRepository(db);
  }

  private links(ctx: SignedInContext) {
    return new AccountLinksRepository(this.db, accountOf(ctx.actor));
  }

  private async present(row: LinkRow): Promise<LinkedAccount> {
    const org = await this.deps.organizations.findById(row.other_org_id);
    return {
      id: row.id,
      organization: { client_id: org?.name ?? '', name: org?.org_name ?? '', logo: org ? assetUrl(org, 'logo') : null },
      name: `${row.other_first_name} ${row.other_last_name}`.trim(),
      email: row.other_email,
      linked_at: row.created_at.toISOString(),
    };
  }

  /** Audits one event in both accounts' organisations (each trail names its own account as the actor). */
  private async auditBoth(ctx: ServiceContext, action: AuditAction, outcome: 'success' | 'denied' | 'failure', here: AccountScope, there: AccountScope, detail: Record<string, string | number | boolean | null> = {}) {
    await this.deps.audit.record(ctx, { action, outcome, orgId: here.orgId, actorUserId: here.userId, subject: `user:${there.userId}`, detail: { ...detail, side: 'from' } });
    await this.deps.audit.record(ctx, { action, outcome, orgId: there.orgId, actorUserId: there.userId, subject: `user:${here.userId}`, detail: { ...detail, side: 'to' } });
  }

  async list(ctx: SignedInContext): Promise<LinkedAccount[]> {
    return Promise.all((await this.links(ctx).list()).map((row) => this.present(row)));
  }

  /**
   * Links the actor's account with another organisation's account whose password (and second
   * factor) the actor gives. Answers the link, and whether the device was confirmed now.
   */
  async link(ctx: SignedInContext, body: CreateLinkBody, device: string | null): Promise<{ link: LinkedAccount; newDevice: string | null }> {
    const here = accountOf(ctx.actor);
    const org = await this.deps.organizations.resolve(body.client_id);
    if (org && org.id === here.orgId) {
      await this.deps.audit.record(ctx, { action: 'account_link', outcome: 'denied', detail: { reason: 'same_organization' } });
      throw new HttpError(400, 'errors:linkSameOrganization');
    }
    if (org && (await this.deps.features.statusOf(org.id, FEATURE)) !== 'active') {
      await this.deps.audit.record(ctx, { action: 'account_link', outcome: 'denied', detail: { reason: 'not_offered', organization: org.name } });
      throw new HttpError(403, 'errors:linkNotOffered', { organization: org.org_name });
    }
    // The sign-in's checks, to the letter: throttled, the same 401 for any wrong answer.
    const other = await this.deps.auth.checkCredentials(ctx, { email: body.email, password: body.password, org: org?.id ?? body.client_id }, 'account_link').catch(async (error: unknown) => {
      await this.deps.audit.record(ctx, { action: 'account_link', outcome: 'failure', detail: { reason: 'credentials' } });
      throw error;
    });
    const there = { userId: other.id, orgId: other.org_id };
    await this.deps.auth.checkSecondFactor(ctx, other, { linkFrom: here.userId }, body.code);

    const repo = this.links(ctx);
    const created = await repo.insert(there);
    if (!created) {
      await this.auditBoth(ctx, 'account_link', 'denied', here, there, { reason: 'already_linked' });
      throw new HttpError(409, 'errors:linkExists');
    }
    await this.auditBoth(ctx, 'account_link', 'success', here, there, { link: created.id });

    // This browser has now passed both accounts' second factors: switching here asks for none.
    const newDevice = device ? null : randomToken();
    const deviceHash = sha256((device ?? newDevice)!);
    for (const account of [here, there]) await this.tokens.rememberDevice(deviceHash, account);
    return { link: await this.present((await repo.find(created.id))!), newDevice };
  }

  /** A single-use token to switch to the other account of a link (60 s). */
  async switchToken(ctx: SignedInContext, id: number): Promise<SwitchToken> {
    const repo = this.links(ctx);
    const link = await repo.find(id);
    if (!link) {
      await this.deps.audit.record(ctx, { action: 'account_switch', outcome: 'denied', subject: `link:${id}`, detail: { reason: 'not_found' } });
      throw notFound();
    }
    const org = await this.deps.organizations.findById(link.other_org_id);
    if (!org || (await this.deps.features.statusOf(org.id, FEATURE)) !== 'active') {
      await this.deps.audit.record(ctx, { action: 'account_switch', outcome: 'denied', subject: `user:${link.other_user_id}`, detail: { reason: 'not_offered' } });
      throw new HttpError(403, 'errors:linkNotOffered', { organization: org?.org_name ?? '' });
    }
    // Nobody signs in to a deactivated organisation, by a link either: refused here, before the current session would end.
    await this.deps.organizations.requireActive(org, 'errors:organizationDeactivated');
    const token = randomToken();
    await repo.insertToken(link, sha256(token), ctx.actor.sessionId, SWITCH_TOKEN_TTL_S);
    await this.deps.audit.record(ctx, { action: 'account_switch_token', outcome: 'success', subject: `user:${link.other_user_id}`, detail: { link: link.id } });
    return { token, client_id: org.name, expires_in: SWITCH_TOKEN_TTL_S };
  }

  /**
   * POST /api/v1/auth/linked/: a switch token for the other account's sign-in answer. Used,
   * expired or unknown: 401, audited. The session the token was asked from ends.
   */
  async signInLinked(ctx: ServiceContext, token: string, device: string | null, userAgent: string | undefined): Promise<SwitchAnswer> {
    const hash = sha256(token);
    const used = await this.tokens.consume(hash);
    if (!used) {
      const why = await this.tokens.whyNot(hash);
      await this.deps.audit.record(ctx, {
        action: 'account_switch',
        outcome: 'denied',
        orgId: why?.to_org_id ?? null,
        actorUserId: null,
        subject: why ? `user:${why.to_user_id}` : null,
        detail: { reason: why?.reason ?? 'unknown' },
      });
      throw new HttpError(401, 'errors:linkTokenInvalid');
    }
    const user = await new UsersRepository(this.db, orgScope(used.to_org_id)).findById(used.to_user_id);
    if (!user?.is_active || !user.email_confirmed_at) {
      await this.deps.audit.record(ctx, { action: 'account_switch', outcome: 'denied', orgId: used.to_org_id, actorUserId: null, subject: `user:${used.to_user_id}`, detail: { reason: 'inactive' } });
      throw new HttpError(401, 'errors:linkTokenInvalid');
    }
    // Deactivated since the token was given: refused before any session opens or ends.
    await this.deps.organizations.requireActive(used.to_org_id, 'errors:organizationDeactivated');
    const from = (await this.fromAccount(used.from_user_id)) ?? { userId: used.from_user_id, orgId: used.to_org_id };
    const there = { userId: user.id, orgId: user.org_id };

    const confirmed = user.mfa_devices.length === 0 || (device !== null && (await this.tokens.deviceConfirmed(sha256(device), user.id)));
    const answer = await this.deps.auth.openSession(ctx, user, { userAgent, secondFactorDone: confirmed, via: 'account_link' });
    let newDevice: string | null = null;
    if (answer.access_level === 'limited') {
      // Passing the second factor in this session confirms the device for next time.
      newDevice = device ? null : randomToken();
      await this.tokens.rememberDevice(sha256((device ?? newDevice)!), there, answer.session_id);
    }
    if (used.from_session_id) await this.deps.auth.endSession(used.from_session_id, 'switched');
    await this.auditBoth(ctx, 'account_switch', 'success', from, there, { link: used.link_id, access: answer.access_level });
    const { session_id: _sid, ...rest } = answer;
    return { ...rest, newDevice };
  }

  private async fromAccount(userId: number): Promise<AccountScope | undefined> {
    const orgId = await this.deps.auth.orgOfUser(userId);
    return orgId === undefined ? undefined : { userId, orgId };
  }

  /** Unlinks: the row both sides read is gone, with its switch tokens. */
  async unlink(ctx: SignedInContext, id: number): Promise<void> {
    const removed = await this.links(ctx).remove(id);
    if (!removed) {
      await this.deps.audit.record(ctx, { action: 'account_unlink', outcome: 'denied', subject: `link:${id}`, detail: { reason: 'not_found' } });
      throw notFound();
    }
    const here = accountOf(ctx.actor);
    const there = removed.user_a === here.userId ? { userId: removed.user_b, orgId: removed.org_b } : { userId: removed.user_a, orgId: removed.org_a };
    await this.auditBoth(ctx, 'account_unlink', 'success', here, there, { link: id });
  }

  /**
   * Copies records between the two accounts' own records: the FHIR export of the one (its own
   * patient, never private records, no survey results), imported into the other's. Each side
   * acts as itself, so each organisation's trail records its export or import. Records copied
   * before are known again by their source and not added twice.
   */
  async copy(ctx: SignedInContext, id: number, input: CopyRecordsBody): Promise<CopyRecordsResult> {
    const body = CopyRecordsBodySchema.parse(input);
    const link = await this.links(ctx).find(id);
    if (!link) {
      await this.deps.audit.record(ctx, { action: 'account_link_copy', outcome: 'denied', subject: `link:${id}`, detail: { reason: 'not_found' } });
      throw notFound();
    }
    const otherUser = await new UsersRepository(this.db, orgScope(link.other_org_id)).findById(link.other_user_id);
    if (!otherUser) throw notFound();
    // Both sides act on their own record (never on a record this session is viewing for someone else).
    const here: SignedInContext = { ...ctx, viewing: undefined };
    const there: SignedInContext = { ...ctx, viewing: undefined, actor: actorFor(otherUser, ctx.actor.sessionId) };
    const [source, target] = body.direction === 'from-here' ? [here, there] : [there, here];
    for (const side of [source, target]) {
      const status = await this.deps.features.statusOf(side.actor.orgId, 'health-records');
      if (status !== 'active') throw new HttpError(403, status === 'disabled' ? 'errors:featureDisabled' : 'errors:featureInactive');
    }

    const exported = await this.deps.fhir.export(source, { types: body.categories?.join(','), include_private: 'false', assessments: 'false' });
    const bundle = JSON.parse(exported.json) as { entry?: Array<{ resource?: { resourceType?: string; identifier?: Array<{ value?: string }> } }> };
    if (body.records?.length) {
      const wanted = new Set(body.records);
      // The first identifier of each exported record is its own: "<origin>/<record id>".
      bundle.entry = (bundle.entry ?? []).filter((e) => e.resource?.resourceType === 'Patient' || wanted.has(Number(e.resource?.identifier?.[0]?.value?.split('/').pop())));
    }
    const records = (bundle.entry ?? []).filter((e) => e.resource?.resourceType !== 'Patient').length;
    let result = { imported: 0, duplicates: 0 };
    if (records > 0) {
      const preview = await this.deps.fhir.import(target, { bundle: bundle as Record<string, unknown> });
      const accept = preview.items.filter((i) => i.status === 'new').map((i) => i.key);
      result = accept.length ? await this.deps.fhir.import(target, { bundle: bundle as Record<string, unknown>, accept }) : preview;
    }
    const answer: CopyRecordsResult = { direction: body.direction, copied: result.imported, duplicates: result.duplicates, skipped: records - result.imported - result.duplicates };
    await this.auditBoth(ctx, 'account_link_copy', 'success', accountOf(ctx.actor), accountOf(there.actor), { link: link.id, direction: body.direction, copied: answer.copied, duplicates: answer.duplicates, skipped: answer.skipped });
    return answer;
  }
}

/**
 * The other account as an actor, for the copy only: acting on its own record, with no powers
 * beyond a patient's own (never a super admin's), under the session that asked.
 */
function actorFor(user: UserRecord, sessionId: string): Actor {
  return {
    userId: user.id,
    orgId: user.org_id,
    access: 'full',
    roles: ['patient'],
    isSuperadmin: false,
    sessionId,
    user: { ...user, session_access: 'full', own_patient: null },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    connectionHub: ConnectionHubService;
  }
}

export default servicePlugin(
  'connectionHub',
  ['db', 'auth-service', 'audit-service', 'organizations-service', 'features-service', 'fhir-service'],
  (app) => new ConnectionHubService(app.db, { auth: app.auth, audit: app.audit, organizations: app.organizations, features: app.features, fhir: app.fhir }),
);
