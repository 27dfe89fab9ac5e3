// GoTrue features Castloop does not turn on (SSO, manual identity linking, MFA factors, the
// id_token and web3 grants): answered with the errors GoTrue gives while they are disabled.
import type { RouteHandler } from '../context.ts';
import { badRequest, notFound, OAuthError, unprocessable } from '../errors.ts';
import { requireUser } from '../guard.ts';
import { optionalString, readJson } from '../http.ts';
import { isUuid } from '../validate.ts';

/** /sso and /sso/saml/*: SAML is off. */
export const sso: RouteHandler = async () => {
  throw notFound('saml_provider_disabled', 'SAML 2.0 is disabled');
};

/** /user/identities/*: behind the signed-in check, manual linking is off. */
export const identities: RouteHandler = async (ctx, req) => {
  await requireUser(ctx, req);
  throw notFound('manual_linking_disabled', 'Manual linking is disabled');
};

const enrollDisabled: Record<string, [string, string]> = {
  totp: ['mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP'],
  phone: ['mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone'],
  webauthn: ['mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn'],
};

/** POST /factors: no factor type can be enrolled. */
export const enrollFactor: RouteHandler = async (ctx, req) => {
  await requireUser(ctx, req);
  const body = await readJson(req);
  const disabled = enrollDisabled[optionalString(body, 'factor_type') ?? ''];
  if (!disabled) throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  throw unprocessable(disabled[0], disabled[1]);
};

/** /factors/{factor_id}/...: no user has a factor. */
export const factor: RouteHandler = async (ctx, req, _res, _url, params) => {
  await requireUser(ctx, req);
  if (!isUuid(params.factor_id)) throw notFound('validation_failed', 'factor_id must be an UUID');
  throw notFound('mfa_factor_not_found', 'Factor not found');
};

const issuers: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  apple: 'https://appleid.apple.com',
  keycloak: '',
  snapchat: 'https://accounts.snapchat.com',
};

/** grant_type=id_token: every provider is disabled. */
export const idTokenGrant: RouteHandler = async (_ctx, req) => {
  const body = await readJson(req);
  const provider = optionalString(body, 'provider') ?? '';
  const issuer = optionalString(body, 'issuer') ?? '';
  if (!optionalString(body, 'id_token')) throw new OAuthError('id_token required');
  if (!provider && (!optionalString(body, 'client_id') || !issuer))
    throw new OAuthError('provider or client_id and issuer required');
  const known = Object.entries(issuers).find(([name, url]) => name === provider || (url && url === issuer));
  if (!known) throw badRequest('validation_failed', `Custom OIDC provider "${provider}" not allowed`);
  throw badRequest('provider_disabled', `Provider (issuer "${known[1]}") is not enabled`);
};

/** grant_type=web3: Solana and Ethereum sign-in are off. */
export const web3Grant: RouteHandler = async () => {
  throw unprocessable('web3_provider_disabled', 'Web3 provider is disabled');
};
