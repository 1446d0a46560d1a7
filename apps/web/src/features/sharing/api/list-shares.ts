import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Share } from '@healthbook/shared/contracts/sharing';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/sharing/: the patient's shares, newest first. */
export const listShares = () => api.get<Share[]>('/api/v1/sharing/');

export const sharesQueryOptions = () => queryOptions({ queryKey: queryKeys.shares.list(), queryFn: listShares });

export const useShares = () => useQuery(sharesQueryOptions());
