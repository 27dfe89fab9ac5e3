-- Billing's server-only tables and functions leave the exposed `public` schema: PostgREST
-- cannot serve them at all, whatever the grants (RLS stays on as the second wall). The
-- functions reach them over SUPABASE_DB_URL, like the OAuth tokens.
-- "An older Stripe event changes nothing" now has one home, the trigger on subscriptions
-- (private.ignore_stale_subscription_event); record_stripe_event reports what it did.

alter table public.stripe_events set schema private;
alter table public.checkout_recoveries set schema private;
revoke all on table private.stripe_events, private.checkout_recoveries from public, anon, authenticated;

drop function public.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz);
drop function public.claim_checkout_recovery(text, uuid);

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

-- Its body names only public tables: it moves as it is, with its grants (service role only).
alter function public.remember_stripe_customer(uuid, text) set schema private;

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

revoke execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz) from public;
revoke execute on function private.claim_checkout_recovery(text, uuid) from public;
grant execute on function private.record_stripe_event(text, text, timestamptz, uuid, text, text, text, text, timestamptz) to service_role;
grant execute on function private.claim_checkout_recovery(text, uuid) to service_role;
