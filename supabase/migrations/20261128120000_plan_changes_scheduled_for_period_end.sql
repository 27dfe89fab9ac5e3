-- A plan change that lowers the price waits for the end of the period already paid (issue 39,
-- item 2): Stripe's billing portal schedules it (a subscription schedule) instead of applying it,
-- so the subscription keeps its price, and the row its tier (the monthly limit and the clips per
-- episode), until the period ends; Stripe then moves the subscription to the lower price and the
-- usual customer.subscription.updated applies it. Until then the row says what is scheduled, so
-- the app can tell the subscriber: the tier the subscription changes to and when. The webhook
-- reads both from the subscription's schedule with every event about the subscription (null:
-- nothing scheduled), so each applied event carries them whole.
--
-- record_stripe_event takes the two as p_scheduled_tier and p_scheduled_change_at; otherwise as
-- in 20261126165000_plan_changes_and_old_subscription_events.sql.

alter table public.subscriptions
  add column scheduled_tier text references public.plans (id),
  add column scheduled_change_at timestamptz,
  add constraint subscriptions_scheduled_change_whole check ((scheduled_tier is null) = (scheduled_change_at is null));
create index subscriptions_scheduled_tier_idx on public.subscriptions (scheduled_tier);

drop function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz, boolean);

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
