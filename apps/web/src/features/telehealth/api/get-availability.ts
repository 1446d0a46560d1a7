import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderAvailability } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface AvailabilityWindow {
  providerId: number;
  /** First and last day (YYYY-MM-DD, in tz), both included. */
  start: string;
  end: string;
  tz: string;
}

/** GET /api/v1/provider/{id}/availability/?start=&end=&tz=: the free future slots of a window. */
export const getAvailability = ({ providerId, start, end, tz }: AvailabilityWindow) =>
  api.get<ProviderAvailability>(`/api/v1/provider/${providerId}/availability/?${new URLSearchParams({ start, end, tz }).toString()}`);

export const availabilityQueryOptions = (window: AvailabilityWindow) =>
  queryOptions({
    queryKey: queryKeys.telehealth.availability(window.providerId, window.start, window.end, window.tz),
    queryFn: () => getAvailability(window),
    placeholderData: keepPreviousData,
    // Slots go as others book them: read again whenever the page is looked at anew.
    staleTime: 0,
  });

export const useAvailability = (window: AvailabilityWindow, enabled = true) => useQuery({ ...availabilityQueryOptions(window), enabled });
