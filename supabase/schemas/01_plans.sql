-- This file: the subscription tiers (spec section 9) and what each one allows. Public read;
-- written only by migrations and the operator. Stripe price ids are configuration of each
-- environment (the STRIPE_PRICE_* secrets the functions read), not columns.

create table public.plans (
  id text primary key check (id ~ '^[a-z][a-z0-9_]*$'),
  title text not null,
  -- Whole cents, USD, per month. Null for a tier sold by contract (enterprise).
  price_cents integer check (price_cents >= 0),
  original_price_cents integer check (original_price_cents >= 0),
  description text not null default '',
  features text[] not null default '{}',
  unavailable_features text[] not null default '{}',
  is_popular boolean not null default false,
  -- Null = unlimited (enterprise).
  episodes_per_month integer check (episodes_per_month > 0),
  clips_per_episode integer check (clips_per_episode > 0),
  -- Listed on /subscribe.
  listed boolean not null default true,
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  storage_quota_bytes bigint not null default 53687091200 check (storage_quota_bytes > 0),
  -- What the processing worker accepts from a subscriber (docs/decisions.md, "Input caps"): a
  -- video's picture size and frame rate, an episode's length, and how long one job may run
  -- before the worker stops it. The worker reads them through private.processing_limits(), the
  -- one place that decides which plan's caps apply.
  max_video_pixels integer not null default 8294400 check (max_video_pixels > 0),
  max_frame_rate integer not null default 60 check (max_frame_rate > 0),
  max_episode_seconds integer not null default 7200 check (max_episode_seconds > 0),
  processing_time_limit_seconds integer not null default 14400 check (processing_time_limit_seconds > 0)
);

comment on column public.plans.storage_quota_bytes is
  'Bytes a subscriber on this plan may keep in Storage (episode uploads and brand assets). See docs/decisions.md.';
comment on column public.plans.max_video_pixels is
  'Largest picture (width x height) the worker accepts in an episode or brand video; 8294400 = 3840x2160.';
comment on column public.plans.max_frame_rate is 'Highest frame rate the worker accepts, frames per second.';
comment on column public.plans.max_episode_seconds is 'Longest episode (all uploaded parts together) the worker accepts.';
comment on column public.plans.processing_time_limit_seconds is
  'One processing attempt is stopped (its ffmpeg killed) and the episode failed after this long.';

create trigger plans_set_updated_at
  before update on public.plans
  for each row execute function private.set_updated_at();

alter table public.plans enable row level security;
revoke all on table public.plans from anon, authenticated;
grant select on table public.plans to anon, authenticated;
grant select, insert, update, delete on table public.plans to service_role;

create policy "Plans are readable by everyone"
  on public.plans for select
  to anon, authenticated
  using (true);

-- The three public tiers of spec section 9 and the unlimited enterprise tier. Storage: a
-- submission is at most 10 files of 3 GiB, so every plan holds a few full submissions. Every plan
-- takes 4K at up to 60 fps (the column defaults); larger plans take longer episodes and more
-- processing time.
insert into public.plans
  (id, title, price_cents, original_price_cents, description, features, unavailable_features,
   is_popular, episodes_per_month, clips_per_episode, listed, sort_order,
   storage_quota_bytes, max_episode_seconds, processing_time_limit_seconds)
values
  ('starter', 'Starter', 19900, 59900,
   'Get your podcast repurposed every month without lifting a finger.',
   array[
     '1 episode per month',
     '3 short clips per episode',
     'Captions and show notes',
     'Blog post from every episode',
     'Automatic scheduling and posting',
     'Podcast hosting setup'
   ],
   array['Priority support', 'Dedicated account manager'],
   false, 1, 3, true, 1,
   50::bigint * 1024 * 1024 * 1024, 7200, 14400),
  ('growth', 'Growth', 49900, 119900,
   'More episodes and more clips to grow your audience faster.',
   array[
     '2 episodes per month',
     '5 short clips per episode',
     'Captions and show notes',
     'Blog post from every episode',
     'Automatic scheduling and posting',
     'Podcast hosting setup',
     'Priority support'
   ],
   array['Dedicated account manager'],
   true, 2, 5, true, 2,
   100::bigint * 1024 * 1024 * 1024, 10800, 21600),
  ('scale', 'Scale', 119900, 199900,
   'Weekly episodes with the most clips and a dedicated account manager.',
   array[
     '4 episodes per month',
     'Up to 10 short clips per episode',
     'Captions and show notes',
     'Blog post from every episode',
     'Automatic scheduling and posting',
     'Podcast hosting setup',
     'Priority support',
     'Dedicated account manager'
   ],
   array[]::text[],
   false, 4, 10, true, 3,
   250::bigint * 1024 * 1024 * 1024, 14400, 28800),
  ('enterprise', 'Enterprise', null, null,
   'Unlimited episodes, arranged with our team.',
   array['Unlimited episodes', 'Priority support', 'Dedicated account manager'],
   array[]::text[],
   false, null, 10, false, 4,
   1024::bigint * 1024 * 1024 * 1024, 21600, 43200);
