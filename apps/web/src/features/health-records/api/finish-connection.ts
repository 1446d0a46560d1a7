import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SourceCallbackBody, SourceConnection } from '@healthbook/shared/contracts/sources';
import { api } from '../../../lib/api-client';
import { ONE_TIME } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/sources/callback/: the provider's answer (code or error, with the state) handed to the server; 400 {detail, code} when it failed. */
export const finishConnection = (body: SourceCallbackBody) => api.post<SourceConnection>('/api/v1/sources/callback/', body);

/**
 * Sent once per callback and kept: the state works once, so neither a remount (StrictMode,
 * coming back to the page) nor a retry may send it again.
 */
export const finishConnectionQueryOptions = (body: SourceCallbackBody) =>
  queryOptions({ queryKey: queryKeys.sourceCallback.forState(body.state), queryFn: () => finishConnection(body), ...ONE_TIME });

export const useFinishConnection = (body: SourceCallbackBody | null) => useQuery({ ...finishConnectionQueryOptions(body ?? { state: '' }), enabled: body !== null });
