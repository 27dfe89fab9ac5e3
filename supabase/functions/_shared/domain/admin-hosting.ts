// The admin console's hosting setup queue (issue 26, item 9): who is waiting for podcast hosting,
// since when, and the two actions on it. Shared by the `api` function and the SPA.
import { z } from 'zod/mini';
import { pageOf, type Page } from './admin-resubmit.ts';

/** The console page of the queue. */
export const ADMIN_HOSTING_PATH = '/admin/hosting';

/** A subscriber whose hosting setup is under way (admin_hosting_setups()). */
export interface HostingSetup {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  subscriptionStatus: string | null;
  subscriptionTier: string | null;
  hostingSetupStartedAt: string;
}

/** A page of GET /api/admin/hosting-setups as the SPA parses it. */
export const hostingSetupPageSchema: z.ZodMiniType<Page<HostingSetup>> = pageOf(
  z.object({
    id: z.string(),
    email: z.string(),
    firstName: z.nullable(z.string()),
    lastName: z.nullable(z.string()),
    subscriptionStatus: z.nullable(z.string()),
    subscriptionTier: z.nullable(z.string()),
    hostingSetupStartedAt: z.string(),
  }),
);

/** POST /api/admin/hosting-setups/ready and /start: the subscriber, by e-mail. */
export const hostingActionSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, "Please enter the user's email address."), z.maxLength(320)),
});
export type HostingAction = z.output<typeof hostingActionSchema>;

/** What the actions answer: the subscriber as the operator tools describe them, and words for people. */
export interface HostingActionResult {
  message: string;
  subscriber: { id: string; email: string; hostingReadyAt: string | null; hostingSetupStartedAt: string | null };
}

export const hostingActionResultSchema: z.ZodMiniType<HostingActionResult> = z.object({
  message: z.string(),
  subscriber: z.object({
    id: z.string(),
    email: z.string(),
    hostingReadyAt: z.nullable(z.string()),
    hostingSetupStartedAt: z.nullable(z.string()),
  }),
});

export const hostingMessages = {
  ready: (email: string) => `Hosting is ready for ${email}: they can submit episodes now.`,
  started: (email: string) => `Hosting setup started for ${email}: submissions wait until it is marked ready.`,
} as const;
