import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';
import type { FhirSourcesTable, SourceConnectionsTable, SourceConnectionStatus, SourceLaunchesTable, SyncRunSummary } from '../../db/schema';
import type { PatientScope } from '../patients/patient-scope';

export type FhirSourceRow = Selectable<FhirSourcesTable>;
export type SourceConnectionRow = Selectable<SourceConnectionsTable>;
export type SourceLaunchRow = Selectable<SourceLaunchesTable>;

/** An organisation's catalogue of sources (its administrators' side, and what its patients are offered). */
export class FhirSourcesRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  /** The organisation a source belongs to (the policy decides whether the administrator reaches it). */
  static async orgOf(db: Db, id: number): Promise<number | undefined> {
    return (await db.selectFrom('fhir_sources').select('org_id').where('id', '=', id).executeTakeFirst())?.org_id;
  }

  list(): Promise<Array<FhirSourceRow & { connections: string }>> {
    return this.db
      .selectFrom('fhir_sources as s')
      .selectAll('s')
      .select(sql<string>`(select count(*) from source_connections c where c.source_id = s.id and c.status <> 'disconnected')::text`.as('connections'))
      .where('s.org_id', '=', this.scope.orgId)
      .orderBy(sql`lower(s.name)`)
      .execute();
  }

  find(id: number): Promise<FhirSourceRow | undefined> {
    return this.db.selectFrom('fhir_sources').selectAll().where('org_id', '=', this.scope.orgId).where('id', '=', id).executeTakeFirst();
  }

  /** Another source of the organisation with this name (names are unique, whatever their case). */
  async nameTaken(name: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('fhir_sources').select('id').where('org_id', '=', this.scope.orgId).where(sql`lower(name)`, '=', name.toLowerCase());
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  insert(row: Pick<FhirSourceRow, 'name' | 'fhir_base_url' | 'client_id' | 'client_secret_sealed' | 'scopes' | 'created_by'> & { smart_configuration: string }): Promise<FhirSourceRow> {
    return this.db
      .insertInto('fhir_sources')
      .values({ ...row, org_id: this.scope.orgId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, changes: Partial<Pick<FhirSourceRow, 'name' | 'fhir_base_url' | 'client_id' | 'client_secret_sealed' | 'scopes' | 'enabled'>> & { smart_configuration?: string; checked?: boolean }): Promise<FhirSourceRow | undefined> {
    const { checked, ...set } = changes;
    return this.db
      .updateTable('fhir_sources')
      .set({ ...set, updated_at: sql`now()`, ...(checked ? { checked_at: sql`now()` } : {}) })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('fhir_sources').where('org_id', '=', this.scope.orgId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The enabled sources a patient of the organisation may connect. */
  enabled(): Promise<Array<Pick<FhirSourceRow, 'id' | 'name'>>> {
    return this.db.selectFrom('fhir_sources').select(['id', 'name']).where('org_id', '=', this.scope.orgId).where('enabled', '=', true).orderBy(sql`lower(name)`).execute();
  }
}

/** A patient's connections (the patients policy's scope, area `connections`). */
export class SourceConnectionsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  private base() {
    return this.db.selectFrom('source_connections as c').where('c.org_id', '=', this.scope.orgId).where('c.patient_id', '=', this.scope.patientId);
  }

  list(): Promise<Array<SourceConnectionRow & { source_name: string }>> {
    return this.base()
      .innerJoin('fhir_sources as s', 's.id', 'c.source_id')
      .selectAll('c')
      .select('s.name as source_name')
      .where('c.status', '<>', 'disconnected')
      .orderBy(sql`lower(s.name)`)
      .execute();
  }

  find(id: number): Promise<(SourceConnectionRow & { source_name: string }) | undefined> {
    return this.base().innerJoin('fhir_sources as s', 's.id', 'c.source_id').selectAll('c').select('s.name as source_name').where('c.id', '=', id).where('c.status', '<>', 'disconnected').executeTakeFirst();
  }

  /** The connection to a source made (again): tokens kept, a sync due now. One row per source and patient. */
  connect(row: { source_id: number; source_patient_id: string; access_token_sealed: string; refresh_token_sealed: string | null; token_expires_at: Date | null; scope: string; created_by: number }): Promise<SourceConnectionRow> {
    const values = { ...row, org_id: this.scope.orgId, patient_id: this.scope.patientId, status: 'pending' as const, problem: null, next_sync_at: sql<Date>`now()` };
    return this.db
      .insertInto('source_connections')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['patient_id', 'source_id']).doUpdateSet({
          source_patient_id: row.source_patient_id,
          access_token_sealed: row.access_token_sealed,
          refresh_token_sealed: row.refresh_token_sealed,
          token_expires_at: row.token_expires_at,
          scope: row.scope,
          status: 'pending',
          problem: null,
          // Another patient at the source (a different login) is a new history: read everything again.
          last_full_sync_at: sql`case when source_connections.source_patient_id = excluded.source_patient_id then source_connections.last_full_sync_at else null end`,
          next_sync_at: sql`now()`,
          created_by: row.created_by,
          updated_at: sql`now()`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A sync asked for now; a full one reads everything (and so finds what the source deleted): its last full sync forgotten. */
  async syncNow(id: number, full: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('source_connections')
      .set({ next_sync_at: sql`now()`, ...(full ? { last_full_sync_at: null } : {}), updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .where('status', 'not in', ['disconnected', 'needs_reconnect'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Disconnected: the tokens deleted, no more syncs (the row stays, so that a reconnection knows the source's records). */
  async disconnect(id: number): Promise<SourceConnectionRow | undefined> {
    return this.db
      .updateTable('source_connections')
      .set({ status: 'disconnected', access_token_sealed: null, refresh_token_sealed: null, token_expires_at: null, next_sync_at: null, claimed_until: null, problem: null, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .where('status', '<>', 'disconnected')
      .returningAll()
      .executeTakeFirst();
  }
}

/** Launches between redirect and callback: written for a patient, then taken once by their state. */
export class SourceLaunchesRepository {
  constructor(private readonly db: Db) {}

  async insert(scope: PatientScope, row: { state_hash: string; source_id: number; user_id: number; verifier_sealed: string; redirect_uri: string; expires_at: Date }): Promise<void> {
    // Launches long over go as new ones come (they are useless once expired).
    await this.db.deleteFrom('source_launches').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
    await this.db
      .insertInto('source_launches')
      .values({ ...row, org_id: scope.orgId, patient_id: scope.patientId })
      .execute();
  }

  /** The launch of a state, taken once: a second callback (even at the same moment) finds nothing. */
  take(stateHash: string): Promise<SourceLaunchRow | undefined> {
    return this.db
      .updateTable('source_launches')
      .set({ used_at: sql`now()` })
      .where('state_hash', '=', stateHash)
      .where('used_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }
}

/** The sync job's side: connections of every organisation that are due, each claimed by one process. */
export class SourceSyncJobRepository {
  constructor(private readonly db: Db) {}

  /** Due connections, claimed for `leaseMinutes` (SKIP LOCKED: two processes never take the same). */
  async claimDue(limit: number, leaseMinutes = 15): Promise<SourceConnectionRow[]> {
    const { rows } = await sql<SourceConnectionRow>`
      update source_connections set claimed_until = now() + make_interval(mins => ${leaseMinutes}), status = 'syncing', updated_at = now()
       where id in (
         select c.id from source_connections c join fhir_sources s on s.id = c.source_id
          where c.next_sync_at <= now() and s.enabled
            and c.status not in ('needs_reconnect', 'disconnected')
            and (c.claimed_until is null or c.claimed_until < now())
          order by c.next_sync_at limit ${limit}
          for update of c skip locked)
      returning *`.execute(this.db);
    return rows;
  }

  /** The claim kept while a long sync goes on. */
  async extend(id: number, leaseMinutes = 15): Promise<void> {
    await sql`update source_connections set claimed_until = now() + make_interval(mins => ${leaseMinutes}) where id = ${id} and status = 'syncing'`.execute(this.db);
  }

  source(id: number): Promise<FhirSourceRow | undefined> {
    return this.db.selectFrom('fhir_sources').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** New tokens after a refresh, kept at once (a refresh token may be single-use). */
  async keepTokens(id: number, tokens: { access_token_sealed: string; refresh_token_sealed: string | null; token_expires_at: Date | null; scope: string }): Promise<void> {
    await this.db.updateTable('source_connections').set({ ...tokens, updated_at: sql`now()` }).where('id', '=', id).where('status', '<>', 'disconnected').execute();
  }

  /** The run's end: its status, its summary, when the next one is due; the claim let go. A disconnection meanwhile stays. */
  async finish(id: number, outcome: { status: SourceConnectionStatus; problem: string | null; run: SyncRunSummary | null; synced: boolean; full: boolean; cursor?: string | null; nextSyncAt: Date | null }): Promise<void> {
    await this.db
      .updateTable('source_connections')
      .set({
        status: outcome.status,
        problem: outcome.problem,
        ...(outcome.run ? { last_run: JSON.stringify(outcome.run) } : {}),
        ...(outcome.synced ? { last_synced_at: sql`now()` } : {}),
        ...(outcome.synced && outcome.full ? { last_full_sync_at: sql`now()` } : {}),
        ...(outcome.synced ? { since_cursor: outcome.cursor ?? null } : {}),
        next_sync_at: outcome.nextSyncAt,
        claimed_until: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '=', 'syncing')
      .execute();
  }
}
