import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentDetail } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/appointments/{availability_det_id}/: the appointment of a slot (the event id of the calendar). */
export const getAppointment = (eventId: number) => api.get<AppointmentDetail>(`/api/v1/appointments/${eventId}/`);

export const appointmentQueryOptions = (eventId: number) => queryOptions({ queryKey: queryKeys.telehealth.appointment(eventId), queryFn: () => getAppointment(eventId) });

export const useAppointment = (eventId: number, enabled = true) => useQuery({ ...appointmentQueryOptions(eventId), enabled });
