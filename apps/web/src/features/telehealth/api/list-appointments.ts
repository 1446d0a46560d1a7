import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentDetail } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { CHANGED_BY_OTHERS } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface AppointmentListParams {
  start?: string | undefined;
  end?: string | undefined;
  tz: string;
  status?: 'booked' | 'cancelled' | undefined;
}

/** GET /api/v1/appointments/?start=&end=&tz=&status=: the patient's appointments. */
export const listAppointments = (params: AppointmentListParams) => {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) q.set(key, value);
  return api.get<AppointmentDetail[]>(`/api/v1/appointments/?${q.toString()}`);
};

export const appointmentsQueryOptions = (params: AppointmentListParams) =>
  queryOptions({ queryKey: queryKeys.telehealth.appointments({ ...params }), queryFn: () => listAppointments(params), ...CHANGED_BY_OTHERS });

/** The patient's booked appointments from now on, soonest first. */
export const useUpcomingAppointments = (params: AppointmentListParams) =>
  useQuery({
    ...appointmentsQueryOptions(params),
    select: (list) => list.filter((a) => a.status === 'booked' && Date.parse(a.start_time) > Date.now()).sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time)),
  });
