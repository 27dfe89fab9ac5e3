-- The subscription tiers (spec section 9). Public read; written only by migrations and the
-- operator. Stripe price ids are configuration of each environment (the STRIPE_PRICE_* secrets
-- the functions read), not columns.

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
  updated_at timestamptz not null default now()
);

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

-- The three public tiers of spec section 9 and the unlimited enterprise tier.
insert into public.plans
  (id, title, price_cents, original_price_cents, description, features, unavailable_features,
   is_popular, episodes_per_month, clips_per_episode, listed, sort_order)
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
   false, 1, 3, true, 1),
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
   true, 2, 5, true, 2),
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
   false, 4, 10, true, 3),
  ('enterprise', 'Enterprise', null, null,
   'Unlimited episodes, arranged with our team.',
   array['Unlimited episodes', 'Priority support', 'Dedicated account manager'],
   array[]::text[],
   false, null, 10, false, 4);
