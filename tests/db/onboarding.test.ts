// complete_onboarding(): every first-time required field of spec section 5, uploaded files
// counted only when the object exists.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { accountSchema } from '@domain/account';
import { addObject, createUser, inRolledBackTx, queryAs, runAs, subscribe } from './db-support.ts';

const required: [string, string, unknown][] = [
  ['brandFont', 'brand_font', 'Inter'],
  ['brandColorPrimary', 'brand_color_primary', '112233'],
  ['brandColorSecondary', 'brand_color_secondary', 'AABBCC'],
  ['brandColorTertiary', 'brand_color_tertiary', 'FFFFFF'],
  ['podcastTitle', 'podcast_title', 'The Show'],
  ['podcastDescription', 'podcast_description', 'About the show'],
  ['podcastPrimaryCategory', 'podcast_primary_category', 'Technology'],
  ['podcastAuthor', 'podcast_author', 'Ada'],
];

async function completeProfile(db: pg.Client, id: string, skip?: string): Promise<void> {
  for (const [field, column, value] of required) {
    if (field !== skip) await db.query(`update public.profiles set ${column} = $2 where id = $1`, [id, value]);
  }
  // Brand assets are stored only for subscribers (onboarding follows the payment).
  await subscribe(db, id);
  if (skip !== 'logo') {
    await addObject(db, 'brand-assets', `${id}/logo/brand.png`, 'image/png');
    await db.query(`update public.profiles set logo_path = $2 where id = $1`, [id, `${id}/logo/brand.png`]);
  }
  if (skip !== 'podcastCover') {
    await addObject(db, 'brand-assets', `${id}/podcastCover/cover.jpg`, 'image/jpeg');
    await db.query(`update public.profiles set podcast_cover_path = $2 where id = $1`, [
      id,
      `${id}/podcastCover/cover.jpg`,
    ]);
  }
}

async function completedAt(db: pg.Client, id: string) {
  return (await db.query(`select onboarding_completed_at from public.profiles where id = $1`, [id])).rows[0]
    .onboarding_completed_at;
}

describe('complete_onboarding()', () => {
  it('completes a full profile and returns the account', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await completeProfile(db, user.id);
      const [{ account }] = await queryAs<{ account: Record<string, unknown> }>(
        db,
        { id: user.id },
        'select public.complete_onboarding() as account',
      );
      expect(account).toMatchObject({ id: user.id, onboardingCompleted: true });
      const first = await completedAt(db, user.id);
      expect(first).toBeInstanceOf(Date);
      await queryAs(db, { id: user.id }, 'select public.complete_onboarding()');
      expect(await completedAt(db, user.id)).toEqual(first);
    });
  });

  for (const field of [...required.map(([f]) => f), 'logo', 'podcastCover']) {
    it(`refuses without ${field}`, async () => {
      await inRolledBackTx(async (db) => {
        const user = await createUser(db);
        await completeProfile(db, user.id, field);
        const outcome = await runAs(db, { id: user.id }, 'select public.complete_onboarding()', [], true);
        expect(outcome).toMatchObject({ code: '22023', message: 'onboarding_incomplete', detail: field });
        expect(await completedAt(db, user.id)).toBeNull();
      });
    });
  }

  it('lists every missing field of an empty profile, in form order', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const outcome = await runAs(db, { id: user.id }, 'select public.complete_onboarding()');
      expect(outcome.detail).toBe(
        'brandFont, brandColorPrimary, brandColorSecondary, brandColorTertiary, podcastTitle, podcastDescription, podcastPrimaryCategory, podcastAuthor, logo, podcastCover',
      );
    });
  });

  it("treats 'not provided' and blanks as empty", async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await completeProfile(db, user.id);
      await db.query(`update public.profiles set podcast_title = 'Not Provided', podcast_author = '  ' where id = $1`, [
        user.id,
      ]);
      const outcome = await runAs(db, { id: user.id }, 'select public.complete_onboarding()');
      expect(outcome.detail).toBe('podcastTitle, podcastAuthor');
    });
  });

  it('does not count a path whose object was never uploaded or has the wrong type', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      await completeProfile(db, user.id);
      await db.query(`delete from storage.objects where bucket_id = 'brand-assets' and name = $1`, [
        `${user.id}/logo/brand.png`,
      ]);
      await db.query(
        `update storage.objects set metadata = '{"mimetype": "video/mp4"}' where bucket_id = 'brand-assets' and name = $1`,
        [`${user.id}/podcastCover/cover.jpg`],
      );
      const outcome = await runAs(db, { id: user.id }, 'select public.complete_onboarding()');
      expect(outcome.detail).toBe('logo, podcastCover');
    });
  });

  it('is refused to anon', async () => {
    await inRolledBackTx(async (db) => {
      expect((await runAs(db, 'anon', 'select public.complete_onboarding()')).code).toBe('42501');
    });
  });
});

describe('current_account()', () => {
  it('has the spec user shape', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db, { firstName: 'Grace', lastName: 'Hopper' });
      const [{ account }] = await queryAs<{ account: unknown }>(
        db,
        { id: user.id },
        'select public.current_account() as account',
      );
      expect(account).toEqual({
        id: user.id,
        email: user.email,
        firstName: 'Grace',
        lastName: 'Hopper',
        profileImageUrl: null,
        subscriptionStatus: null,
        subscriptionTier: null,
        onboardingCompleted: false,
        stripeCustomerId: null,
        postAutomatically: true,
        isAdmin: false,
      });
      // The schema both sides parse with names exactly the keys the database returns.
      expect(Object.keys(accountSchema.shape).sort()).toEqual(Object.keys(account as object).sort());
      expect(accountSchema.parse(account)).toEqual(account);
      await db.query(
        `insert into public.subscriptions (user_id, stripe_customer_id, status, tier) values ($1, 'cus_1', 'active', 'scale')`,
        [user.id],
      );
      const [{ account: after }] = await queryAs<{ account: Record<string, unknown> }>(
        db,
        { id: user.id },
        'select public.current_account() as account',
      );
      expect(after).toMatchObject({
        subscriptionStatus: 'active',
        subscriptionTier: 'scale',
        stripeCustomerId: 'cus_1',
      });
      expect(accountSchema.safeParse(after).success).toBe(true);
    });
  });

  it('answers nothing for a token whose session has ended or whose session id is not one', async () => {
    await inRolledBackTx(async (db) => {
      const user = await createUser(db);
      const sessionId = randomUUID();
      await db.query('insert into auth.sessions (id, user_id) values ($1, $2)', [sessionId, user.id]);
      const accountWith = async (session_id: string) => {
        await db.query('savepoint read');
        await db.query('set local role authenticated');
        await db.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: user.id, role: 'authenticated', session_id })]);
        const { rows } = await db.query<{ account: { id: string } | null }>('select public.current_account() as account');
        await db.query('rollback to savepoint read');
        return rows[0].account;
      };
      expect((await accountWith(sessionId))?.id).toBe(user.id);
      expect(await accountWith(randomUUID())).toBeNull();
      expect(await accountWith('not-a-session-id')).toBeNull();
    });
  });
});
