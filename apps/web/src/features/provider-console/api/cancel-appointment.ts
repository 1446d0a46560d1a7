import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentDetail, CancelAppointmentBody } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/provider/cancel_appointment/ (the specification's payload), from the provider's side. */
export const cancelAppointment = (appointment: AppointmentDetail, notes: string) =>
  api.post<unknown>('/api/v1/provider/cancel_appointment/', {
    provider_id: appointment.provider_id,
    availability_det_id: appointment.availability_det_id,
    cancellation_notes: notes.trim() || null,
    appointment_date: appointment.appointment_date,
    is_cancel_from_provider: true,
  } satisfies CancelAppointmentBody);

/** A cancellation frees the slot: the console's lists and the patients' slots are read again. */
export function useCancelAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointment, notes }: { appointment: AppointmentDetail; notes: string }) => cancelAppointment(appointment, notes),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.providerConsole.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.telehealth.all }),
      ]),
  });
}
