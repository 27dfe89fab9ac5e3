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
create or replace function private.episode_stats_for(p_user uuid, p_at timestamptz)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_status text;
  v_tier text;
  v_limit integer;
  v_month_start timestamptz := date_trunc('month', p_at at time zone 'UTC') at time zone 'UTC';
  v_extra integer;
  v_this_month integer;
  v_total integer;
  v_drive_state text;
  v_hosting_ready boolean;
  v_reason text;
begin
  select s.status,
         coalesce(s.tier, 'starter'),
         -- A tier without a plan row allows one episode; a plan's null limit means unlimited.
         case when pl.id is null then 1 else pl.episodes_per_month end,
         (select count(*)::integer
            from public.extra_episodes x
           where x.user_id = u.id and x.month = (v_month_start at time zone 'UTC')::date),
         (select count(*)
            from public.episodes e
           where e.user_id = u.id
             and e.last_attempt_at >= v_month_start
             and e.last_attempt_at < v_month_start + interval '1 month'
             and private.episode_uses_allowance(e.id)),
         (select count(distinct d.episode_id)
            from (select p.episode_id from public.episode_processing p where p.user_id = u.id and p.status = 'delivered'
                  union all
                  select l.episode_id from public.submission_logs l where l.user_id = u.id and l.status = 'delivered') d),
         coalesce(drive.state, 'disconnected'),
         coalesce(p.hosting_ready_at <= p_at, false)
    into v_status, v_tier, v_limit, v_extra, v_this_month, v_total, v_drive_state, v_hosting_ready
    from (select p_user as id) u
    left join public.subscriptions s on s.user_id = u.id
    left join public.plans pl on pl.id = coalesce(s.tier, 'starter')
    left join public.profiles p on p.id = u.id
    left join lateral (
      select private.connection_display_state(c.provider, c.connected, c.status, c.has_access_token,
               c.has_refresh_token, c.expires_at, c.created_at, c.updated_at, p_at) as state
        from public.oauth_connections c
       where c.user_id = u.id and c.provider = 'google'
    ) drive on true;
  v_limit := v_limit + v_extra;

  if v_drive_state = 'disconnected' then
    v_reason := 'google_drive_required';
  elsif v_drive_state in ('expired', 'failed') then
    v_reason := 'google_drive_invalid';
  elsif not v_hosting_ready then
    v_reason := 'hosting_setup';
  elsif v_limit is not null and v_this_month >= v_limit then
    v_reason := 'monthly_limit';
  end if;

  return jsonb_build_object(
    'thisMonth', v_this_month,
    'total', v_total,
    'currentCount', v_this_month,
    'limit', v_limit,
    'extraEpisodes', v_extra,
    'subscriptionTier', v_tier,
    'canSubmit', v_reason is null and coalesce(v_status = 'active', false),
    'blockReason', v_reason,
    'hostingSetup', v_hosting_ready
  );
end
$$;
