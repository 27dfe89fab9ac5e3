-- Stripe does not deliver events in order, and `created` has whole seconds: a
-- customer.subscription.deleted and an earlier customer.subscription.updated (status active) of
-- the same second could arrive deleted-first, and the updated one revived the subscription.
-- The subscription's own state decides now: in Stripe, `canceled` and `incomplete_expired` are
-- final (a canceled subscription can only have its cancellation_details updated; an expired one
-- is never billed again), so once a Stripe event has put a subscription there, no event about
-- the same subscription (same Stripe subscription id) changes the row, whatever its second.
-- A new subscription (new id, from a new checkout) replaces it as before. Older events stay
-- skipped. Rows written without a Stripe event time (operator fixes) are not affected.
-- record_stripe_event reports such a skipped event as 'stale' (it changed nothing).
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
  if old.status in ('canceled', 'incomplete_expired')
     and new.stripe_subscription_id is not distinct from old.stripe_subscription_id then
    return null;
  end if;
  return new;
end
$$;
revoke execute on function private.ignore_stale_subscription_event() from public, anon, authenticated;
-- A trigger function: called by the table's trigger, whoever writes the row (the webhook's
-- service role, the migration role); no role calls it directly.
