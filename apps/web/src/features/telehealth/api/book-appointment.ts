import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentDetail, BookAppointmentBody } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/provider/book_appointment/: 201 with the appointment; 409 when the slot was just taken. */
export const bookAppointment = (body: BookAppointmentBody) => api.post<AppointmentDetail>('/api/v1/provider/book_appointment/', body);

/** Booking (or failing to: the slot was taken) changes the free slots and the providers' next ones: all read again. */
export function useBookAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookAppointment,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.telehealth.all }),
  });
}
