-- The subscription tiers (spec section 9). Public read; written only by migrations and the
-- operator. Stripe price ids are configuration: set per environment (seed.sql locally).

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
  stripe_price_id text unique,
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

create policy "Plans are readable by everyone"
  on public.plans for select
  to anon, authenticated
  using (true);
