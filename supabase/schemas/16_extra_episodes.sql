-- One more episode this month on the largest plan (issue 43, item 4; docs/decisions.md "Billing").
-- A Scale subscriber at the month's limit buys an extra episode through Stripe Checkout in payment
-- mode (STRIPE_PRICE_EXTRA_EPISODE, a one-time price); the stripe-webhook function records the
-- paid checkout here, and the month's allowance (private.episode_stats_for, which the dashboard,
-- submit_episode and retry_episode all read) counts the plan's episodes plus the extras bought for
-- that calendar month (UTC), the month the payment went through.

create table public.extra_episodes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- The calendar month (UTC) the extra episode belongs to: its first day.
  month date not null check (extract(day from month) = 1),
  -- The paid Checkout session: one extra episode per session, whatever Stripe redelivers.
  stripe_checkout_session_id text not null unique check (char_length(stripe_checkout_session_id) <= 255),
  stripe_payment_intent_id text check (char_length(stripe_payment_intent_id) <= 255),
  amount_cents integer check (amount_cents >= 0),
  currency text check (char_length(currency) <= 10),
  purchased_at timestamptz not null default now()
);
create index extra_episodes_user_id_month_idx on public.extra_episodes (user_id, month);

alter table public.extra_episodes enable row level security;
revoke all on table public.extra_episodes from anon, authenticated;
grant select on table public.extra_episodes to authenticated;
grant select, insert, update, delete on table public.extra_episodes to service_role;

create policy "Users read their own extra episodes"
  on public.extra_episodes for select
  to authenticated
  using (user_id = (select auth.uid()));

-- A paid Checkout session for an extra episode (the webhook's checkout.session.completed):
-- 'recorded', 'duplicate' (this session was recorded before), or 'no_account' (the account is gone).
create function private.record_extra_episode(p_user uuid, p_session text, p_payment_intent text, p_amount integer,
                                             p_currency text, p_paid_at timestamptz)
returns text
language plpgsql
set search_path = ''
as $$
begin
  if not exists (select 1 from public.profiles p where p.id = p_user) then
    return 'no_account';
  end if;
  insert into public.extra_episodes (user_id, month, stripe_checkout_session_id, stripe_payment_intent_id, amount_cents, currency, purchased_at)
  values (p_user, date_trunc('month', p_paid_at at time zone 'UTC')::date, p_session, p_payment_intent, p_amount, p_currency, p_paid_at)
  on conflict (stripe_checkout_session_id) do nothing;
  return case when found then 'recorded' else 'duplicate' end;
end
$$;
revoke execute on function private.record_extra_episode(uuid, text, text, integer, text, timestamptz) from public, anon, authenticated;
grant execute on function private.record_extra_episode(uuid, text, text, integer, text, timestamptz) to service_role;

-- As in 20261128100000_delivered_outputs_use_the_allowance.sql, but a limited plan's limit counts
-- the extra episodes bought for the month of p_at too, and the answer says how many
-- (extraEpisodes; the plan's own limit is limit - extraEpisodes).

