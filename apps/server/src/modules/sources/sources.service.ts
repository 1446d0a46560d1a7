import {
  DEFAULT_SOURCE_SCOPES,
  sourceCallbackPath,
  translate,
  type CreateFhirSourceBody,
  type FhirSource,
  type OrgRef,
  type PatientSources,
  type SourceCallbackBody,
  type SourceCallbackFailure,
  type SourceCheckResult,
  type SourceConnection,
  type UpdateFhirSourceBody,
} from '@healthbook/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { SecretBox, sha256 } from '../../lib/crypto';
import { FieldError, HttpError } from '../../lib/http-errors';
import { BackgroundRun } from '../../lib/background-run';
import { servicePlugin } from '../../lib/service-plugin';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import { DocumentsRepository } from '../documents/documents.repository';
import type { DocumentsService } from '../documents/documents.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { canReachOrg } from '../people/people.policy';
import type { PatientScope } from '../patients/patient-scope';
import type { PatientsService } from '../patients/patients.service';
import { RecordsRepository } from '../records/records.repository';
import { authorizationRequest, discoverSource, exchangeCode, normaliseBaseUrl, revokeToken, SmartGrantError, type OutboundPolicy } from './smart-client';
import { SourceSync, type SyncSettings } from './source-sync';
import { FhirSourcesRepository, SourceConnectionsRepository, SourceLaunchesRepository, type FhirSourceRow, type SourceConnectionRow } from './sources.repository';

/** How long a patient has at the source's pages between "Connect" and the callback. */
const LAUNCH_TTL_MS = 10 * 60_000;

export type SourcesOptions = {
  publicUrl: string;
  jwtSecret: string;
  sync: SyncSettings;
};

const notFound = () => new HttpError(404, 'errors:notFound');

const CALLBACK_MESSAGES: Readonly<Record<SourceCallbackFailure, string>> = {
  denied: 'errors:sourceConnectDenied',
  state: 'errors:sourceConnectState',
  expired_code: 'errors:sourceConnectExpiredCode',
  source_down: 'errors:sourceConnectSourceDown',
  no_patient: 'errors:sourceConnectNoPatient',
};

/** The callback's failure as the patient's page tells it (400, `code` naming it, the message in their language). */
const callbackFailure = (code: SourceCallbackFailure, source = '') => new HttpError(400, CALLBACK_MESSAGES[code], { source }, {}, { code });

/**
 * Sources of records (issue 28): the organisation's catalogue of SMART on FHIR sources (its
 * administrators add, check, change and remove them), and a patient's connections to them (a
 * standalone launch: PKCE S256, state, aud; the tokens kept sealed; syncs as jobs). Client
 * secrets and tokens are sealed at rest (AES-256-GCM, lib/crypto SecretBox) and never answered.
 */
export class SourcesService {
  private readonly secrets: SecretBox;
  private readonly tokens: SecretBox;
  readonly sync: SourceSync;
  private readonly syncing: BackgroundRun;

  constructor(
    private readonly db: Db,
    private readonly deps: { patients: PatientsService; organizations: OrganizationsService; audit: AuditLog; documents: DocumentsService; storage: Storage; log: FastifyBaseLogger },
    private readonly options: SourcesOptions,
  ) {
    this.secrets = new SecretBox(options.jwtSecret, 'fhir-source-secrets');
    this.tokens = new SecretBox(options.jwtSecret, 'fhir-source-tokens');
    this.sync = new SourceSync(db, { tokens: this.tokens, secrets: this.secrets }, { audit: deps.audit, documents: deps.documents }, options.sync, deps.log);
    this.syncing = new BackgroundRun(
      (stopped) => this.sync.drain(stopped),
      (err) => deps.log.error({ err }, 'source syncs failed'),
    );
  }

  private get policy(): OutboundPolicy {
    return this.options.sync.policy;
  }

  // ---- The organisation's catalogue (administrators) ----

