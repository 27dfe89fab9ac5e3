-- This file: billing. Each user's subscription as Stripe last reported it, and how Stripe's word
-- becomes Castloop's state. The subscription row is written only by the server (the stripe-webhook
-- function); the user reads their own row. The Stripe events already handled, the checkout
-- sessions already used for session recovery, the accounts' credential changes and the second
-- subscriptions, and the functions over them, are server-only and live in `private` (PostgREST
-- cannot serve them, whatever the grants; RLS stays on as the second wall): the functions reach
-- them over SUPABASE_DB_URL.

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
  updated_at timestamptz not null default now(),
  -- A plan change that lowers the price waits for the end of the period already paid: Stripe's
  -- billing portal schedules it (a subscription schedule), so the subscription keeps its price
  -- and the row its tier (the monthly limit and the clips per episode) until the period ends.
  -- Until then these say what is scheduled, so the app can tell the subscriber: the tier the
  -- subscription changes to and when (both null: nothing scheduled).
  scheduled_tier text references public.plans (id),
  scheduled_change_at timestamptz,
  constraint subscriptions_scheduled_change_whole check ((scheduled_tier is null) = (scheduled_change_at is null))
);
create index subscriptions_tier_idx on public.subscriptions (tier);
create index subscriptions_scheduled_tier_idx on public.subscriptions (scheduled_tier);

create trigger subscriptions_set_updated_at
  before update on public.subscriptions
  for each row execute function private.set_updated_at();

-- The one home of the event order rules (record_stripe_event reports what it did: a skipped
-- update is 'stale'). Stripe does not deliver events in order, and `created` has whole seconds.
--   * An event older than the one already applied must not roll the row back.
--   * In Stripe `canceled` and `incomplete_expired` are final (a canceled subscription can only
--     have its cancellation_details updated; an expired one is never billed again): once an event
--     has put a subscription there, no event about the same subscription changes the row.
--   * A late event about another, older subscription than the stored one does not replace it:
--     an event about a different Stripe subscription id is skipped when that subscription is
--     final, or when it is not live (active, trialing) while the stored one is. A new checkout's
--     subscription still replaces a canceled or past_due one.
-- Rows without a Stripe event time (customer only, operator fixes) are not affected.
create function private.ignore_stale_subscription_event()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.last_stripe_event_at is null or new.last_stripe_event_at is null then
    return new;
  end if;
  if new.last_stripe_event_at < old.last_stripe_event_at then
    return null;
  end if;
  if new.stripe_subscription_id is not distinct from old.stripe_subscription_id then
    -- Final states are final for the same subscription.
    if old.status in ('canceled', 'incomplete_expired') then
      return null;
    end if;
    return new;
  end if;
  if old.stripe_subscription_id is not null
     and (new.status in ('canceled', 'incomplete_expired')
          or (old.status in ('active', 'trialing') and new.status not in ('active', 'trialing'))) then
    return null;
  end if;
  return new;
end
$$;
revoke execute on function private.ignore_stale_subscription_event() from public, anon, authenticated;

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

-- A second live subscription of one account (two checkouts opened before paying both succeed),
-- the operators' record of each one (docs/operations.md): which subscription was kept, when it
-- was found, what was refunded. See record_stripe_event.
create table private.second_subscriptions (
  stripe_subscription_id text primary key,
  -- Kept for the books when the account goes.
  user_id uuid references public.profiles (id) on delete set null,
  stripe_customer_id text not null,
  -- The account's subscription at the time, which stays.
  kept_subscription_id text not null,
  detected_at timestamptz not null default now(),
  -- Set once canceled in Stripe and its latest invoice refunded.
  settled_at timestamptz,
  refunded_cents integer check (refunded_cents >= 0),
  refund_ids text[] not null default '{}'
);
create index second_subscriptions_user_id_idx on private.second_subscriptions (user_id);
alter table private.second_subscriptions enable row level security;
revoke all on table private.second_subscriptions from public, anon, authenticated;
-- No policies: only the server (its direct connection) reads or writes it.

