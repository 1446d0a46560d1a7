import type { MfaDevice, MfaDeviceType } from '@healthbook/shared/contracts/mfa';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { refreshUser, setUser } from '../../../lib/auth';
import { completeWizardStep } from './wizard';

/**
 * Second factors: register (email: a code is e-mailed; google: a provisioning link for the QR
 * code), confirm with a code (POST /api/v1/verify/ with the full token), remove.
 */
export const registerMfaDevice = (deviceType: MfaDeviceType) =>
  api.post<MfaDevice>(deviceType === 'email' ? '/api/v1/mfa/register/hotp/' : '/api/v1/mfa/register/totp/', { device_type: deviceType });

/** A correct code enables the device: the answer is the user, now with has_mfa_enabled. */
export const confirmMfaDevice = async (code: string): Promise<UserDto> => {
  const user = await api.post<UserDto>('/api/v1/verify/', { code });
  setUser(user);
  void completeWizardStep('mfa').catch(() => undefined);
  return user;
};

/** DELETE /api/v1/mfa/{uuid}, then the user again (has_mfa_enabled follows the devices left). */
export const removeMfaDevice = async (uuid: string): Promise<void> => {
  await api.delete(`/api/v1/mfa/${encodeURIComponent(uuid)}`);
  await refreshUser().catch(() => undefined);
};

/** Abandons a registration that was not confirmed (the unconfirmed device is deleted). */
export const cancelMfaRegistration = (uuid: string) => api.delete(`/api/v1/mfa/${encodeURIComponent(uuid)}`).then(() => undefined);
