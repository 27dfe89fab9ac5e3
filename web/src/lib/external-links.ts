// Addresses outside the app that several screens link to; configuration, not code.
const env = import.meta.env;

/** The premium community invitation (onboarding card and the dashboard's header menu). */
export const communityUrl = (env.VITE_COMMUNITY_URL as string | undefined) ?? 'https://community.castloop.com/invite';

/**
 * The Platform Introduction video embedded on /onboarding (an https embed URL, checked by
 * web/build-settings.ts), or null: without one the card shows no player rather than a broken one.
 */
export const introVideoUrl: string | null = (env.VITE_INTRO_VIDEO_URL as string | undefined)?.trim() || null;

/** Where subscribers write for help (forgot-password panel, the dashboard's Contact Support). */
export const supportEmail = (env.VITE_SUPPORT_EMAIL as string | undefined) ?? 'support@castloop.com';