  /** The organisation an administrator names (their own by default); another's, or none: 404 (nothing said about it). */
  private async adminOrg(ctx: SignedInContext, ref: OrgRef | undefined) {
    const org = ref === undefined ? await this.deps.organizations.findById(ctx.actor.orgId) : await this.deps.organizations.resolve(ref);
    const refusal = canReachOrg(ctx.actor, org?.id ?? -1);
    if (refusal) throw new HttpError(refusal.status, refusal.detail);
    if (!org) throw notFound();
    return org;
  }

  /** The source of an id in an organisation the administrator reaches. */
  private async adminSource(ctx: SignedInContext, id: number) {
    const orgId = await FhirSourcesRepository.orgOf(this.db, id);
    // Not an administrator: 403, as for the list; another organisation's source, or none: 404.
    const refusal = canReachOrg(ctx.actor, orgId ?? -1);
    if (refusal?.status === 403) throw new HttpError(403, refusal.detail);
    if (orgId === undefined || refusal) throw notFound();
    const org = (await this.deps.organizations.findById(orgId))!;
    const repo = new FhirSourcesRepository(this.db, orgScope(org.id));
    return { org, repo, row: (await repo.find(id))! };
  }

  private present(row: FhirSourceRow & { connections?: string }, clientId: string): FhirSource {
    const smart = row.smart_configuration as Record<string, unknown>;
    const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null);
    return {
      id: row.id,
      name: row.name,
      fhir_base_url: row.fhir_base_url,
      client_id: row.client_id,
      confidential: row.client_secret_sealed !== null,
      scopes: row.scopes,
      enabled: row.enabled,
      redirect_uri: this.redirectUri(clientId),
      authorization_endpoint: String(smart.authorization_endpoint ?? ''),
      token_endpoint: String(smart.token_endpoint ?? ''),
      capabilities: strings(smart.capabilities) ?? [],
      scopes_supported: strings(smart.scopes_supported),
      checked_at: new Date(row.checked_at).toISOString(),
      created_at: new Date(row.created_at).toISOString(),
      connections: Number(row.connections ?? 0),
    };
  }

  private redirectUri(clientId: string): string {
    return `${this.options.publicUrl}${sourceCallbackPath(clientId)}`;
  }

  async list(ctx: SignedInContext, ref: OrgRef | undefined): Promise<FhirSource[]> {
    const org = await this.adminOrg(ctx, ref);
    return (await new FhirSourcesRepository(this.db, orgScope(org.id)).list()).map((row) => this.present(row, org.name));
  }

  /** The checks of an address, without keeping anything (the form's "Check"). */
  async check(ctx: SignedInContext, base: string, scopes = DEFAULT_SOURCE_SCOPES): Promise<SourceCheckResult> {
    await this.adminOrg(ctx, undefined);
    const { checks } = await discoverSource(base, normaliseScopes(scopes), this.policy, ctx.lang);
    return { ok: checks.every((c) => c.ok), checks };
  }

  /** Discovery that must pass for a source to be kept: the first failed check is the field's error. */
  private async discovered(ctx: SignedInContext, base: string, scopes: string) {
    const { checks, base: normalised, configuration } = await discoverSource(base, scopes, this.policy, ctx.lang);
    const failed = checks.find((c) => !c.ok);
    if (failed || !configuration || !normalised) throw new FieldError({ [failed?.check === 'scopes' ? 'scopes' : 'fhir_base_url']: [failed?.detail ?? translate(ctx.lang, 'errors:sourceCheckFailed')] });
    return { base: normalised, configuration };
  }

  async create(ctx: SignedInContext, body: CreateFhirSourceBody): Promise<FhirSource> {
    const org = await this.adminOrg(ctx, body.org_id);
    const repo = new FhirSourcesRepository(this.db, orgScope(org.id));
    if (await repo.nameTaken(body.name)) throw new FieldError({ name: ['errors:sourceNameTaken'] });
    const scopes = normaliseScopes(body.scopes ?? DEFAULT_SOURCE_SCOPES);
    const { base, configuration } = await this.discovered(ctx, body.fhir_base_url, scopes);
    const row = await repo.insert({
      name: body.name,
      fhir_base_url: base,
      client_id: body.client_id,
      client_secret_sealed: body.client_secret ? this.secrets.seal(body.client_secret) : null,
      scopes,
      smart_configuration: JSON.stringify(configuration),
      created_by: ctx.actor.userId,
    });
    await this.deps.audit.record(ctx, { action: 'source_create', outcome: 'success', orgId: org.id, subject: `source:${row.id}`, detail: { confidential: row.client_secret_sealed !== null } });
    return this.present({ ...row, connections: '0' }, org.name);
  }

  async update(ctx: SignedInContext, id: number, body: UpdateFhirSourceBody): Promise<FhirSource> {
    const { org, repo, row } = await this.adminSource(ctx, id);
    if (body.name !== undefined && (await repo.nameTaken(body.name, id))) throw new FieldError({ name: ['errors:sourceNameTaken'] });
    const scopes = body.scopes !== undefined ? normaliseScopes(body.scopes) : undefined;
    // A new address (or new scopes) is read and checked again before anything changes; the same ones sent back are no change.
    const newBase = body.fhir_base_url !== undefined && normaliseBaseUrl(body.fhir_base_url) !== row.fhir_base_url;
    const newScopes = scopes !== undefined && scopes !== row.scopes;
    const discovery = newBase || newScopes ? await this.discovered(ctx, body.fhir_base_url ?? row.fhir_base_url, scopes ?? row.scopes) : null;
    const updated = await repo.update(id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.client_id !== undefined ? { client_id: body.client_id } : {}),
      ...(body.client_secret !== undefined ? { client_secret_sealed: body.client_secret === null ? null : this.secrets.seal(body.client_secret) } : {}),
      ...(scopes !== undefined ? { scopes } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      ...(discovery ? { fhir_base_url: discovery.base, smart_configuration: JSON.stringify(discovery.configuration), checked: true } : {}),
    });
    if (!updated) throw notFound();
    await this.deps.audit.record(ctx, { action: 'source_update', outcome: 'success', orgId: org.id, subject: `source:${id}`, detail: { fields: Object.keys(body).filter((k) => k !== 'client_secret').join(',') } });
    const [withCount] = (await repo.list()).filter((r) => r.id === id);
    return this.present(withCount ?? updated, org.name);
  }

  /** A source removed: its connections end (their tokens with them); the records it brought stay, still saying where they came from. */
  async remove(ctx: SignedInContext, id: number): Promise<void> {
    const { org, repo } = await this.adminSource(ctx, id);
    await repo.delete(id);
    await this.deps.audit.record(ctx, { action: 'source_delete', outcome: 'success', orgId: org.id, subject: `source:${id}` });
  }

  // ---- A patient's connections ----

  private presentConnection(row: SourceConnectionRow & { source_name: string }, records: number, lang: SignedInContext['lang']): SourceConnection {
    const run = row.last_run;
    return {
      id: row.id,
      source_id: row.source_id,
      source_name: row.source_name,
      status: row.status,
      problem: row.problem ? translate(lang, row.problem, { source: row.source_name }) : null,
      last_synced_at: row.last_synced_at ? new Date(row.last_synced_at).toISOString() : null,
      records,
      last_run: run ? { ...run, skipped: run.skipped.map(({ vars, ...s }) => ({ ...s, reason: translate(lang, s.reason, vars) })) } : null,
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  /** The organisation's sources a patient may connect, and the patient's connections. */
  async patientSources(ctx: SignedInContext, patientId?: number): Promise<PatientSources> {
    const grant = await this.deps.patients.open(ctx, 'connections', patientId);
    const [sources, connections, counts] = await Promise.all([
      new FhirSourcesRepository(this.db, orgScope(grant.orgId)).enabled(),
      new SourceConnectionsRepository(this.db, grant).list(),
      new RecordsRepository(this.db, grant).countBySource(),
    ]);
    await grant.auditRead(ctx, { connections: connections.length });
    const connected = new Set(connections.map((c) => c.source_id));
    return {
      sources: sources.map((s) => ({ id: s.id, name: s.name, connected: connected.has(s.id) })),
      connections: connections.map((c) => this.presentConnection(c, counts.get(c.source_id) ?? 0, ctx.lang)),
    };
  }

  /** A standalone launch begins: the state and the PKCE verifier kept (hashed, sealed), the address of the source's authorisation page answered. */
  async connect(ctx: SignedInContext, sourceId: number, patientId?: number): Promise<{ authorize_url: string }> {
    const grant = await this.deps.patients.open(ctx, 'connections', patientId, 'write');
    const source = await new FhirSourcesRepository(this.db, orgScope(grant.orgId)).find(sourceId);
    if (!source || !source.enabled) throw notFound();
    const org = (await this.deps.organizations.findById(grant.orgId))!;
    const redirectUri = this.redirectUri(org.name);
    const launch = await authorizationRequest(this.sync.clientOf(source), redirectUri, this.policy);
    await new SourceLaunchesRepository(this.db).insert(grant, {
      state_hash: sha256(launch.state),
      source_id: source.id,
      user_id: ctx.actor.userId,
      verifier_sealed: this.tokens.seal(launch.verifier),
      redirect_uri: redirectUri,
      expires_at: new Date(Date.now() + LAUNCH_TTL_MS),
    });
    await this.deps.audit.record(ctx, { action: 'source_connect_start', outcome: 'success', subject: `patient:${grant.patientId}`, detail: { source: source.id } });
    return { authorize_url: launch.url };
  }

  /**
   * The callback, posted by the web app with the user's session: the state taken once (bound to
   * the user who began, unexpired), the code traded with the verifier, the tokens and the
   * patient at the source kept, a first sync started. Each failure is its own answer; nothing is
   * kept unless every step held.
   */
  async callback(ctx: SignedInContext, body: SourceCallbackBody): Promise<SourceConnection> {
    const launch = await new SourceLaunchesRepository(this.db).take(sha256(body.state));
    // Another user's launch is as unknown as none (nothing said about it).
    if (!launch || launch.user_id !== ctx.actor.userId) throw callbackFailure('state');
    const grant = await this.deps.patients.open(ctx, 'connections', launch.patient_id, 'write');
    const source = await new FhirSourcesRepository(this.db, orgScope(grant.orgId)).find(launch.source_id);
    if (!source || !source.enabled) throw callbackFailure('state');
    if (new Date(launch.expires_at).getTime() < Date.now()) throw callbackFailure('state', source.name);
    if (body.error) throw callbackFailure(body.error === 'access_denied' ? 'denied' : 'source_down', source.name);
    if (!body.code) throw callbackFailure('state', source.name);

    const params: Record<string, string> = { code: body.code, state: body.state, ...(body.iss ? { iss: body.iss } : {}) };
    let tokens;
    try {
      tokens = await exchangeCode(this.sync.clientOf(source), launch.redirect_uri, params, { state: body.state, verifier: this.tokens.open(launch.verifier_sealed) }, this.policy);
    } catch (err) {
      if (err instanceof SmartGrantError && err.kind === 'refused') throw callbackFailure('expired_code', source.name);
      ctx.log.warn({ err, source: source.id }, 'source token exchange failed');
      throw callbackFailure('source_down', source.name);
    }
    if (!tokens.patient) throw callbackFailure('no_patient', source.name);

    const row = await new SourceConnectionsRepository(this.db, grant).connect({ source_id: source.id, source_patient_id: tokens.patient, ...this.sync.sealTokens(tokens), created_by: ctx.actor.userId });
    await this.deps.audit.record(ctx, { action: 'source_connect', outcome: 'success', subject: `patient:${grant.patientId}`, detail: { source: source.id, connection: row.id } });
    this.kick();
    const count = (await new RecordsRepository(this.db, grant).countBySource()).get(source.id) ?? 0;
    return this.presentConnection({ ...row, source_name: source.name }, count, ctx.lang);
  }

  private async connection(ctx: SignedInContext, id: number, patientId?: number) {
    const grant = await this.deps.patients.open(ctx, 'connections', patientId, 'write');
    const repo = new SourceConnectionsRepository(this.db, grant);
    const row = await repo.find(id);
    if (!row) throw notFound();
    return { grant, repo, row };
  }

  /** "Sync now": a sync due at once, a full one unless asked otherwise (a full one also finds what the source deleted). */
  async syncNow(ctx: SignedInContext, id: number, full: boolean, patientId?: number): Promise<SourceConnection> {
    const { grant, repo, row } = await this.connection(ctx, id, patientId);
    if (row.status === 'needs_reconnect') throw new HttpError(409, 'errors:sourceNeedsReconnect', { source: row.source_name });
    await repo.syncNow(id, full);
    await this.deps.audit.record(ctx, { action: 'source_sync_request', outcome: 'success', subject: `patient:${grant.patientId}`, detail: { source: row.source_id, connection: id } });
    this.kick();
    const count = (await new RecordsRepository(this.db, grant).countBySource()).get(row.source_id) ?? 0;
    return this.presentConnection({ ...(await repo.find(id))!, source_name: row.source_name }, count, ctx.lang);
  }

  /** Disconnect: the grant revoked at the source where it can be, the tokens deleted here at once; the records stay unless the patient asks them removed too. */
  async disconnect(ctx: SignedInContext, id: number, removeRecords: boolean, patientId?: number): Promise<void> {
    const { grant, row } = await this.connection(ctx, id, patientId);
    const revoked = await this.revokeAtSource(grant, row);
    const files = await this.db.transaction().execute(async (trx) => {
      await new SourceConnectionsRepository(trx, grant).disconnect(id);
      if (!removeRecords) return [];
      const records = new RecordsRepository(trx, grant);
      const documents = new DocumentsRepository(trx, grant);
      const keys: string[] = [];
      for (const record of await records.idsFromSource(row.source_id)) {
        keys.push(...(await documents.deleteRecordAttachments(record.id)));
        await records.delete(record.category, record.id);
      }
      return keys;
    });
    for (const key of files) await this.deps.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'attachment file not deleted'));
    await this.deps.audit.record(ctx, { action: 'source_disconnect', outcome: 'success', subject: `patient:${grant.patientId}`, detail: { source: row.source_id, connection: id, records_removed: removeRecords, revoked_at_source: revoked } });
  }

  /** The connection's refresh token (else its access token) revoked at the source, best effort: a disconnection never fails for it. */
  private async revokeAtSource(grant: PatientScope, row: SourceConnectionRow): Promise<boolean> {
    const source = await new FhirSourcesRepository(this.db, orgScope(grant.orgId)).find(row.source_id);
    const sealed = row.refresh_token_sealed ?? row.access_token_sealed;
    if (!source || !sealed || typeof source.smart_configuration.revocation_endpoint !== 'string') return false;
    try {
      return await revokeToken(this.sync.clientOf(source), this.tokens.open(sealed), row.refresh_token_sealed ? 'refresh_token' : 'access_token', this.policy);
    } catch (err) {
      // A token that cannot be opened (the key changed) is deleted here all the same.
      this.deps.log.warn({ err, connection: row.id }, 'source token not revoked at the source');
      return false;
    }
  }

  // ---- The job ----

  /** Starts syncing the due connections in the background, unless this process already is (the scheduler calls it too). */
  kick(): Promise<void> {
    return this.syncing.kick();
  }

  /** Waits for the syncs under way (tests; shutdown). */
  stop(): Promise<void> {
    return this.syncing.stop();
  }

  /** Waits until no sync of this process is under way (tests). */
  idle(): Promise<void> {
    return this.syncing.idle();
  }
}

/** Scopes as kept: single spaces, each once. */
const normaliseScopes = (text: string) => [...new Set(text.split(/\s+/).filter(Boolean))].join(' ');

declare module 'fastify' {
  interface FastifyInstance {
    sources: SourcesService;
  }
}

export default servicePlugin<'sources', SourcesOptions>('sources', ['db', 'patients-service', 'organizations-service', 'audit-service', 'documents-service'], (app, opts) => {
  const service = new SourcesService(app.db, { patients: app.patients, organizations: app.organizations, audit: app.audit, documents: app.documents, storage: app.storage, log: app.log }, opts);
  app.addHook('onClose', async () => service.stop());
  return service;
});
