import { randomBytes } from 'node:crypto';
import { ACCOUNT_CLOSING_GRACE_DAYS, formatDay, translate, type ClosingPreview, type CloseAccountBody, type PendingClosing } from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { HttpError, notFound } from '../../lib/http-errors';
import { recipientLanguage, renderMail } from '../../lib/mail-templates';
import { servicePlugin } from '../../lib/service-plugin';
import type { BackgroundMail } from '../../plugins/mail';
import type { Storage } from '../../plugins/storage';
import type { AppointmentsService } from '../appointments/appointments.service';
import type { AuditLog } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import { SessionsRepository } from '../auth/sessions.repository';
import { endLinksOf } from '../connection-hub/link-ends';
import { mailTarget } from '../users/users.presenter';
import { UsersRepository, type UserView } from '../users/users.repository';
import { isAdministrator } from '../users/users.policy';
import { AccountClosingRepository, claimDueClosings, countStep, eraseAccount, eraseStep, markErased, pseudonymiseAudit, sharesOf, type ClosingRow } from './account-closing.repository';
import { ERASURE_PLAN, uncoveredPatientTables } from './erasure-plan';

export interface AccountClosingDeps {
  db: Db;
  audit: AuditLog;
  auth: AuthService;
  background: BackgroundMail;
  storage: Storage;
  appointments: AppointmentsService;
  publicUrl: string;
}

/** What one erasure did: rows per table, files removed, and what could not be removed (should be nothing). */
export interface ErasureSummary {
  closingId: number;
  rows: Record<string, number>;
  files: number;
  filesFailed: number;
  appointmentsCancelled: number;
  auditRowsPseudonymised: number;
  ms: number;
}

/** Only patients close their own account here: a staff account is ended by an administrator. */
const isStaff = (user: Pick<UserView, 'roles' | 'is_superadmin'>) => user.is_superadmin || user.roles.some((role) => role !== 'patient');

/**
 * A patient's right to leave (issue 25 §4). Closing asks for the password (or a second
 * factor's code) again, ends every session, and starts ACCOUNT_CLOSING_GRACE_DAYS in which
 * signing in again cancels it (both e-mailed). Then the job erases the account: one
 * transaction for the database, driven by ERASURE_PLAN (every table of PATIENT_TABLES), the
 * audit trail pseudonymised, the users row deleted; files after the commit.
 */
export class AccountClosingService {
  constructor(private readonly deps: AccountClosingDeps) {}

  private repo(orgId: number, db: Db = this.deps.db) {
    return new AccountClosingRepository(db, orgScope(orgId));
  }

  /** GET /me/closing/: what closing would take with it that the page must name. */
  async preview(ctx: SignedInContext): Promise<ClosingPreview> {
    const { actor } = ctx;
    const repo = this.repo(actor.orgId);
    const dependants = await repo.soleDependants(actor.userId);
    const patientIds = [...(await repo.ownPatientIds(actor.userId)), ...dependants.map((d) => d.id)];
    const [appointments, care] = await Promise.all([repo.upcomingAppointments(patientIds), repo.careCounterparts(actor.userId, patientIds)]);
    // Counted by the erasure's own plan and conditions, so the page and the erasure cannot disagree.
    const rows: Record<string, number> = {};
    const files = new Set<string>(actor.user.avatar_key ? [actor.user.avatar_key] : []);
    for (const step of ERASURE_PLAN) {
      const counted = await countStep(this.deps.db, step, patientIds, actor.userId);
      rows[step.table] = counted.rows;
      for (const key of counted.files) files.add(key);
    }
    return {
      can_close: !isStaff(actor.user),
      grace_days: ACCOUNT_CLOSING_GRACE_DAYS,
      dependants: dependants.map((d) => ({ id: d.id, first_name: d.first_name, last_name: d.last_name, relationship: d.relationship })),
      upcoming_appointments: appointments.length,
      care_network: new Set(care.map((c) => c.user_id)).size,
      erases: { rows, files: files.size },
    };
  }

