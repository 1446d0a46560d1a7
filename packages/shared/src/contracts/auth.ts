import { z } from 'zod';
import { isValidEmail } from '../validation';

/** Sign-in form and body (POST /api/v1/login/). Messages are locale keys of the validation namespace. */
export const LoginFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { message: 'validation:emailRequired' })
    .refine(isValidEmail, { message: 'validation:emailInvalid' }),
  password: z.string().min(1, { message: 'validation:passwordRequired' }),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;
