// Which `redirect_to` targets are allowed: any URL on a site URL's host, or one matching an
// additional redirect URL glob (`*` stops at `.` and `/`, `**` does not), as in GoTrue.
// Anything else falls back to the site URL, so links never redirect off-site.
import type { AuthSettings } from './settings.ts';

function hostnameOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname : null;
  } catch {
    return null;
  }
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') source += '[^./]*';
    else if (char === '?') source += '[^./]';
    else source += char.replace(/[\\^$+.()|[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function isRedirectAllowed(settings: AuthSettings, target: string): boolean {
  const host = hostnameOf(target);
  if (!host) return false;
  if (settings.trustedSites.some((site) => hostnameOf(site) === host)) return true;
  return settings.redirectPatterns.some((pattern) => globToRegExp(pattern).test(target));
}

/** The redirect target to use: the requested one when allowed, else the site URL. */
export function resolveRedirect(settings: AuthSettings, requested: string | null | undefined): string {
  return requested && isRedirectAllowed(settings, requested) ? requested : settings.siteUrl;
}
