// Addresses outside the app that several screens link to; configuration, not code.
const env = import.meta.env;

/** The premium community invitation (onboarding card and the dashboard's header menu). */
export const communityUrl = (env.VITE_COMMUNITY_URL as string | undefined) ?? 'https://community.castloop.com/invite';

/**
 * The Platform Introduction video embedded on /onboarding: an https embed URL (VITE_INTRO_VIDEO_URL,
 * checked by web/build-settings.ts), or null for the video the app ships (introVideoFile).
 */
export const introVideoUrl: string | null = (env.VITE_INTRO_VIDEO_URL as string | undefined)?.trim() || null;

/** The default Platform Introduction video and its captions (web/public/intro, made by scripts/make-intro-video.ts). */
export const introVideoFile = { video: '/intro/platform-introduction.mp4', captions: '/intro/platform-introduction.vtt' } as const;

/** Where subscribers write for help (forgot-password panel, the dashboard's Contact Support). */
export const supportEmail = (env.VITE_SUPPORT_EMAIL as string | undefined) ?? 'support@castloop.com';

/** Where the largest plan's subscribers ask about Enterprise (the monthly limit's 'Contact sales'). */
export const salesEmail = (env.VITE_SALES_EMAIL as string | undefined) ?? 'sales@castloop.com';