  /**
   * POST /me/closing/: after the password (or code), a pending closing (one per account, however
   * many requests arrive at once), every session ended, and the holder told by e-mail with the
   * date. A wrong password changes nothing (400 under `password`; five wrong in 15 min: 429).
   */
  async close(ctx: SignedInContext, body: CloseAccountBody): Promise<{ erase_after: Date }> {
    const { actor } = ctx;
    if (isStaff(actor.user)) {
      await this.deps.audit.record(ctx, { action: 'account_close_request', outcome: 'denied', subject: `user:${actor.userId}`, detail: { reason: 'staff' } });
      throw new HttpError(403, 'errors:closingStaffAccount');
    }
    await this.deps.auth.confirmIdentity(ctx, body);
    const repo = this.repo(actor.orgId);
    const dependants = await repo.soleDependants(actor.userId);
    const eraseAfter = new Date(Date.now() + ACCOUNT_CLOSING_GRACE_DAYS * 86_400_000);
    const started = await repo.start(actor.userId, randomBytes(9).toString('base64url'), eraseAfter, dependants.length);
    // Another request of the same moment started it: one closing, one e-mail.
    if (!started) return { erase_after: (await repo.pending(actor.userId))?.erase_after ?? eraseAfter };
    await new SessionsRepository(this.deps.db).revokeAllForUser(orgScope(actor.orgId), actor.userId, 'account_closing');
    await this.deps.audit.record(ctx, { action: 'account_close_request', outcome: 'success', subject: `user:${actor.userId}`, detail: { closing: started.id, dependants: dependants.length } });
    const target = mailTarget(actor.user, ctx.lang);
    this.deps.background.send(
      renderMail('accountClosing', target.lang, target.email, {
        name: target.name,
        orgName: target.orgName,
        date: formatDay(started.erase_after, target.lang, target.timeZone, { weekday: true }),
        days: ACCOUNT_CLOSING_GRACE_DAYS,
        link: `${this.deps.publicUrl}/${actor.user.org_client_id}/login`,
      }),
      { user: actor.userId },
    );
    return { erase_after: started.erase_after };
  }

  /** An organisation's pending closings: its administrators (a super administrator: any, by ?org=); another organisation's: 404. */
  async listPending(ctx: SignedInContext, org?: number): Promise<PendingClosing[]> {
    const { actor } = ctx;
    if (!isAdministrator(actor)) throw new HttpError(403, 'errors:permissionDenied');
    const orgId = org ?? actor.orgId;
    if (orgId !== actor.orgId && !actor.isSuperadmin) {
      await this.deps.audit.record(ctx, { action: 'account_closings_read', outcome: 'denied', detail: { reason: 'other_org', org: orgId } });
      throw notFound();
    }
    const rows = await this.repo(orgId).listPending();
    await this.deps.audit.record(ctx, { action: 'account_closings_read', outcome: 'success', orgId, detail: { count: rows.length } });
    return rows.map((r) => ({
      id: r.id,
      user_id: r.user_id,
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      requested_at: new Date(r.requested_at).toISOString(),
      erase_after: new Date(r.erase_after).toISOString(),
      dependants: r.dependants,
    }));
  }

  /** The job: erases every closing whose time has come, each claimed by one process. */
  async eraseDue(ctx: ServiceContext, now = new Date(), limit = 10): Promise<ErasureSummary[]> {
    const uncovered = uncoveredPatientTables();
    if (uncovered.length) throw new Error(`The erasure plan does not cover these patient tables: ${uncovered.join(', ')}`);
    const done: ErasureSummary[] = [];
    for (const closing of await claimDueClosings(this.deps.db, now, limit)) done.push(await this.erase(ctx, closing));
    return done;
  }

