-- Billing: each user's subscription as Stripe last reported it, and how Stripe's word becomes
-- Castloop's state. The subscription row is written only by the server (the stripe-webhook
-- function); the user reads their own row. The Stripe events already handled and the checkout
-- sessions already used for session recovery, and the functions over them, are server-only and
-- live in `private` (PostgREST cannot serve them, whatever the grants; RLS stays on as the
-- second wall): the functions reach them over SUPABASE_DB_URL.

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
-- The one home of that rule (record_stripe_event reports what it did).
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
grant select, insert, update, delete on table public.subscriptions to service_role;

create policy "Users read their own subscription; admins read all"
  on public.subscriptions for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Stripe event ids already handled.
create table private.stripe_events (
  id text primary key,
  type text not null,
  -- The event's `created` time (Stripe), for ordering.
  created_at timestamptz not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz
);
alter table private.stripe_events enable row level security;
revoke all on table private.stripe_events from public, anon, authenticated;

-- Checkout sessions already used to recover a session (spec section 4, made single use).
create table private.checkout_recoveries (
  checkout_session_id text primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  claimed_at timestamptz not null default now()
);
create index checkout_recoveries_user_id_idx on private.checkout_recoveries (user_id);
alter table private.checkout_recoveries enable row level security;
revoke all on table private.checkout_recoveries from public, anon, authenticated;
-- No policies: only the server reads or writes it.

/**
 * Applies one Stripe event to the subscription it concerns. Idempotent by event id; an event
 * older than the last applied one for that subscription is skipped by the subscriptions
 * trigger. Returns what happened: applied | duplicate | stale | ignored (not about a
 * subscription) | unknown_customer.
 */
create function private.record_stripe_event(
  p_event_id text,
  p_event_type text,
  p_event_created timestamptz,
  -- What the event says about a subscription; all null for an event about something else.
  p_user_id uuid default null,
  p_customer_id text default null,
  p_subscription_id text default null,
  p_status text default null,
  p_tier text default null,
  p_current_period_end timestamptz default null
)
returns text
language plpgsql
set search_path = ''
as $$
declare
  v_user_id uuid;
  v_written integer;
  v_outcome text;
begin
  insert into private.stripe_events (id, type, created_at)
  values (p_event_id, p_event_type, p_event_created)
  on conflict (id) do nothing;
  if not found then
    return 'duplicate';
  end if;

  if p_customer_id is null then
    v_outcome := 'ignored';
  else
    v_user_id := coalesce(
      (select s.user_id from public.subscriptions s where s.stripe_customer_id = p_customer_id),
      p_user_id
    );
    if v_user_id is null or not exists (select 1 from public.profiles p where p.id = v_user_id) then
      v_outcome := 'unknown_customer';
    else
      insert into public.subscriptions as s
        (user_id, stripe_customer_id, stripe_subscription_id, status, tier, current_period_end, last_stripe_event_at)
      values
        (v_user_id, p_customer_id, p_subscription_id, p_status, p_tier, p_current_period_end, p_event_created)
      on conflict (user_id) do update set
        stripe_customer_id = excluded.stripe_customer_id,
        stripe_subscription_id = coalesce(excluded.stripe_subscription_id, s.stripe_subscription_id),
        status = coalesce(excluded.status, s.status),
        tier = coalesce(excluded.tier, s.tier),
        current_period_end = coalesce(excluded.current_period_end, s.current_period_end),
        last_stripe_event_at = excluded.last_stripe_event_at;
      -- The trigger skips (writes no row for) an event older than the one applied.
      get diagnostics v_written = row_count;
      v_outcome := case when v_written = 0 then 'stale' else 'applied' end;
    end if;
  end if;

  update private.stripe_events set processed_at = now() where id = p_event_id;
  return v_outcome;
end
$$;
revoke execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz) from public;
grant execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz) to service_role;

/** Stores the Stripe customer created for a user; the first one stored wins. */
create function private.remember_stripe_customer(p_user_id uuid, p_customer_id text)
returns void
language sql
set search_path = ''
as $$
  insert into public.subscriptions as s (user_id, stripe_customer_id)
  values (p_user_id, p_customer_id)
  on conflict (user_id) do update
    set stripe_customer_id = coalesce(s.stripe_customer_id, excluded.stripe_customer_id);
$$;
revoke execute on function private.remember_stripe_customer(uuid, text) from public;
grant execute on function private.remember_stripe_customer(uuid, text) to service_role;

/** True the first time a checkout session is claimed for recovery, false ever after. */
create function private.claim_checkout_recovery(p_checkout_session_id text, p_user_id uuid)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  insert into private.checkout_recoveries (checkout_session_id, user_id)
  values (p_checkout_session_id, p_user_id)
  on conflict (checkout_session_id) do nothing;
  return found;
end
$$;
revoke execute on function private.claim_checkout_recovery(text, uuid) from public;
grant execute on function private.claim_checkout_recovery(text, uuid) to service_role;
