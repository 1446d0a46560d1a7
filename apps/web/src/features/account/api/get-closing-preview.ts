import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClosingPreview } from '@healthbook/shared/contracts/account-closing';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/me/closing/: the family members erased with the account, appointments cancelled, people told. */
export const getClosingPreview = () => api.get<ClosingPreview>('/api/v1/me/closing/');

export const closingPreviewQueryOptions = () => queryOptions({ queryKey: queryKeys.accountClosing.preview(), queryFn: getClosingPreview });

export const useClosingPreview = () => useQuery(closingPreviewQueryOptions());
