-- Plan changes (issue 26, item 8) make the tier change while the status stays active, and a
-- subscriber may hold a second subscription over time. Two gaps in the event order rules close:
--
-- 1. Two events of the same second about one live subscription that disagree on its tier (a plan
--    change in the second of another event) are settled by Stripe like a status disagreement:
--    record_stripe_event answers 'conflict', the webhook reads the subscription and records
--    Stripe's state ('resolved'). Before, the one that arrived last won.
-- 2. A late event about another, older subscription than the stored one no longer replaces it:
--    an event about a different Stripe subscription id is skipped ('stale') when that
--    subscription is final (canceled, incomplete_expired), or when it is not live (active,
--    trialing) while the stored one is. A new checkout's subscription still replaces a canceled
--    or past_due one. Rows without a Stripe event time or subscription (customer only, operator
--    fixes) are not affected.

create or replace function private.ignore_stale_subscription_event()
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
  p_from_stripe boolean default false
)
returns text
language plpgsql
set search_path = ''
as $$
declare
  v_user_id uuid;
  v_current public.subscriptions;
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

revoke execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz, boolean)
  from public, anon, authenticated;
grant execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz, boolean)
  to service_role;
