import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentDetail, BookAppointmentBody } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { refreshUser } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/provider/book_appointment/: 201 with the appointment; 409 when the slot was just taken. */
export const bookAppointment = (body: BookAppointmentBody) => api.post<AppointmentDetail>('/api/v1/provider/book_appointment/', body);

/**
 * Booking (or failing to: the slot was taken) changes the free slots and the providers' next
 * ones, and a booking the calendar and the user's appointments (GET /api/v1/me/): all read again.
 */
export function useBookAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookAppointment,
    onSuccess: () => {
      void refreshUser().catch(() => undefined);
      return Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.calendar.all }), queryClient.invalidateQueries({ queryKey: queryKeys.appointments.all })]);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.telehealth.all }),
  });
}
