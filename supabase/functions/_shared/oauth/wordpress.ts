// WordPress application passwords: the site address (normalised and checked before Castloop
// calls it) and the check of the credentials against the site's REST API. The site is a
// server the subscriber names: user-site.ts checks where it resolves, and its answer is capped.
import { AnswerTooLargeError, readCappedJson, USER_SITE_ANSWER_MAX_BYTES } from '../domain-server/capped-response.ts';
import { isSandboxOrigin } from '../domain-server/public-address.ts';
import { HttpError } from '../http-error.ts';
import { assertPublicSite, sandboxOrigins } from '../user-site.ts';

const WORDPRESS_CREDENTIALS_REFUSED = 'The WordPress site refused this username and application password';

/** The site's base URL without a trailing slash; 400 when it is not a site Castloop may call. */
export function normaliseSiteUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new HttpError(400, 'The WordPress site address is not valid');
  }
  if (url.username || url.password || url.search || url.hash) throw new HttpError(400, 'The WordPress site address is not valid');
  // Plain http only for the local stack's sandbox origins (configuration, never a request).
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isSandboxOrigin(url, sandboxOrigins()))) {
    throw new HttpError(400, 'The WordPress site must use https');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

interface WordpressUser {
  name: string;
}

/** Calls `/wp-json/wp/v2/users/me` with the application password. */
export async function verifyWordpressCredentials(siteUrl: string, username: string, password: string): Promise<WordpressUser> {
  const url = new URL(`${siteUrl}/wp-json/wp/v2/users/me?context=edit`);
  await assertPublicSite(url);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { Authorization: `Basic ${btoa(unescape(encodeURIComponent(`${username}:${password}`)))}`, Accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new HttpError(502, 'Could not reach the WordPress site');
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new HttpError(400, WORDPRESS_CREDENTIALS_REFUSED);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new HttpError(502, `The WordPress site answered ${res.status}`);
  }
  let answer: unknown;
  try {
    answer = await readCappedJson(res, USER_SITE_ANSWER_MAX_BYTES);
  } catch (error) {
    if (error instanceof AnswerTooLargeError) throw new HttpError(502, `The WordPress site's answer is larger than ${USER_SITE_ANSWER_MAX_BYTES / 1024} KB`);
    throw new HttpError(502, 'The WordPress site did not send its whole answer in time');
  }
  const body = (answer ?? {}) as { name?: unknown; slug?: unknown };
  return { name: typeof body.name === 'string' ? body.name : typeof body.slug === 'string' ? body.slug : username };
}
