import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentDetail } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/appointments/{availability_det_id}/ */
export const getAppointment = (availabilityDetId: number) => api.get<AppointmentDetail>(`/api/v1/appointments/${availabilityDetId}/`);

export const appointmentQueryOptions = (availabilityDetId: number) =>
  queryOptions({ queryKey: queryKeys.appointments.detail(availabilityDetId), queryFn: () => getAppointment(availabilityDetId) });

export const useAppointment = (availabilityDetId: number) => useQuery(appointmentQueryOptions(availabilityDetId));
