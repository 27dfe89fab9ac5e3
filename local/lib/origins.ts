// The site's own origins, the only ones the local API answers CORS for (with credentials).
import type { StackConfig } from '../config.ts';

/**
 * The origins browsers may call the API from with credentials: the site (the web server and
 * SITE_URL) plus the comma-separated ALLOWED_ORIGIN, each also under its other loopback name.
 */
export function allowedOrigins(config: StackConfig): Set<string> {
  const origins = new Set<string>();
  const configured = [config.urls.web, config.env.SITE_URL, ...(config.env.ALLOWED_ORIGIN ?? '').split(',')];
  for (const value of configured) {
    try {
      if (!value?.trim()) continue;
      const url = new URL(value.trim());
      origins.add(url.origin);
      if (url.hostname === '127.0.0.1') origins.add(url.origin.replace('127.0.0.1', 'localhost'));
      if (url.hostname === 'localhost') origins.add(url.origin.replace('localhost', '127.0.0.1'));
    } catch {
      // A malformed entry allows nothing.
    }
  }
  return origins;
}