  /**
   * Erases one closed account. Before the transaction: appointments cancelled (providers told),
   * links with other organisations ended (both sides told). In one transaction: every table of
   * the plan for the account's patient and its sole dependants, the audit trail pseudonymised,
   * the users row (sessions, tokens, second factors with it), the closing marked erased. After
   * the commit: the files, and the care network's other side told.
   */
  async erase(ctx: ServiceContext, closing: ClosingRow): Promise<ErasureSummary> {
    const started = performance.now();
    const { db, storage } = this.deps;
    const repo = this.repo(closing.org_id);
    const userId = closing.user_id;
    if (userId === null) {
      // The account went some other way meanwhile: nothing of it is left to erase.
      await markErased(db, closing.id, {});
      return { closingId: closing.id, rows: {}, files: 0, filesFailed: 0, appointmentsCancelled: 0, auditRowsPseudonymised: 0, ms: 0 };
    }
    const user = await new UsersRepository(db, orgScope(closing.org_id)).findById(userId);
    const dependants = await repo.soleDependants(userId);
    const patientIds = [...(await repo.ownPatientIds(userId)), ...dependants.map((d) => d.id)];
    const appointmentsCancelled = await this.deps.appointments.cancelForClosing(ctx, closing.org_id, await repo.upcomingAppointments(patientIds), userId);
    await endLinksOf({ db, audit: this.deps.audit, mail: this.deps.background }, ctx, { userId, orgId: closing.org_id }, 'closed');
    const counterparts = await repo.careCounterparts(userId, patientIds);
    const tell = await this.counterpartMail(closing.org_id, counterparts, user ? `${user.first_name} ${user.last_name}`.trim() : '');

    const { rows, files, audited } = await db.transaction().execute(async (trx) => {
      const rows: Record<string, number> = {};
      const files: string[] = [];
      const shares = await sharesOf(trx, patientIds);
      for (const step of ERASURE_PLAN) {
        const erased = await eraseStep(trx, step, patientIds, userId);
        rows[step.table] = erased.rows;
        files.push(...erased.files);
      }
      const audited = await pseudonymiseAudit(trx, { userId, orgId: closing.org_id, email: user?.email ?? '', patientIds }, closing.pseudonym);
      const account = await eraseAccount(trx, { userId, orgId: closing.org_id, email: user?.email ?? '' }, shares);
      if (account.avatar) files.push(account.avatar);
      rows.users = 1;
      rows.mail_outbox = account.mail;
      await markErased(trx, closing.id, { ...rows, dependants: dependants.length });
      await this.deps.audit.record(ctx, { action: 'account_erase', outcome: 'success', orgId: closing.org_id, actorUserId: null, subject: `closed:${closing.pseudonym}`, detail: { closing: closing.id, dependants: dependants.length, pseudonym: closing.pseudonym } }, trx);
      return { rows, files, audited };
    });

    // Files after the commit: a failed transaction leaves every file in place.
    let filesFailed = 0;
    for (const key of new Set(files)) {
      try {
        await storage.delete(key);
      } catch (err) {
        filesFailed++;
        ctx.log.error({ err, closing: closing.id }, 'a file of an erased account could not be removed');
      }
    }
    for (const send of tell) send();
    return { closingId: closing.id, rows, files: new Set(files).size, filesFailed, appointmentsCancelled, auditRowsPseudonymised: audited, ms: Math.round(performance.now() - started) };
  }

  /** The e-mails to the care network's other side, made before the erasure (names and addresses are gone after), sent after it. */
  private async counterpartMail(orgId: number, counterparts: ReadonlyArray<{ user_id: number; side: 'grantee' | 'patient' }>, who: string): Promise<Array<() => void>> {
    const users = new UsersRepository(this.deps.db, orgScope(orgId));
    const seen = new Set<number>();
    const out: Array<() => void> = [];
    for (const c of counterparts) {
      if (seen.has(c.user_id)) continue;
      seen.add(c.user_id);
      const other = await users.findById(c.user_id);
      if (!other?.is_active) continue;
      const lang = recipientLanguage(other.settings, 'en');
      const message = renderMail(c.side === 'grantee' ? 'careEndedPatientLeft' : 'careEndedMemberLeft', lang, other.email, { name: other.first_name, orgName: other.org_name, person: who || translate(lang, 'emails:careEndedPatientLeft.someone') });
      out.push(() => this.deps.background.send(message, { user: other.id }));
    }
    return out;
  }
}

/**
 * Signing in again within the grace period cancels a pending closing: the closing ends and the
 * holder is told by e-mail. Called by sign-in (a full session) and by the second step of a
 * sign-in with a second factor. Answers whether a closing was cancelled.
 */
export async function cancelClosingOnSignIn(
  deps: { db: Db; audit: AuditLog; background: BackgroundMail },
  ctx: ServiceContext,
  user: Pick<UserView, 'id' | 'org_id' | 'email' | 'first_name' | 'org_name' | 'settings'>,
): Promise<boolean> {
  const cancelled = await new AccountClosingRepository(deps.db, orgScope(user.org_id)).cancel(user.id);
  if (!cancelled) return false;
  await deps.audit.record(ctx, { action: 'account_close_cancel', outcome: 'success', orgId: user.org_id, actorUserId: user.id, subject: `user:${user.id}`, detail: { closing: cancelled.id, reason: 'signed_in' } });
  const target = mailTarget(user, ctx.lang);
  deps.background.send(renderMail('accountClosingCancelled', target.lang, target.email, { name: target.name, orgName: target.orgName }), { user: user.id });
  return true;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountClosing: AccountClosingService;
  }
}

export default servicePlugin<'accountClosing', { publicUrl: string }>(
  'accountClosing',
  ['db', 'audit-service', 'auth-service', 'mail', 'storage', 'appointments-service'],
  (app, opts) =>
    new AccountClosingService({
      db: app.db,
      audit: app.audit,
      auth: app.auth,
      background: app.backgroundMail,
      storage: app.storage,
      appointments: app.appointments,
      publicUrl: opts.publicUrl,
    }),
);
