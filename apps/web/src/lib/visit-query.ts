import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Visit } from '@healthbook/shared/contracts/appointments';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** GET /api/v1/appointments/{slot}/visit/: an appointment's video visit (the visit's page, the appointment's page). */
export const getVisit = (slot: number) => api.get<Visit>(`/api/v1/appointments/${slot}/visit/`);

/** Read again every 30 seconds until it opens, so "Join" appears at its time without a reload. */
export const visitQueryOptions = (slot: number) =>
  queryOptions({
    queryKey: queryKeys.appointments.visit(slot),
    queryFn: () => getVisit(slot),
    refetchInterval: (query) => (query.state.data?.phase === 'early' ? 30_000 : false),
    retry: false,
  });

export const useVisit = (slot: number, enabled = true) => useQuery({ ...visitQueryOptions(slot), enabled });
