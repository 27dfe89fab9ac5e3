-- Each user's subscription as Stripe last reported it. Written only by the Stripe webhook
-- (service role); the user reads their own row. stripe_events makes webhook handling
-- idempotent.

create table public.subscriptions (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  stripe_customer_id text unique,
  stripe_subscription_id text unique,
  -- Stripe's subscription status; null until a subscription exists (customer only).
  status text check (status in ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused')),
  tier text references public.plans (id),
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  -- `created` of the newest Stripe event applied; older events are ignored (see trigger).
  last_stripe_event_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index subscriptions_tier_idx on public.subscriptions (tier);

create trigger subscriptions_set_updated_at
  before update on public.subscriptions
  for each row execute function private.set_updated_at();

-- An event older than the one already applied must not roll the row back: skip the update.
create function private.ignore_stale_subscription_event()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.last_stripe_event_at is not null
     and new.last_stripe_event_at is not null
     and new.last_stripe_event_at < old.last_stripe_event_at then
    return null;
  end if;
  return new;
end
$$;
revoke execute on function private.ignore_stale_subscription_event() from public;

create trigger subscriptions_ignore_stale_event
  before update on public.subscriptions
  for each row execute function private.ignore_stale_subscription_event();

alter table public.subscriptions enable row level security;
revoke all on table public.subscriptions from anon, authenticated;
grant select on table public.subscriptions to authenticated;

create policy "Users read their own subscription; admins read all"
  on public.subscriptions for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Stripe event ids already handled. Service role only.
create table public.stripe_events (
  id text primary key,
  type text not null,
  -- The event's `created` time (Stripe), for ordering.
  created_at timestamptz not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz
);

alter table public.stripe_events enable row level security;
revoke all on table public.stripe_events from anon, authenticated;
