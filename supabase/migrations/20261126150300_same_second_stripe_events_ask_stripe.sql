-- Two events about one subscription with the same `created` second cannot be ordered from what
-- they carry, and Stripe does not deliver events in order: applying the one that arrives last
-- could keep a state that is no longer Stripe's (e.g. past_due after the payment went through).
-- record_stripe_event now answers 'conflict' for such an event instead of applying it, and
-- does not keep it as received, so the stripe-webhook function asks Stripe for the subscription
-- and records the event again with p_from_stripe = true: Stripe's current state is applied at
-- that second ('resolved'). If Stripe cannot be reached the function answers 5xx and Stripe
-- delivers the event again. A conflict is only between two states that are not final: a
-- canceled or incomplete_expired subscription stays so (20261126150200), and an event that
-- makes it so is applied, since Stripe never leaves those states.
--
-- Outcomes: applied | resolved | conflict | duplicate | stale | ignored | unknown_customer.

drop function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz);

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
         and v_current.status is distinct from p_status
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
      -- The trigger skips (writes no row for) an older event, or one about a final subscription.
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
