import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** DELETE /api/v1/mfa/{uuid} of a device not confirmed yet: abandons the enrolment (no password needed). */
export const cancelMfaRegistration = (uuid: string) => api.delete<null>(`/api/v1/mfa/${encodeURIComponent(uuid)}`);

export const useCancelMfaRegistration = () => useMutation({ mutationFn: cancelMfaRegistration });
