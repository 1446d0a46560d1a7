/**
 * Connected record sources (issue 28), the rules both sides read: the scopes asked by default,
 * the checks of a source, a connection's statuses, why a connection can fail at its callback,
 * the web page a source sends the browser back to, and what a patient may still change of a
 * record a source brought. The API's schemas are contracts/sources.ts.
 */

/** The scopes asked by default: SMART v2 patient-level reads, with a refresh token. */
export const DEFAULT_SOURCE_SCOPES = 'launch/patient openid fhirUser offline_access patient/*.rs';

/** The checks made of a source before it is kept, in order. */
export const SOURCE_CHECKS = ['address', 'reachable', 'discovery', 'endpoints', 'pkce', 'scopes'] as const;
export type SourceCheckKey = (typeof SOURCE_CHECKS)[number];

export const SOURCE_CONNECTION_STATUSES = ['pending', 'syncing', 'up_to_date', 'needs_reconnect', 'failed', 'disconnected'] as const;
export type SourceConnectionStatusKey = (typeof SOURCE_CONNECTION_STATUSES)[number];

/** Why a connection could not be made: each has its page. */
export const SOURCE_CALLBACK_FAILURES = ['denied', 'state', 'expired_code', 'source_down', 'no_patient'] as const;
export type SourceCallbackFailure = (typeof SOURCE_CALLBACK_FAILURES)[number];

/** The web app's page a source sends the browser back to (the redirect URI each organisation registers with its sources). */
export const sourceCallbackPath = (clientId: string) => `/${clientId}/health-record/connections/callback`;

/** The fields of a record that a connected source brought which its patient may still change. */
export const SOURCE_RECORD_EDITABLE = ['note', 'private'] as const;
