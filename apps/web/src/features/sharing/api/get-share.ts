import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Share } from '@healthbook/shared/contracts/sharing';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/sharing/{id}/ */
export const getShare = (id: number) => api.get<Share>(`/api/v1/sharing/${id}/`);

export const shareQueryOptions = (id: number) => queryOptions({ queryKey: queryKeys.shares.detail(id), queryFn: () => getShare(id) });

export const useShare = (id: number) => useQuery(shareQueryOptions(id));
