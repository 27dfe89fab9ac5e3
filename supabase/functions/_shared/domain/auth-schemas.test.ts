import { describe, expect, it } from 'vitest';
import { forgotPasswordSchema, loginSchema, registerFormSchema, resetPasswordFormSchema } from './auth-schemas.ts';

function messages(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

const validRegistration = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', password: 'correct-horse', confirmPassword: 'correct-horse' };

describe('register form', () => {
  it('accepts a complete form', () => {
    expect(registerFormSchema.safeParse(validRegistration).success).toBe(true);
  });
  it("gives each field the spec's message", () => {
    const result = registerFormSchema.safeParse({ firstName: '', lastName: ' ', email: 'not-an-email', password: 'short', confirmPassword: 'short' });
    expect(messages(result)).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Invalid email address',
      password: 'Password must be at least 8 characters',
    });
  });
  it('requires the confirmation to match', () => {
    const result = registerFormSchema.safeParse({ ...validRegistration, confirmPassword: 'something-else' });
    expect(messages(result)).toEqual({ confirmPassword: "Passwords don't match" });
  });
});

describe('login form', () => {
  it('requires a valid e-mail and a password', () => {
    expect(messages(loginSchema.safeParse({ email: 'x', password: '' }))).toEqual({
      email: 'Invalid email address',
      password: 'Password is required',
    });
  });
  it('accepts any non-empty password', () => {
    expect(loginSchema.safeParse({ email: 'ada@example.com', password: 'x' }).success).toBe(true);
  });
});

describe('forgot and reset password forms', () => {
  it('forgot password needs a valid e-mail', () => {
    expect(messages(forgotPasswordSchema.safeParse({ email: 'nope' }))).toEqual({ email: 'Invalid email address' });
  });
  it('reset needs 8 characters and a matching confirmation', () => {
    expect(messages(resetPasswordFormSchema.safeParse({ password: 'short', confirmPassword: 'short' }))).toEqual({
      password: 'Password must be at least 8 characters',
    });
    expect(messages(resetPasswordFormSchema.safeParse({ password: 'long-enough', confirmPassword: 'different!' }))).toEqual({
      confirmPassword: "Passwords don't match",
    });
  });
});
