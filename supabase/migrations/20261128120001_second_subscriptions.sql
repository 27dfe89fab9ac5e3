-- A second live subscription for one account (issue 39, item 8: two checkouts opened before
-- paying both succeed) is no longer taken over silently, nor ignored. An event about a live
-- subscription other than the account's stored live one answers 'second_subscription_unsettled'
-- and is not kept as received; the stripe-webhook function then asks Stripe about both: when both
-- are live, it notes the new one here (note_second_subscription), cancels it in Stripe, refunds
-- what it charged (its latest invoice) and marks it settled (settle_second_subscription), then
-- records the event again, which now changes nothing ('second_subscription', as every later
-- event about it). When the stored one is no longer live in Stripe (its end not delivered yet),
-- the event is recorded with Stripe's state ('resolved'), as a new checkout replacing an ended
-- subscription always was.
--
-- private.second_subscriptions is the operators' record of each one (docs/operations.md): which
-- subscription was kept, when it was found, what was refunded.
--
-- Outcomes: applied | resolved | conflict | second_subscription | second_subscription_unsettled |
-- duplicate | stale | ignored | unknown_customer.

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

-- As in 20261128120000_plan_changes_scheduled_for_period_end.sql, with the second-subscription
-- rule before the same-second conflict.
create or replace function private.record_stripe_event(
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

