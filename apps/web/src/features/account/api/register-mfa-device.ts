import { useMutation } from '@tanstack/react-query';
import type { MfaDevice, MfaDeviceType } from '@healthbook/shared/contracts/mfa';
import { api } from '../../../lib/api-client';
import type { IdentityProof } from '../../../lib/reauth';

export type RegisterMfaDeviceBody = { device_type: MfaDeviceType } & IdentityProof;

/**
 * POST /api/v1/mfa/register/hotp/ (email: a code is e-mailed) or /totp/ (google: the answer
 * carries the provisioning link of the QR code). It asks for the password again (or a code).
 */
export const registerMfaDevice = (body: RegisterMfaDeviceBody) =>
  api.post<MfaDevice>(body.device_type === 'email' ? '/api/v1/mfa/register/hotp/' : '/api/v1/mfa/register/totp/', body);

export const useRegisterMfaDevice = () => useMutation({ mutationFn: registerMfaDevice });
