// Scheduled functions (Supabase Cron via net.http_post) are called with the service role key as
// a Bearer token; nothing else may run them.
import { settings } from './config.ts';

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** True when the request carries the service role key (compared in constant time). */
export function isServiceCaller(request: Request): boolean {
  const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1] ?? '';
  const key = settings().serviceRoleKey;
  return key !== '' && timingSafeEqual(bearer, key);
}
