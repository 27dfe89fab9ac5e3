// The SPA's settings, read and checked in one place (vite.config.ts) before Vite builds or
// serves anything. A build needs the project's public Supabase URL and anon key and refuses a
// loopback URL: only the local stack builds against itself, and it says so
// (CASTLOOP_LOCAL_STACK=1, with its own values: local/web.ts). Nothing here is filled in.
import { isLoopbackUrl } from '../supabase/functions/_shared/domain/loopback-url.ts';

export type SpaTarget = 'build' | 'serve';

export interface SpaSettings {
  /** Where the browser's Supabase client calls (inlined as import.meta.env.VITE_SUPABASE_URL). */
  supabaseUrl: string;
}

export const requiredSpaSettings = ['VITE_SUPABASE_URL', 'VITE_SUPABASE_ANON_KEY'] as const;

function isHttpUrl(value: string, protocols = ['http:', 'https:']): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The settings for `target`, or an error that names every missing or wrong one. */
export function resolveSpaSettings(env: Record<string, string | undefined>, target: SpaTarget): SpaSettings {
  const problems = requiredSpaSettings.filter((name) => !env[name]?.trim()).map((name) => `${name} is not set`);
  const supabaseUrl = env.VITE_SUPABASE_URL?.trim() ?? '';
  if (supabaseUrl && !isHttpUrl(supabaseUrl))
    problems.push(`VITE_SUPABASE_URL is not an http(s) URL ("${supabaseUrl}")`);
  else if (target === 'build' && env.CASTLOOP_LOCAL_STACK !== '1' && isLoopbackUrl(supabaseUrl)) {
    problems.push(`VITE_SUPABASE_URL is this machine (${supabaseUrl}); a production build needs the project's URL`);
  }
  // Optional: without it the onboarding page shows no player (web/src/lib/external-links.ts).
  const introVideoUrl = env.VITE_INTRO_VIDEO_URL?.trim();
  if (introVideoUrl && !isHttpUrl(introVideoUrl, ['https:']))
    problems.push(`VITE_INTRO_VIDEO_URL is not an https embed URL ("${introVideoUrl}")`);
  if (problems.length > 0) {
    throw new Error(
      `SPA configuration: ${problems.join('; ')}. Give the build the project's values (docs/deploy.md, section 6); npm start and npm test pass the local stack's own.`,
    );
  }
  return { supabaseUrl };
}