/**
 * Applies one Stripe event to the subscription it concerns. Idempotent by event id; the
 * subscriptions trigger skips an event the order rules refuse ('stale'). Outcomes:
 *   applied | resolved | conflict | second_subscription | second_subscription_unsettled |
 *   duplicate | stale | ignored (not about a subscription) | unknown_customer.
 * Two events about one subscription with the same `created` second that disagree on its status
 * or tier (neither final) cannot be ordered from what they carry: the later one answers
 * 'conflict' and is not kept as received, so the stripe-webhook function asks Stripe for the
 * subscription and records the event again with p_from_stripe = true: Stripe's current state is
 * applied at that second ('resolved'). If Stripe cannot be reached the function answers 5xx and
 * Stripe delivers the event again.
 * An event about a live subscription other than the account's stored live one answers
 * 'second_subscription_unsettled' and is not kept; the webhook asks Stripe about both: when both
 * are live it notes the new one (note_second_subscription), cancels it in Stripe, refunds what it
 * charged and marks it settled (settle_second_subscription), then records the event again, which
 * changes nothing ('second_subscription', as every later event about it). When the stored one is
 * no longer live in Stripe, the event is recorded with Stripe's state ('resolved').
 * p_scheduled_tier and p_scheduled_change_at: the plan change the subscription's schedule holds
 * for the period's end, read by the webhook with every event (nulls: nothing scheduled).
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
  p_current_period_end timestamptz default null,
  -- The subscription as Stripe has it now (fetched after a 'conflict'), not as an event carried it.
  p_from_stripe boolean default false,
  -- The plan change scheduled for the period's end (the schedule's next phase), or nulls.
  p_scheduled_tier text default null,
  p_scheduled_change_at timestamptz default null
)
returns text
language plpgsql
set search_path = ''
as $$
declare
  v_user_id uuid;
  v_current public.subscriptions;
  v_second private.second_subscriptions;
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
      select * into v_current from public.subscriptions s where s.user_id = v_user_id for update;
      select * into v_second from private.second_subscriptions x where x.stripe_subscription_id = p_subscription_id;
      if v_second.settled_at is not null then
        -- Canceled and refunded already: nothing it says changes the account.
        update private.stripe_events set processed_at = now() where id = p_event_id;
        return 'second_subscription';
      end if;
      if v_second.stripe_subscription_id is not null
         or (not coalesce(p_from_stripe, false)
             and v_current.stripe_subscription_id is distinct from p_subscription_id
             and v_current.status in ('active', 'trialing')
             and p_status in ('active', 'trialing')) then
        -- A second live subscription beside the stored one: not kept as received; the webhook
        -- asks Stripe about both, then settles it (cancel, refund) and records the event again.
        delete from private.stripe_events where id = p_event_id;
        return 'second_subscription_unsettled';
      end if;
      if not coalesce(p_from_stripe, false)
         and v_current.last_stripe_event_at = p_event_created
         and v_current.stripe_subscription_id = p_subscription_id
         and (v_current.status is distinct from p_status
              or (p_tier is not null and v_current.tier is distinct from p_tier))
         and v_current.status not in ('canceled', 'incomplete_expired')
         and coalesce(p_status, '') not in ('canceled', 'incomplete_expired') then
        -- Not kept as received: recorded again with Stripe's answer, or delivered again.
        delete from private.stripe_events where id = p_event_id;
        return 'conflict';
      end if;

      insert into public.subscriptions as s
        (user_id, stripe_customer_id, stripe_subscription_id, status, tier, current_period_end,
         scheduled_tier, scheduled_change_at, last_stripe_event_at)
      values
        (v_user_id, p_customer_id, p_subscription_id, p_status, p_tier, p_current_period_end,
         p_scheduled_tier, p_scheduled_change_at, p_event_created)
      on conflict (user_id) do update set
        stripe_customer_id = excluded.stripe_customer_id,
        stripe_subscription_id = coalesce(excluded.stripe_subscription_id, s.stripe_subscription_id),
        status = coalesce(excluded.status, s.status),
        tier = coalesce(excluded.tier, s.tier),
        current_period_end = coalesce(excluded.current_period_end, s.current_period_end),
        -- What is scheduled now, as the subscription's schedule says (nothing is null).
        scheduled_tier = excluded.scheduled_tier,
        scheduled_change_at = excluded.scheduled_change_at,
        last_stripe_event_at = excluded.last_stripe_event_at;
      -- The trigger skips (writes no row for) an older event, one about a final subscription, or
      -- one about an older subscription than the stored one.
      get diagnostics v_written = row_count;
      v_outcome := case when v_written = 0 then 'stale'
                        when coalesce(p_from_stripe, false) then 'resolved'
                        else 'applied' end;
    end if;
  end if;

  update private.stripe_events set processed_at = now() where id = p_event_id;
  return v_outcome;
end
$$;
revoke execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz, boolean, text, timestamptz)
  from public, anon, authenticated;
grant execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz, boolean, text, timestamptz)
  to service_role;

/** Notes a second subscription of the customer's account (the stored one is `p_kept`); once. */
create function private.note_second_subscription(p_subscription_id text, p_customer_id text, p_kept_subscription_id text)
returns void
language sql
set search_path = ''
as $$
  insert into private.second_subscriptions (stripe_subscription_id, user_id, stripe_customer_id, kept_subscription_id)
  select p_subscription_id, s.user_id, p_customer_id, p_kept_subscription_id
    from public.subscriptions s
   where s.stripe_customer_id = p_customer_id
  on conflict (stripe_subscription_id) do nothing;
