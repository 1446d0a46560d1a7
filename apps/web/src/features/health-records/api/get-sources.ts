import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PatientSources } from '@healthbook/shared/contracts/sources';
import { api } from '../../../lib/api-client';
import { CHANGED_BY_OTHERS } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often the connections are asked again while a sync runs (ms). */
export const SYNC_POLL_MS = 2_000;

/** GET /api/v1/sources/: the providers the organisation offers the viewed patient, and their connections. */
export const getSources = () => api.get<PatientSources>('/api/v1/sources/');

/** A sync is under way somewhere: its progress is followed. */
export const syncing = (data: PatientSources | undefined) => data?.connections.some((c) => c.status === 'pending' || c.status === 'syncing') === true;

/**
 * The sync job changes the connections behind the page: asked again every 2 s while one is
 * pending or syncing, otherwise as any list others change (when the page shows, each minute).
 */
export const sourcesQueryOptions = (language: string) =>
  queryOptions({
    queryKey: queryKeys.sources.patient(language),
    queryFn: getSources,
    ...CHANGED_BY_OTHERS,
    refetchInterval: (query) => (syncing(query.state.data) ? SYNC_POLL_MS : CHANGED_BY_OTHERS.refetchInterval),
  });

export const useSources = (language: string) => useQuery(sourcesQueryOptions(language));
