import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentDetail } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { CHANGED_BY_OTHERS } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface ProviderAppointmentParams {
  start: string;
  end: string;
  tz: string;
  status?: 'booked' | 'cancelled' | undefined;
}

/** GET /api/v1/provider/me/appointments/?start=&end=&tz=&status=: bookings and cancellations of the provider's slots. */
export const listProviderAppointments = (params: ProviderAppointmentParams) => {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) q.set(key, value);
  return api.get<AppointmentDetail[]>(`/api/v1/provider/me/appointments/?${q.toString()}`);
};

export const providerAppointmentsQueryOptions = (params: ProviderAppointmentParams) =>
  queryOptions({
    queryKey: queryKeys.providerConsole.appointments({ ...params }),
    queryFn: () => listProviderAppointments(params),
    placeholderData: keepPreviousData,
    ...CHANGED_BY_OTHERS,
  });

export const useProviderAppointments = (params: ProviderAppointmentParams) => useQuery(providerAppointmentsQueryOptions(params));
