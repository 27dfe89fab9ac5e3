// WordPress application passwords: the site address (normalised and checked before Castloop
// calls it) and the check of the credentials against the site's REST API.
import { settings } from '../config.ts';
import { HttpError } from '../http-error.ts';

const WORDPRESS_CREDENTIALS_REFUSED = 'The WordPress site refused this username and application password';

const privateHost = /^(localhost|127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|0\.|\[?::1\]?$|\[?f[cd][0-9a-f]{2}:|\[?fe80:)/i;

/** The site's base URL without a trailing slash; 400 when it is not a site Castloop may call. */
export function normaliseSiteUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new HttpError(400, 'The WordPress site address is not valid');
  }
  // Local development only (the local stack sets it): plain http and loopback sites.
  const allowedInsecure = settings().wordpressInsecureHosts.includes(url.hostname.toLowerCase());
  if (url.username || url.password || url.search || url.hash) throw new HttpError(400, 'The WordPress site address is not valid');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowedInsecure)) {
    throw new HttpError(400, 'The WordPress site must use https');
  }
  if (privateHost.test(url.hostname) && !allowedInsecure) throw new HttpError(400, 'The WordPress site address is not valid');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

interface WordpressUser {
  name: string;
}

/** Calls `/wp-json/wp/v2/users/me` with the application password. */
export async function verifyWordpressCredentials(siteUrl: string, username: string, password: string): Promise<WordpressUser> {
  let res: Response;
  try {
    res = await fetch(`${siteUrl}/wp-json/wp/v2/users/me?context=edit`, {
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
  const body = (await res.json().catch(() => ({}))) as { name?: unknown; slug?: unknown };
  return { name: typeof body.name === 'string' ? body.name : typeof body.slug === 'string' ? body.slug : username };
}
