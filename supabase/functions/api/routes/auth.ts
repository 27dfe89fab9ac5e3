// /api/auth/*: the spec's account paths. Auth itself is Supabase Auth; these paths keep the
// spec's payloads and answer `{ message }` errors with fitting 4xx statuses.
import { Hono } from 'hono';
import {
  forgotPasswordSchema,
  loginSchema,
  registerPayloadSchema,
  resetPasswordPayloadSchema,
} from '../../_shared/domain/auth-schemas.ts';
import { settings } from '../../_shared/config.ts';
import { HttpError, parseJsonBody } from '../../_shared/http-error.ts';
import {
  accessTokenOf,
  callerAddress,
  clearSessionCookies,
  loadAccount,
  loadCallerAccount,
  requireCaller,
  setSessionCookies,
} from '../../_shared/session.ts';
import { publicClient, serviceClient } from '../../_shared/supabase-clients.ts';

const siteUrl = () => settings().siteUrl;
const invalidResetLinkMessage = 'This password reset link is invalid or has expired.';

export const authRoutes = new Hono();

authRoutes.get('/user', async (c) => {
  const caller = await requireCaller(c);
  return c.json(await loadCallerAccount(caller));
});

authRoutes.post('/register', async (c) => {
  const payload = await parseJsonBody(c.req.raw, registerPayloadSchema);
  const { data, error } = await publicClient(callerAddress(c)).auth.signUp({
    email: payload.email,
    password: payload.password,
    options: { data: { first_name: payload.firstName, last_name: payload.lastName } },
  });
  if (error) {
    const taken = error.code === 'user_already_exists' || error.code === 'email_exists';
    throw new HttpError(taken ? 409 : 400, error.message);
  }
  if (!data.session) throw new HttpError(400, 'Check your e-mail to confirm your account, then sign in.');
  setSessionCookies(c, data.session);
  return c.json({ user: await loadAccount(data.session.access_token) }, 201);
});

authRoutes.post('/login', async (c) => {
  const payload = await parseJsonBody(c.req.raw, loginSchema);
  const { data, error } = await publicClient(callerAddress(c)).auth.signInWithPassword(payload);
  if (error || !data.session) {
    const status = error?.status === 429 ? 429 : 401;
    throw new HttpError(status, error?.message ?? 'Invalid login credentials');
  }
  setSessionCookies(c, data.session);
  return c.json(await loadAccount(data.session.access_token));
});

authRoutes.post('/logout', async (c) => {
  const token = accessTokenOf(c);
  // Ending the session in Auth revokes its refresh tokens; an already ended one is fine.
  if (token) await serviceClient().auth.admin.signOut(token, 'local');
  clearSessionCookies(c);
  return c.json({ message: 'Logged out' });
});

authRoutes.post('/forgot-password', async (c) => {
  const { email } = await parseJsonBody(c.req.raw, forgotPasswordSchema);
  const { error } = await publicClient(callerAddress(c)).auth.resetPasswordForEmail(email, {
    redirectTo: `${siteUrl()}/reset-password`,
  });
  // Same answer whether or not the address has an account: no account enumeration. Auth's
  // per-address e-mail limit only ever trips for an existing account, so it answers as success;
  // the per-caller request limit treats every address alike and stays a 429.
  if (error && error.code !== 'over_email_send_rate_limit')
    throw new HttpError(error.status === 429 ? 429 : 400, error.message);
  return c.json({ message: 'If an account exists for that e-mail, a password reset link is on its way.' });
});

authRoutes.post('/reset-password', async (c) => {
  const { token, password } = await parseJsonBody(c.req.raw, resetPasswordPayloadSchema);
  const client = publicClient(callerAddress(c));
  const { data, error } = await client.auth.verifyOtp({ token_hash: token, type: 'recovery' });
  if (error || !data.session) throw new HttpError(400, invalidResetLinkMessage);
  const updated = await client.auth.updateUser({ password });
  // The recovery session exists only to change the password: end it either way.
  await client.auth.signOut({ scope: 'local' });
  if (updated.error) throw new HttpError(updated.error.status === 422 ? 422 : 400, updated.error.message);
  return c.json({ message: 'Password updated' });
});
