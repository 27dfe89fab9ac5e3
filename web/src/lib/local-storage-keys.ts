// Keys the app keeps in the browser's local storage (spec sections 2-4).
export const PENDING_USER_EMAIL = 'pendingUserEmail';
export const JUST_COMPLETED_ONBOARDING = 'justCompletedOnboarding';
export const SEEN_WELCOME = 'hasSeenWelcome';
/** The configuration form's unsaved input, per user and form mode (never files or secrets). */
export const onboardingDraftKey = (userId: string, mode: string) => `onboardingDraft:${userId}:${mode}`;
