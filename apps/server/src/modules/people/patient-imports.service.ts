import type { AuditAction } from '@healthbook/shared';
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { OrgRef, PatientImport, PatientImportQuery, PatientImportRow } from '@healthbook/shared';
import { systemContext, type SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { FieldError, HttpError } from '../../lib/http-errors';
import { BackgroundRun } from '../../lib/background-run';
import { servicePlugin } from '../../lib/service-plugin';
import type { AuditLog } from '../audit/audit.service';
import type { InvitationsService } from '../invitations/invitations.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { readPatientFile } from './patient-import-file';
import { PatientImportJobRepository, PatientImportsRepository, type PatientImportLineRecord, type PatientImportRecord } from './patient-imports.repository';
import { canReachOrg } from './people.policy';
import type { PeopleService } from './people.service';

/** Rows claimed at once by a process, and sent at once among them. */
const CLAIM = 50;
const CONCURRENCY = 8;

export interface PatientImportsDeps {
  db: Db;
  audit: AuditLog;
  organizations: OrganizationsService;
  invitations: InvitationsService;
  people: PeopleService;
  log: FastifyBaseLogger;
}

function presentRow(row: PatientImportLineRecord): PatientImportRow {
  return {
    row: row.line,
    first_name: row.first_name,
    last_name: row.last_name,
    dob: row.dob,
    gender: row.gender,
    email: row.email,
    language: row.language,
    status: row.status,
    problems: row.problems as PatientImportRow['problems'],
  };
}

/**
 * Patients invited in bulk: a CSV file is read and checked row by row (nothing is sent), the
 * administrator sees the preview with each row's problems, then starts the sending; the job
 * sends each ready row's invitation (the invitations service's, the same as one at a time) out
 * of the request, once across processes, and the page follows its progress. An address already
 * in the organisation (an account, a pending invitation, an earlier import) is skipped: the same
 * file uploaded again invites nobody twice.
 */
export class PatientImportsService {
  private readonly sending = new BackgroundRun(
    (stopped) => this.drain(stopped),
    (err) => this.deps.log.error({ err }, 'patient import: sending failed'),
  );

  constructor(private readonly deps: PatientImportsDeps) {}

  private repo(orgId: number, db: Db = this.deps.db) {
    return new PatientImportsRepository(db, orgScope(orgId));
  }

  async create(ctx: SignedInContext, orgRef: OrgRef | undefined, fileName: string | undefined, text: string): Promise<PatientImport> {
    const org = await this.deps.people.org(ctx, orgRef, 'import');
    const lines = readPatientFile(text);
    const known = await this.repo(org.id).knownEmails([...new Set(lines.map((l) => l.email).filter(Boolean))]);
    const rows = lines.map((l) => {
      const problems = [...l.problems];
      if (l.email && !problems.some((p) => p.field === 'email') && known.has(l.email)) problems.push({ field: 'email', code: 'already_in_organization' });
      const status = problems.length === 0 ? ('ready' as const) : problems.every((p) => p.code === 'already_in_organization') ? ('skipped' as const) : ('invalid' as const);
      return {
        line: l.line,
        first_name: l.first_name,
        last_name: l.last_name,
        dob: l.dobIso ?? l.dob,
        gender: l.gender,
        email: l.email,
        language: l.language,
        problems: JSON.stringify(problems),
        status,
      };
    });
    const record = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(org.id, trx);
      const created = await repo.create({
        created_by: ctx.actor.userId,
        file_name: (fileName ?? '').trim() || 'patients.csv',
        file_sha256: createHash('sha256').update(text).digest('hex'),
        total: rows.length,
      });
      await repo.insertRows(created.id, rows);
      return created;
    });
    await this.deps.audit.record(ctx, { action: 'patient_import_create', outcome: 'success', orgId: org.id, subject: `import:${record.id}`, detail: { rows: rows.length } });
    return this.present(record, { problems: '1' });
  }

  private async find(ctx: SignedInContext, id: number, action: AuditAction): Promise<PatientImportRecord> {
    const orgId = (await new PatientImportJobRepository(this.deps.db).importOrg(id))?.org_id;
    const refusal = canReachOrg(ctx.actor, orgId ?? -1);
    if (orgId === undefined || refusal) {
      await this.deps.audit.record(ctx, { action, outcome: 'denied', orgId: orgId ?? null, subject: `import:${id}`, detail: { reason: refusal?.reason ?? 'unknown' } });
      throw new HttpError(refusal?.status === 403 ? 403 : 404, refusal?.status === 403 ? 'errors:permissionDenied' : 'errors:notFound');
    }
    return (await this.repo(orgId).find(id))!;
  }

  async get(ctx: SignedInContext, id: number, query: PatientImportQuery): Promise<PatientImport> {
    return this.present(await this.find(ctx, id, 'patient_import_read'), query);
  }

  /** Starts sending (once): 409 when it already started, or when no row can be sent. */
  async send(ctx: SignedInContext, id: number): Promise<PatientImport> {
    const record = await this.find(ctx, id, 'patient_import_send');
    const repo = this.repo(record.org_id);
    if (record.status !== 'preview') throw new HttpError(409, 'errors:peopleImportStarted');
    if ((await repo.counts(id)).ready === 0) throw new HttpError(409, 'errors:peopleImportNothing');
    if (!(await repo.start(id))) throw new HttpError(409, 'errors:peopleImportStarted');
    await this.deps.audit.record(ctx, { action: 'patient_import_send', outcome: 'success', orgId: record.org_id, subject: `import:${id}` });
    this.kick();
    return this.present((await repo.find(id))!, { problems: '1' });
  }

  private async present(record: PatientImportRecord, query: PatientImportQuery): Promise<PatientImport> {
    const repo = this.repo(record.org_id);
    const [counts, rows] = await Promise.all([repo.counts(record.id), repo.rows(record.id, { problemsOnly: query.problems !== '0', page: query.page ?? 1, pageSize: query.page_size ?? 50 })]);
    return {
      id: record.id,
      org_id: record.org_id,
      file_name: record.file_name,
      status: record.status,
      total: record.total,
      counts,
      created_at: new Date(record.created_at).toISOString(),
      started_at: record.started_at ? new Date(record.started_at).toISOString() : null,
      finished_at: record.finished_at ? new Date(record.finished_at).toISOString() : null,
      rows: rows.rows.map(presentRow),
      rows_count: rows.count,
    };
  }

  /** Starts sending in the background, unless this process already is (the scheduler calls it too). */
  kick(): Promise<void> {
    return this.sending.kick();
  }

  /** Waits for the sending under way (tests; shutdown). */
  stop(): Promise<void> {
    return this.sending.stop();
  }

  /** Sends every claimed row's invitation until none is left; answers how many rows it handled. */
  async drain(stopped: () => boolean = () => false): Promise<number> {
    const job = new PatientImportJobRepository(this.deps.db);
    let handled = 0;
    for (;;) {
      if (stopped()) break;
      const rows = await job.claim(CLAIM);
      if (!rows.length) break;
      for (let i = 0; i < rows.length; i += CONCURRENCY) await Promise.all(rows.slice(i, i + CONCURRENCY).map((row) => this.sendRow(job, row)));
      handled += rows.length;
      await job.finishImports();
    }
    await job.finishImports();
    return handled;
  }

  private async sendRow(job: PatientImportJobRepository, row: PatientImportLineRecord): Promise<void> {
    const ctx = systemContext(this.deps.log, row.language === 'el' ? 'el' : 'en');
    if (!(await job.takeEmail(row.org_id, row.email, row.import_id))) return job.finishRow(row.id, 'skipped');
    try {
      const [org, owner] = await Promise.all([this.deps.organizations.findById(row.org_id), job.importOrg(row.import_id)]);
      if (!org) return await job.finishRow(row.id, 'failed');
      const { invitation } = await this.deps.invitations.create(
        ctx,
        org,
        { first_name: row.first_name, last_name: row.last_name, dob: row.dob, gender: row.gender as 'male', email: row.email },
        { createdBy: owner?.created_by ?? null, lang: ctx.lang, via: 'import' },
      );
      await job.finishRow(row.id, 'sent', invitation.id);
    } catch (err) {
      await job.releaseEmail(row.org_id, row.email, row.import_id);
      // An address that got an account meanwhile: nothing to send.
      if (err instanceof FieldError) return job.finishRow(row.id, 'skipped');
      this.deps.log.warn({ err, row: row.id }, 'patient import: an invitation could not be sent');
      await job.finishRow(row.id, 'failed');
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    patientImports: PatientImportsService;
  }
}

export default servicePlugin<'patientImports'>('patientImports', ['db', 'audit-service', 'organizations-service', 'invitations-service', 'people-service'], (app) => {
  const service = new PatientImportsService({ db: app.db, audit: app.audit, organizations: app.organizations, invitations: app.invitations, people: app.people, log: app.log });
  app.addHook('onClose', async () => service.stop());
  return service;
});
