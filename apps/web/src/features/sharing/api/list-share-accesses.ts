import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShareAccess } from '@healthbook/shared/contracts/sharing';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/sharing/{id}/accesses/: every opening of the share, newest first (who saw my record). */
export const listShareAccesses = (id: number) => api.get<ShareAccess[]>(`/api/v1/sharing/${id}/accesses/`);

export const shareAccessesQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.shares.accesses(id), queryFn: () => listShareAccesses(id) });

export const useShareAccesses = (id: number) => useQuery(shareAccessesQueryOptions(id));
