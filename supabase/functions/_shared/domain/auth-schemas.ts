// Validation of the account forms (spec section 5). The SPA's forms and the `api` function
// validate with these same schemas; the messages are the spec's words.
import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;

export const authMessages = {
  invalidEmail: 'Invalid email address',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordRequired: 'Password is required',
  passwordsDontMatch: "Passwords don't match",
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
} as const;

const email = z.string().trim().pipe(z.email(authMessages.invalidEmail));
const newPassword = z.string().min(PASSWORD_MIN_LENGTH, authMessages.passwordTooShort).max(72, 'Password must be at most 72 characters');

/** What the server accepts: POST /api/auth/register. */
export const registerPayloadSchema = z.object({
  email,
  password: newPassword,
  firstName: z.string().trim().min(1, authMessages.firstNameRequired).max(100),
  lastName: z.string().trim().min(1, authMessages.lastNameRequired).max(100),
});
export type RegisterPayload = z.infer<typeof registerPayloadSchema>;

/** The /register form: the payload plus a confirmation. */
export const registerFormSchema = registerPayloadSchema
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    message: authMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const loginSchema = z.object({
  email,
  password: z.string().min(1, authMessages.passwordRequired).max(72),
});
export type LoginPayload = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordPayload = z.infer<typeof forgotPasswordSchema>;

/** What the server accepts: POST /api/auth/reset-password. */
export const resetPasswordPayloadSchema = z.object({
  token: z.string().trim().min(1, 'Reset token is required').max(200),
  password: newPassword,
});

export const resetPasswordFormSchema = z
  .object({ password: newPassword, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    message: authMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
