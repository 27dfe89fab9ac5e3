// GET /health and GET /settings.
import type { RouteHandler } from '../context.ts';
import { sendJson } from '../../lib/http.ts';

export const health: RouteHandler = async (_ctx, _req, res) => {
  sendJson(res, 200, {
    version: 'castloop-local',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  });
};

export const settings: RouteHandler = async (ctx, _req, res) => {
  const s = ctx.settings;
  sendJson(res, 200, {
    external: { anonymous_users: false, email: s.emailSignupEnabled, phone: false },
    disable_signup: !s.enableSignup,
    mailer_autoconfirm: s.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  });
};

/** GET /.well-known/jwks.json: the public signing keys; the HS256 secret is never listed. */
export const jwks: RouteHandler = async (ctx, _req, res) => {
  sendJson(res, 200, ctx.settings.signingKeys.jwks);
};
