// Maps GoTrue's paths (without the gateway's /auth/v1 prefix) to handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthContext, RouteHandler } from './context.ts';
import { AuthError, notFound, sendError } from './errors.ts';
import * as account from './routes/account.ts';
import * as admin from './routes/admin.ts';
import * as disabled from './routes/disabled.ts';
import * as email from './routes/email.ts';
import * as general from './routes/general.ts';

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: RouteHandler;
}

function route(method: string, path: string, handler: RouteHandler): Route {
  const names: string[] = [];
  const source = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${source}/?$`), names, handler };
}

const routes: Route[] = [
  route('GET', '/health', general.health),
  route('GET', '/settings', general.settings),
  route('GET', '/.well-known/jwks.json', general.jwks),
  route('POST', '/signup', account.signup),
  route('POST', '/token', account.token),
  route('GET', '/user', account.getUser),
  route('PUT', '/user', account.updateUser),
  route('POST', '/logout', account.logout),
  route('POST', '/recover', email.recover),
  route('POST', '/otp', email.otp),
  route('POST', '/magiclink', email.otp),
  route('POST', '/verify', email.verifyPost),
  route('GET', '/verify', email.verifyGet),
  route('GET', '/admin/users', admin.listUsers),
  route('POST', '/admin/users', admin.createUser),
  route('GET', '/admin/users/{id}', admin.getUser),
  route('PUT', '/admin/users/{id}', admin.updateUser),
  route('DELETE', '/admin/users/{id}', admin.deleteUser),
  route('POST', '/admin/generate_link', admin.generateLink),
  route('POST', '/invite', admin.invite),
  route('POST', '/resend', email.resend),
  route('GET', '/reauthenticate', account.reauthenticate),
  route('POST', '/sso', disabled.sso),
  route('GET', '/sso/saml/metadata', disabled.sso),
  route('POST', '/sso/saml/acs', disabled.sso),
  route('GET', '/user/identities/authorize', disabled.identities),
  route('DELETE', '/user/identities/{identity_id}', disabled.identities),
  route('POST', '/factors', disabled.enrollFactor),
  route('DELETE', '/factors/{factor_id}', disabled.factor),
  route('POST', '/factors/{factor_id}/challenge', disabled.factor),
  route('POST', '/factors/{factor_id}/verify', disabled.factor),
];

export function createRouter(ctx: AuthContext): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://auth.local');
      const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
      let pathMatched = false;
      for (const candidate of routes) {
        const match = candidate.pattern.exec(url.pathname);
        if (!match) continue;
        pathMatched = true;
        if (candidate.method !== method) continue;
        const params = Object.fromEntries(
          candidate.names.map((name, index) => [name, decodeURIComponent(match[index + 1])]),
        );
        await candidate.handler(ctx, req, res, url, params);
        return;
      }
      if (pathMatched) throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
      throw notFound('not_found', 'Not Found');
    } catch (error) {
      sendError(req, res, error, ctx.log);
    }
  };
}
