import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderTypeReasons } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/peercoaching/providertypereasons/: who a patient may chat with, and about what (labels in the reader's language). */
export const getProviderTypeReasons = () => api.get<ProviderTypeReasons[]>('/api/v1/peercoaching/providertypereasons/');

export const providerTypeReasonsQueryOptions = (language: string) =>
  queryOptions({ queryKey: queryKeys.chat.reasons(language), queryFn: getProviderTypeReasons, staleTime: 5 * 60_000 });

export const useProviderTypeReasons = (language: string) => useQuery(providerTypeReasonsQueryOptions(language));
