// Maps GoTrue's paths (without the gateway's /auth/v1 prefix) to handlers.
import { createRouter, type Method, type Router } from '../lib/router.ts';
import type { AuthContext, RouteHandler } from './context.ts';
import { AuthError, apiVersion, apiVersionHeader, notFound, sendError } from './errors.ts';
import * as account from './routes/account.ts';
import * as admin from './routes/admin.ts';
import * as disabled from './routes/disabled.ts';
import * as email from './routes/email.ts';
import * as general from './routes/general.ts';

const routes: Array<[Method, string, RouteHandler]> = [
  ['GET', '/health', general.health],
  ['GET', '/settings', general.settings],
  ['GET', '/.well-known/jwks.json', general.jwks],
  ['POST', '/signup', account.signup],
  ['POST', '/token', account.token],
  ['GET', '/user', account.getUser],
  ['PUT', '/user', account.updateUser],
  ['POST', '/logout', account.logout],
  ['POST', '/recover', email.recover],
  ['POST', '/otp', email.otp],
  ['POST', '/magiclink', email.otp],
  ['POST', '/verify', email.verifyPost],
  ['GET', '/verify', email.verifyGet],
  ['GET', '/admin/users', admin.listUsers],
  ['POST', '/admin/users', admin.createUser],
  ['GET', '/admin/users/:id', admin.getUser],
  ['PUT', '/admin/users/:id', admin.updateUser],
  ['DELETE', '/admin/users/:id', admin.deleteUser],
  ['POST', '/admin/generate_link', admin.generateLink],
  ['POST', '/invite', admin.invite],
  ['POST', '/resend', email.resend],
  ['GET', '/reauthenticate', account.reauthenticate],
  ['POST', '/sso', disabled.sso],
  ['GET', '/sso/saml/metadata', disabled.sso],
  ['POST', '/sso/saml/acs', disabled.sso],
  ['GET', '/user/identities/authorize', disabled.identities],
  ['DELETE', '/user/identities/:identity_id', disabled.identities],
  ['POST', '/factors', disabled.enrollFactor],
  ['DELETE', '/factors/:factor_id', disabled.factor],
  ['POST', '/factors/:factor_id/challenge', disabled.factor],
  ['POST', '/factors/:factor_id/verify', disabled.factor],
];

export function createAuthRouter(ctx: AuthContext): Router['handle'] {
  const router = createRouter({
    ignoreTrailingSlash: true,
    headers: { [apiVersionHeader]: apiVersion },
    notFound: (req, res, { allowed }) =>
      sendError(
        req,
        res,
        allowed.length ? new AuthError(405, 'method_not_allowed', 'Method Not Allowed') : notFound('not_found', 'Not Found'),
      ),
    onError: (req, res, error) => sendError(req, res, error, ctx.log),
  });
  for (const [method, path, handler] of routes)
    router.on(method, path, (req, res, params, url) => handler(ctx, req, res, url, params));
  return router.handle;
}
