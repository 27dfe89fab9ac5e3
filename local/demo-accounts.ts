// Local-only demo accounts, created through the Auth admin API (so passwords are hashed by
// Auth like any other) and completed with the service role: a subscriber who can use the
// dashboard right away, and an administrator for /admin/episodes/resubmit.
// Idempotent: running it again resets the two accounts to this state.
import { createClient, type SupabaseClient, type User } from '@supabase/supabase-js';
import pg from 'pg';
import Stripe from 'stripe';
import { BRAND_ASSETS_BUCKET } from '../supabase/functions/_shared/domain/onboarding.ts';
import type { StackConfig } from './config.ts';
import { stripeSettings } from './sandbox/stripe/settings.ts';

export interface DemoAccount {
  role: 'subscriber' | 'admin';
  email: string;
  password: string;
  id: string;
}

export const DEMO_SUBSCRIBER = {
  email: 'demo@castloop.local',
  password: 'castloop-demo',
  firstName: 'Demo',
  lastName: 'Podcaster',
};
export const DEMO_ADMIN = {
  email: 'admin@castloop.local',
  password: 'castloop-admin',
  firstName: 'Castloop',
  lastName: 'Admin',
};

// 1x1 images, enough for the brand-asset slots.
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG_1PX = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** Realtime is never used here; Node 20 has no WebSocket, so give supabase-js a stand-in. */
class NoRealtimeSocket {
  constructor() {
    throw new Error('Realtime is not available in the demo-account script');
  }
}

function serviceClient(config: StackConfig): SupabaseClient {
  return createClient(config.urls.api, config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtimeSocket as unknown as typeof WebSocket },
  });
}

async function findUserByEmail(client: SupabaseClient, email: string): Promise<User | null> {
  for (let page = 1; page < 100; page++) {
    const { data, error } = await client.auth.admin.listUsers({ page, perPage: 100 });
    if (error) throw new Error(`Listing users failed: ${error.message}`);
    const match = data.users.find((user) => user.email?.toLowerCase() === email.toLowerCase());
    if (match) return match;
    if (data.users.length < 100) return null;
  }
  return null;
}

async function ensureUser(
  client: SupabaseClient,
  account: { email: string; password: string; firstName: string; lastName: string },
  appMetadata: Record<string, unknown>,
): Promise<User> {
  const attributes = {
    email: account.email,
    password: account.password,
    email_confirm: true,
    user_metadata: { first_name: account.firstName, last_name: account.lastName },
    app_metadata: appMetadata,
  };
  const created = await client.auth.admin.createUser(attributes);
  if (created.data.user) return created.data.user;
  const existing = await findUserByEmail(client, account.email);
  if (!existing) throw new Error(`Could not create ${account.email}: ${created.error?.message ?? 'unknown error'}`);
  const updated = await client.auth.admin.updateUserById(existing.id, attributes);
  if (updated.error || !updated.data.user)
    throw new Error(`Could not update ${account.email}: ${updated.error?.message}`);
  return updated.data.user;
}

async function check<T extends { error: { message: string } | null }>(
  what: string,
  result: PromiseLike<T>,
): Promise<T> {
  const resolved = await result;
  if (resolved.error) throw new Error(`${what}: ${resolved.error.message}`);
  return resolved;
}

/**
 * Gives the demo subscriber an active growth subscription the way a real subscriber gets one:
 * a checkout on the local Stripe sandbox, paid, whose signed webhooks reach stripe-webhook. So
 * 'Manage Billing' opens the sandbox's portal. Without the sandbox (real Stripe configured) the
 * row is written directly, with no Stripe customer.
 */
