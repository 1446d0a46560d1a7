import { z } from 'zod';

export const MfaDeviceTypeSchema = z.enum(['email', 'google']);
export type MfaDeviceType = z.infer<typeof MfaDeviceTypeSchema>;

export const RegisterMfaBodySchema = z.object({ device_type: MfaDeviceTypeSchema });

export const MfaDeviceSchema = z
  .object({
    uuid: z.string(),
    device_type: MfaDeviceTypeSchema,
    confirmed: z.boolean(),
    provisioning_url: z.string().optional(),
  })
  .meta({ id: 'MfaDevice' });
export type MfaDevice = z.infer<typeof MfaDeviceSchema>;

export const MfaUuidParamsSchema = z.object({ uuid: z.uuid() });