$$;
revoke execute on function private.note_second_subscription(text, text, text) from public, anon, authenticated;
grant execute on function private.note_second_subscription(text, text, text) to service_role;

/** Marks a noted second subscription canceled and refunded, with what was refunded. */
create function private.settle_second_subscription(p_subscription_id text, p_refunded_cents integer, p_refund_ids text[])
returns void
language sql
set search_path = ''
as $$
  update private.second_subscriptions
     set settled_at = coalesce(settled_at, now()), refunded_cents = p_refunded_cents, refund_ids = p_refund_ids
   where stripe_subscription_id = p_subscription_id;
$$;
revoke execute on function private.settle_second_subscription(text, integer, text[]) from public, anon, authenticated;
grant execute on function private.settle_second_subscription(text, integer, text[]) to service_role;

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

-- Session recovery after checkout (spec section 4, made single use): a checkout session id stops
-- being a login once it was claimed, and once the account's password changed or any of its
-- sessions ended (a sign-out, a global sign-out, a password change signing other sessions out).
-- Auth records no time for either, so the database notes the last one.

-- Checkout sessions already used to recover a session.
create table private.checkout_recoveries (
  checkout_session_id text primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  claimed_at timestamptz not null default now()
);
create index checkout_recoveries_user_id_idx on private.checkout_recoveries (user_id);
alter table private.checkout_recoveries enable row level security;
revoke all on table private.checkout_recoveries from public, anon, authenticated;
-- No policies: only the server reads or writes it.

-- The last time each account's credentials or sessions changed. Server-only: written by the
-- triggers below, read by claim_checkout_recovery (as their owner): no API role needs it.
create table private.account_credential_changes (
  user_id uuid primary key references auth.users (id) on delete cascade,
  changed_at timestamptz not null
);
alter table private.account_credential_changes enable row level security;
revoke all on table private.account_credential_changes from public, anon, authenticated;

create function private.note_credential_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user_id uuid;
begin
  -- A password update names the user (auth.users), a session's end its owner (auth.sessions).
  if tg_op = 'DELETE' then
    v_user_id := old.user_id;
  else
    v_user_id := new.id;
  end if;
  -- A deleted account's sessions go with it: nothing to note (and no row to reference).
  if exists (select 1 from auth.users u where u.id = v_user_id) then
    insert into private.account_credential_changes as c (user_id, changed_at)
    values (v_user_id, now())
    on conflict (user_id) do update set changed_at = greatest(c.changed_at, excluded.changed_at);
  end if;
  return null;
end
$$;
revoke execute on function private.note_credential_change() from public, anon, authenticated;

create trigger on_auth_user_password_changed
  after update of encrypted_password on auth.users
  for each row
  when (old.encrypted_password is distinct from new.encrypted_password)
  execute function private.note_credential_change();

create trigger on_auth_session_ended
  after delete on auth.sessions
  for each row execute function private.note_credential_change();

-- True only the first time a checkout session is claimed, and only when the account's
-- credentials and sessions have not changed since the checkout was made. A refused claim still
-- uses it up.
create function private.claim_checkout_recovery(p_checkout_session_id text, p_user_id uuid, p_checkout_created timestamptz)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_first boolean;
begin
  insert into private.checkout_recoveries (checkout_session_id, user_id)
  values (p_checkout_session_id, p_user_id)
  on conflict (checkout_session_id) do nothing;
  v_first := found;
  return v_first and not exists (
    select 1 from private.account_credential_changes c
    where c.user_id = p_user_id and c.changed_at >= p_checkout_created
  );
end
$$;
revoke execute on function private.claim_checkout_recovery(text, uuid, timestamptz) from public, anon, authenticated;
grant execute on function private.claim_checkout_recovery(text, uuid, timestamptz) to service_role;
