import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentDetail, CancelAppointmentBody } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { refreshUser } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/** The appointment as the calendar knows it (an item of a window, or the user's patient_appointment_details). */
export interface CancellableAppointment {
  provider_id: number;
  availability_det_id: number;
  appointment_date?: string | null;
}

/** POST /api/v1/provider/cancel_appointment/ (the specification's payload); answers the appointment, cancelled. */
export const cancelAppointment = ({ appointment, notes }: { appointment: CancellableAppointment; notes?: string }) =>
  api.post<AppointmentDetail>('/api/v1/provider/cancel_appointment/', {
    provider_id: appointment.provider_id,
    availability_det_id: appointment.availability_det_id,
    cancellation_notes: notes?.trim() ? notes.trim() : null,
    appointment_date: appointment.appointment_date ?? null,
    is_cancel_from_provider: false,
  } satisfies CancelAppointmentBody);

/** The calendar, the appointment, the telehealth pages and the user's list of appointments (GET /api/v1/me/) are read again. */
export function useCancelAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelAppointment,
    onSuccess: (detail) => {
      queryClient.setQueryData(queryKeys.appointments.detail(detail.availability_det_id), detail);
      void refreshUser().catch(() => undefined);
      // The slot is free again: the telehealth pages' slots and lists too.
      return Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.calendar.all }), queryClient.invalidateQueries({ queryKey: queryKeys.telehealth.all })]);
    },
  });
}
