import { z } from 'zod';
import { IdParamSchema, IdSchema, OrgRefSchema } from './common';
import { DEFAULT_SOURCE_SCOPES, SOURCE_CHECKS, SOURCE_CONNECTION_STATUSES } from '../sources';

export * from '../sources';

/**
 * Records that flow in from providers (issue 28): an organisation's catalogue of SMART on FHIR
 * sources (its administrators keep it), and a patient's connections to them (a standalone
 * launch with PKCE, then syncs). Client secrets and tokens never leave the server.
 */

export const SourceCheckSchema = z.object({
  check: z.enum(SOURCE_CHECKS),
  ok: z.boolean(),
  detail: z.string().describe('what was found, or what failed, in the reader’s language'),
});
export type SourceCheck = z.infer<typeof SourceCheckSchema>;

export const SourceCheckResultSchema = z.object({ ok: z.boolean(), checks: z.array(SourceCheckSchema) }).meta({ id: 'SourceCheckResult' });
export type SourceCheckResult = z.infer<typeof SourceCheckResultSchema>;

const baseUrl = z.string().trim().min(1, { message: 'validation:required' }).max(500, { message: 'validation:tooLong' });
const name = z.string().trim().min(1, { message: 'validation:required' }).max(120, { message: 'validation:tooLong' });
const clientId = z.string().trim().min(1, { message: 'validation:required' }).max(300, { message: 'validation:tooLong' });
const secret = z.string().min(1, { message: 'validation:required' }).max(1000, { message: 'validation:tooLong' });
const scopes = z.string().trim().min(1, { message: 'validation:required' }).max(1000, { message: 'validation:tooLong' });

export const SourceCheckBodySchema = z.object({ fhir_base_url: baseUrl, scopes: scopes.optional().describe(`the scopes to check (default: ${DEFAULT_SOURCE_SCOPES})`) }).meta({ id: 'SourceCheckBody' });

export const CreateFhirSourceBodySchema = z
  .object({
    org_id: OrgRefSchema.optional().describe('the organisation (super admins; default: your own)'),
    name,
    fhir_base_url: baseUrl.describe('the FHIR R4 base; its `.well-known/smart-configuration` is read and checked'),
    client_id: clientId,
    client_secret: secret.optional().describe('a confidential client’s secret: kept encrypted, never answered back'),
    scopes: scopes.optional().describe(`default: ${DEFAULT_SOURCE_SCOPES}`),
  })
  .meta({ id: 'CreateFhirSourceBody' });
export type CreateFhirSourceBody = z.input<typeof CreateFhirSourceBodySchema>;

export const UpdateFhirSourceBodySchema = z
  .object({
    name: name.optional(),
    fhir_base_url: baseUrl.optional().describe('a new base is checked again'),
    client_id: clientId.optional(),
    client_secret: secret.nullable().optional().describe('absent: kept; null: the client becomes a public one'),
    scopes: scopes.optional(),
    enabled: z.boolean().optional().describe('a disabled source is offered to no patient and not synced'),
  })
  .meta({ id: 'UpdateFhirSourceBody' });
export type UpdateFhirSourceBody = z.input<typeof UpdateFhirSourceBodySchema>;

export const FhirSourceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    fhir_base_url: z.string(),
    client_id: z.string(),
    confidential: z.boolean().describe('a secret is kept (it is never shown)'),
    scopes: z.string(),
    enabled: z.boolean(),
    redirect_uri: z.string().describe('the address to register with the source as the client’s redirect URI'),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    capabilities: z.array(z.string()),
    scopes_supported: z.array(z.string()).nullable(),
    checked_at: z.string(),
    created_at: z.string(),
    connections: z.number().int().describe('patients connected to it'),
  })
  .meta({ id: 'FhirSource' });
export type FhirSource = z.infer<typeof FhirSourceSchema>;

export const FhirSourceListSchema = z.array(FhirSourceSchema);
export const SourceIdParamsSchema = z.object({ id: IdParamSchema });

/** What a sync did (the last run), as the patient reads it. */
export const SyncRunSchema = z.object({
  full: z.boolean().describe('every resource was read (false: only what changed since the last sync)'),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  deleted: z.number().int().describe('records whose resource the source no longer has (they stay, marked)'),
  documents: z.number().int(),
  skipped: z.array(z.object({ type: z.string(), count: z.number().int(), reason: z.string() })),
  refused: z.array(z.object({ type: z.string(), status: z.number().int() })).describe('resource types the source would not give (the rest went on)'),
  started_at: z.string(),
  finished_at: z.string(),
});
export type SyncRun = z.infer<typeof SyncRunSchema>;

export const SourceConnectionSchema = z
  .object({
    id: z.number().int(),
    source_id: z.number().int(),
    source_name: z.string(),
    status: z.enum(SOURCE_CONNECTION_STATUSES),
    problem: z.string().nullable().describe('why it needs reconnecting or failed, in the reader’s language'),
    last_synced_at: z.string().nullable(),
    records: z.number().int().describe('records of the patient this source brought'),
    last_run: SyncRunSchema.nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'SourceConnection' });
export type SourceConnection = z.infer<typeof SourceConnectionSchema>;

export const PatientSourcesSchema = z
  .object({
    sources: z.array(z.object({ id: z.number().int(), name: z.string(), connected: z.boolean() })).describe('the organisation’s sources a patient may connect'),
    connections: z.array(SourceConnectionSchema),
  })
  .meta({ id: 'PatientSources' });
export type PatientSources = z.infer<typeof PatientSourcesSchema>;

export const ConnectSourceBodySchema = z.object({ source_id: IdSchema, patient: IdSchema.optional() }).meta({ id: 'ConnectSourceBody' });
export type ConnectSourceBody = z.input<typeof ConnectSourceBodySchema>;
export const ConnectSourceAnswerSchema = z.object({ authorize_url: z.string().describe('where to send the browser: the source’s authorisation page') });

/** The callback's query as the browser brought it back (the web app posts it with the user's session). */
export const SourceCallbackBodySchema = z
  .object({
    state: z.string().max(200),
    code: z.string().max(4000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    iss: z.string().max(500).optional(),
  })
  .meta({ id: 'SourceCallbackBody' });
export type SourceCallbackBody = z.infer<typeof SourceCallbackBodySchema>;

export const SyncNowQuerySchema = z.object({
  full: z.enum(['true', 'false']).optional().describe('false: only what changed since the last sync, as the daily sync reads (default true: everything, which also finds what the source deleted)'),
});

export const DisconnectSourceQuerySchema = z.object({
  remove_records: z.enum(['true', 'false']).optional().describe('true: the records this source brought are deleted too (default: they stay)'),
});
