import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LinkedAccount } from '@healthbook/shared/contracts/connection-hub';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/connection-hub/links/: the linked accounts, oldest first. */
export const listLinks = () => api.get<LinkedAccount[]>('/api/v1/connection-hub/links/');

export const linksQueryOptions = () => queryOptions({ queryKey: queryKeys.connectionHub.links(), queryFn: listLinks });

/** The linked accounts; `enabled: false` where the feature is off (the avatar menu asks only then). */
export const useLinks = (enabled = true) => useQuery({ ...linksQueryOptions(), enabled });
