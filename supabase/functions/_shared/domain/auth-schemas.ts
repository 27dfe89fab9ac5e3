// Validation of the account forms (spec section 5). The SPA's forms and the `api` function
// validate with these same schemas; the messages are the spec's words.
// zod/mini keeps the SPA's /login chunk small (its JS budget); its English locale
// gives the messages not set here the same words classic zod uses.
import { z } from 'zod/mini';

z.config(z.locales.en());

export const PASSWORD_MIN_LENGTH = 8;

const authMessages = {
  invalidEmail: 'Invalid email address',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordRequired: 'Password is required',
  passwordsDontMatch: "Passwords don't match",
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
} as const;

const email = z.pipe(z.string().check(z.trim()), z.email(authMessages.invalidEmail));
const newPassword = z.string().check(z.minLength(PASSWORD_MIN_LENGTH, authMessages.passwordTooShort), z.maxLength(72, 'Password must be at most 72 characters'));
const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>((values) => values.password === values.confirmPassword, {
  message: authMessages.passwordsDontMatch,
  path: ['confirmPassword'],
});

/** What the server accepts: POST /api/auth/register. */
export const registerPayloadSchema = z.object({
  email,
  password: newPassword,
  firstName: z.string().check(z.trim(), z.minLength(1, authMessages.firstNameRequired), z.maxLength(100)),
  lastName: z.string().check(z.trim(), z.minLength(1, authMessages.lastNameRequired), z.maxLength(100)),
});
export type RegisterPayload = z.infer<typeof registerPayloadSchema>;

/** The /register form: the payload plus a confirmation. */
export const registerFormSchema = z.extend(registerPayloadSchema, { confirmPassword: z.string() }).check(passwordsMatch);
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const loginSchema = z.object({
  email,
  password: z.string().check(z.minLength(1, authMessages.passwordRequired), z.maxLength(72)),
});
export type LoginPayload = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordPayload = z.infer<typeof forgotPasswordSchema>;

/** What the server accepts: POST /api/auth/reset-password. */
export const resetPasswordPayloadSchema = z.object({
  token: z.string().check(z.trim(), z.minLength(1, 'Reset token is required'), z.maxLength(200)),
  password: newPassword,
});

export const resetPasswordFormSchema = z.object({ password: newPassword, confirmPassword: z.string() }).check(passwordsMatch);
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
