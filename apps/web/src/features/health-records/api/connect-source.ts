import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/v1/sources/connect/: the address of the provider's authorisation page, where the browser goes next. */
export const connectSource = (sourceId: number) => api.post<{ authorize_url: string }>('/api/v1/sources/connect/', { source_id: sourceId });

/** Nothing to read again: the page is left for the provider's. */
export const useConnectSource = () => useMutation({ mutationFn: connectSource });