async function subscribeDemoSubscriber(config: StackConfig, client: SupabaseClient, subscriber: User): Promise<void> {
  const { data: existing } = await client
    .from('subscriptions')
    .select('status, stripe_customer_id')
    .eq('user_id', subscriber.id)
    .maybeSingle();
  if (existing?.status === 'active' && existing.stripe_customer_id) return;

  const stripe = stripeSettings(config);
  if (stripe.apiBase !== config.urls.sandbox) {
    await check(
      'demo subscription',
      client
        .from('subscriptions')
        .upsert(
          {
            user_id: subscriber.id,
            status: 'active',
            tier: 'growth',
            current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          },
          { onConflict: 'user_id' },
        ),
    );
    return;
  }
  const sdk = new Stripe(stripe.secretKey, {
    host: new URL(stripe.apiBase).hostname,
    port: new URL(stripe.apiBase).port,
    protocol: 'http',
  });
  const growth = stripe.prices.find((price) => price.tier === 'growth')!;
  const customer = await sdk.customers.create({ email: DEMO_SUBSCRIBER.email, metadata: { user_id: subscriber.id } });
  // As the api function does: a service-only function in `private`, reached over the database URL.
  const db = new pg.Client({ connectionString: config.urls.db });
  await db.connect();
  try {
    await db.query('select private.remember_stripe_customer($1, $2)', [subscriber.id, customer.id]);
  } finally {
    await db.end();
  }
  const session = await sdk.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: growth.id, quantity: 1 }],
    metadata: { user_id: subscriber.id, tier: 'growth' },
    subscription_data: { metadata: { user_id: subscriber.id, tier: 'growth' } },
    success_url: `${config.urls.web}/?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${config.urls.web}/subscribe`,
  });
  // The sandbox's Pay button: creates the subscription and delivers its signed webhooks.
  const paid = await fetch(`${config.urls.sandbox}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' });
  if (paid.status !== 303) throw new Error(`Paying the demo checkout failed: HTTP ${paid.status}`);
}

/** Uploads a brand asset; returns its path, or null when storage is unavailable. */
async function uploadBrandAsset(
  client: SupabaseClient,
  path: string,
  bytes: Buffer,
  contentType: string,
): Promise<string | null> {
  const { error } = await client.storage.from(BRAND_ASSETS_BUCKET).upload(path, bytes, { contentType, upsert: true });
  return error ? null : path;
}

export async function createDemoAccounts(config: StackConfig): Promise<DemoAccount[]> {
  const client = serviceClient(config);

  const subscriber = await ensureUser(client, DEMO_SUBSCRIBER, { provider: 'email', providers: ['email'] });
  const admin = await ensureUser(client, DEMO_ADMIN, { provider: 'email', providers: ['email'], role: 'admin' });

  await subscribeDemoSubscriber(config, client, subscriber);
  const now = new Date();

  const logoPath = await uploadBrandAsset(client, `${subscriber.id}/logo/castloop-demo-logo.png`, PNG_1PX, 'image/png');
  const coverPath = await uploadBrandAsset(
    client,
    `${subscriber.id}/podcastCover/castloop-demo-cover.jpg`,
    JPEG_1PX,
    'image/jpeg',
  );

  await check(
    'demo profile',
    client
      .from('profiles')
      .update({
        first_name: DEMO_SUBSCRIBER.firstName,
        last_name: DEMO_SUBSCRIBER.lastName,
        brand_font: 'Inter',
        brand_color_primary: '1E3A8A',
        brand_color_secondary: 'F59E0B',
        brand_color_tertiary: 'F8FAFC',
        podcast_title: 'The Demo Show',
        podcast_description: 'A show about making shows, used to try Castloop locally.',
        podcast_author: 'Demo Podcaster',
        podcast_copyright: '© Demo Podcaster',
        podcast_keywords: 'podcasting, demo, automation',
        podcast_website: 'https://example.com',
        podcast_language: 'en',
        podcast_timezone: 'UTC+00:00',
        podcast_primary_category: 'Technology',
        podcast_secondary_category: 'Business',
        post_automatically: true,
        logo_path: logoPath,
        podcast_cover_path: coverPath,
        onboarding_completed_at: now.toISOString(),
        hosting_ready_at: now.toISOString(),
      })
      .eq('id', subscriber.id),
  );
  await check(
    'admin profile',
    client.from('profiles').update({ onboarding_completed_at: now.toISOString() }).eq('id', admin.id),
  );

  return [
    { role: 'subscriber', email: DEMO_SUBSCRIBER.email, password: DEMO_SUBSCRIBER.password, id: subscriber.id },
    { role: 'admin', email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, id: admin.id },
  ];
}
