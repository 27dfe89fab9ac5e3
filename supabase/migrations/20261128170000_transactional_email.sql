-- Transactional e-mail (issue 43, item 1; docs/decisions.md "Transactional e-mail"). Each event
-- the product promises an e-mail for writes one row into an outbox, in the same transaction as
-- the state change that is the event, from a trigger on that change: so the worker, the webhook
-- and the functions need no change, and nothing is sent for a change that rolled back. The
-- `send-emails` Edge Function (Supabase Cron every minute, and a call at once when a row is
-- queued) claims due rows, renders the one set of templates
-- (supabase/functions/_shared/domain-server/email-templates.ts) and sends them through the
-- configured provider, retrying with backoff. Queuing never holds up the change: it only inserts
-- a row, and a failure to queue is a warning, not an error of the change.
--
--   kind                  event (its key: once per event)                                   essential
--   submission_received   an episode is submitted (episodes insert)                          no
--   ready_for_review      processing delivered it and posting waits for the subscriber       no
--   delivered             processing delivered it and posting starts (or nothing to post)    no
--   failed                processing failed for good, or the webhook outbox gave up          yes
--   hosting_ready         profiles.hosting_ready_at set                                      yes
--   reconnect             a connection's status turns expired or failed, or it is flagged   yes
--                         not connected
--   allowance_reached     the month's episodes are all used (a submission or a retry)        no
--
-- A subscriber may unsubscribe from each non-essential kind (a signed link in the e-mail and its
-- List-Unsubscribe header; POST /api/email/unsubscribe): private.email_unsubscribes.

-- ---------------------------------------------------------------- the outbox
create table private.email_outbox (
  id uuid primary key default gen_random_uuid(),
  -- One e-mail per event: the event's key ('delivered:<processing id>', ...).
  event_key text not null unique check (char_length(event_key) <= 300),
  kind text not null check (kind in ('submission_received', 'ready_for_review', 'delivered', 'failed',
                                     'hosting_ready', 'reconnect', 'allowance_reached')),
  user_id uuid not null references public.profiles (id) on delete cascade,
  recipient text not null check (char_length(recipient) between 3 and 320),
  -- What the template shows (EmailData in _shared/domain-server/email-templates.ts).
  data jsonb not null default '{}'::jsonb check (jsonb_typeof(data) = 'object'),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  -- While a sender run holds the row.
  leased_until timestamptz,
  sent_at timestamptz,
  -- Given up after the last attempt (last_error says why).
  failed_at timestamptz,
  -- Not sent: the subscriber unsubscribed from this kind before it went out.
  skipped_at timestamptz,
  last_error text check (char_length(last_error) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index email_outbox_due_idx on private.email_outbox (next_attempt_at)
  where sent_at is null and failed_at is null and skipped_at is null;
create index email_outbox_user_id_idx on private.email_outbox (user_id);
create trigger email_outbox_set_updated_at
  before update on private.email_outbox
  for each row execute function private.set_updated_at();
alter table private.email_outbox enable row level security;
revoke all on table private.email_outbox from public, anon, authenticated, service_role;

-- The kinds each subscriber unsubscribed from.
create table private.email_unsubscribes (
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null check (kind in ('submission_received', 'ready_for_review', 'delivered', 'allowance_reached')),
  unsubscribed_at timestamptz not null default now(),
  primary key (user_id, kind)
);
alter table private.email_unsubscribes enable row level security;
revoke all on table private.email_unsubscribes from public, anon, authenticated, service_role;

-- The kinds a subscriber may not unsubscribe from (EMAIL_ESSENTIAL_KINDS in _shared/domain/email.ts).
create function private.email_essential_kinds()
returns text[]
language sql
immutable
set search_path = ''
as $$ select array['failed', 'hosting_ready', 'reconnect'] $$;
revoke execute on function private.email_essential_kinds() from public, anon, authenticated, service_role;

-- Calls the sender now (pg_net, sent after the transaction commits). Never fails the change that
-- queued the e-mail: without pg_net or the Vault secrets the every-minute schedule sends it.
create function private.call_email_sender()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.invoke_edge_function('send-emails');
exception when others then
  null;
end
$$;
revoke execute on function private.call_email_sender() from public, anon, authenticated, service_role;

-- Queues one e-mail for p_user's address (nothing without one, or when they unsubscribed from a
-- kind that is not essential, or when the event was queued before). A failure is only a warning:
-- the change that is the event goes on.
create function private.queue_email(p_user uuid, p_kind text, p_event_key text, p_data jsonb default '{}'::jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
  v_first_name text;
begin
  select p.email, p.first_name into v_email, v_first_name from public.profiles p where p.id = p_user;
  if v_email is null or v_email !~ '@' then
    return;
  end if;
  if not (p_kind = any (private.email_essential_kinds()))
     and exists (select 1 from private.email_unsubscribes u where u.user_id = p_user and u.kind = p_kind) then
    return;
  end if;
  insert into private.email_outbox (event_key, kind, user_id, recipient, data)
  values (p_event_key, p_kind, p_user, v_email, coalesce(p_data, '{}'::jsonb) || jsonb_build_object('firstName', v_first_name))
  on conflict (event_key) do nothing;
  if found then
    perform private.call_email_sender();
  end if;
exception when others then
  raise warning 'could not queue the % e-mail %: %', p_kind, p_event_key, sqlerrm;
end
$$;
revoke execute on function private.queue_email(uuid, text, text, jsonb) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------- the events

-- An episode submitted, and the month's allowance when it takes the last slot. A retry moves
-- last_attempt_at (it is an attempt of the month it happens in), which may take the last slot too.
create function private.email_on_episode()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_stats jsonb;
  v_limit integer;
begin
  if tg_op = 'INSERT' then
    perform private.queue_email(new.user_id, 'submission_received', 'submission_received:' || new.id,
                                jsonb_build_object('episodeId', new.id, 'title', new.title));
  end if;
  v_stats := private.episode_stats_for(new.user_id, now());
  v_limit := (v_stats ->> 'limit')::integer;
  if v_limit is not null and (v_stats ->> 'thisMonth')::integer >= v_limit then
    perform private.queue_email(new.user_id, 'allowance_reached',
                                format('allowance_reached:%s:%s:%s', new.user_id, to_char(now() at time zone 'UTC', 'YYYY-MM'), v_limit),
                                jsonb_build_object('limit', v_limit, 'used', (v_stats ->> 'thisMonth')::integer,
                                                   'tier', v_stats ->> 'subscriptionTier'));
  end if;
  return null;
exception when others then
  raise warning 'could not queue the e-mails of episode %: %', new.id, sqlerrm;
  return null;
end
$$;
revoke execute on function private.email_on_episode() from public, anon, authenticated, service_role;

create trigger episodes_email_submitted
  after insert on public.episodes
  for each row execute function private.email_on_episode();
create trigger episodes_email_retried
  after update of last_attempt_at on public.episodes
  for each row when (new.last_attempt_at is distinct from old.last_attempt_at)
  execute function private.email_on_episode();

-- Processing delivered or failed an episode. Delivered: posting waits for the subscriber's review
-- when something holds it (review_hold) or their window has not passed (review_due_at ahead);
-- otherwise it starts now. Either way one e-mail per delivery, keyed by the processing row.
create function private.email_on_processing()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_title text;
begin
  if new.user_id is null or new.status is not distinct from old.status or new.status not in ('delivered', 'failed') then
    return null;
  end if;
  select e.title into v_title from public.episodes e where e.id = new.episode_id;
  if new.status = 'delivered' then
    perform private.queue_email(
      new.user_id,
      case when new.review_hold is not null or new.review_due_at > now() then 'ready_for_review' else 'delivered' end,
      'delivered:' || new.id,
      jsonb_build_object('episodeId', new.episode_id, 'title', v_title, 'driveFolderUrl', new.drive_folder_url,
                         'hold', new.review_hold, 'dueAt', new.review_due_at));
  else
    perform private.queue_email(new.user_id, 'failed', 'failed:' || new.id,
                                jsonb_build_object('episodeId', new.episode_id, 'title', v_title, 'reason', new.failure_reason,
                                                   'permanent', new.failure_permanent));
  end if;
  return null;
exception when others then
  raise warning 'could not queue the e-mail of processing %: %', new.id, sqlerrm;
  return null;
end
$$;
revoke execute on function private.email_on_processing() from public, anon, authenticated, service_role;

create trigger episode_processing_email
  after update of status on public.episode_processing
  for each row execute function private.email_on_processing();

-- The automation webhook's outbox gave up on a subscriber's own submission: it failed too.
create function private.email_on_submission_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_title text;
begin
  if new.status <> 'failed' or old.status = 'failed' or new.user_id is null or new.episode_id is null or new.submitted_by is not null then
    return null;
  end if;
  select e.title into v_title from public.episodes e where e.id = new.episode_id;
  perform private.queue_email(new.user_id, 'failed', 'failed:log:' || new.id,
                              jsonb_build_object('episodeId', new.episode_id, 'title', v_title,
                                                 'reason', 'The episode could not be handed to processing.', 'permanent', false));
  return null;
exception when others then
  raise warning 'could not queue the e-mail of submission log %: %', new.id, sqlerrm;
  return null;
end
$$;
revoke execute on function private.email_on_submission_log() from public, anon, authenticated, service_role;

create trigger submission_logs_email_failed
  after update of status on public.submission_logs
  for each row execute function private.email_on_submission_log();

-- Podcast hosting became ready (the feed passed, or an operator marked it); again after a restart.
create function private.email_on_hosting_ready()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_email(new.id, 'hosting_ready',
                              format('hosting_ready:%s:%s', new.id, extract(epoch from new.hosting_ready_at)),
                              '{}'::jsonb);
  return null;
end
$$;
revoke execute on function private.email_on_hosting_ready() from public, anon, authenticated, service_role;

create trigger profiles_email_hosting_ready
  after update of hosting_ready_at on public.profiles
  for each row when (old.hosting_ready_at is null and new.hosting_ready_at is not null)
  execute function private.email_on_hosting_ready();

-- A connection needs reconnecting: its status turned expired or failed (a refused refresh), or it
-- is flagged not connected. Once per turn (the transaction's time in the key).
create function private.email_on_connection()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.queue_email(new.user_id, 'reconnect',
                              format('reconnect:%s:%s', new.id, extract(epoch from now())),
                              jsonb_build_object('provider', new.provider));
  return null;
end
$$;
revoke execute on function private.email_on_connection() from public, anon, authenticated, service_role;

create trigger oauth_connections_email_reconnect
  after update of status, connected on public.oauth_connections
  for each row when ((new.status in ('expired', 'failed') and new.status is distinct from old.status)
                     or (old.connected and not new.connected))
  execute function private.email_on_connection();

-- ---------------------------------------------------------------- the sender's functions

-- Claims up to p_limit due e-mails for p_lease (FOR UPDATE SKIP LOCKED: parallel runs never share
-- one), counting the attempt; rows of kinds the subscriber has since unsubscribed from are skipped.
create function private.claim_emails(p_limit integer default 20, p_lease interval default '5 minutes')
returns table (id uuid, kind text, recipient text, user_id uuid, data jsonb, attempts integer)
language plpgsql
set search_path = ''
as $$
begin
  update private.email_outbox o
     set skipped_at = now(), leased_until = null
   where o.sent_at is null and o.failed_at is null and o.skipped_at is null
     and not (o.kind = any (private.email_essential_kinds()))
     and exists (select 1 from private.email_unsubscribes u where u.user_id = o.user_id and u.kind = o.kind);
  return query
  with due as (
    select o.id from private.email_outbox o
     where o.sent_at is null and o.failed_at is null and o.skipped_at is null
       and o.next_attempt_at <= now() and (o.leased_until is null or o.leased_until < now())
     order by o.next_attempt_at
     limit least(greatest(coalesce(p_limit, 20), 1), 100)
     for update skip locked
  )
  update private.email_outbox o
     set attempts = o.attempts + 1, leased_until = now() + p_lease
    from due
   where o.id = due.id
  returning o.id, o.kind, o.recipient, o.user_id, o.data, o.attempts;
end
$$;
revoke execute on function private.claim_emails(integer, interval) from public, anon, authenticated;
grant execute on function private.claim_emails(integer, interval) to service_role;

-- The outcome of one attempt: sent, or failed and tried again after p_retry_in (given up with p_give_up).
create function private.record_email_attempt(p_id uuid, p_sent boolean, p_error text, p_retry_in interval, p_give_up boolean)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update private.email_outbox
     set leased_until = null,
         sent_at = case when p_sent then now() end,
         failed_at = case when not p_sent and p_give_up then now() end,
         last_error = case when p_sent then null else left(p_error, 2000) end,
         next_attempt_at = case when p_sent or p_give_up then next_attempt_at else now() + p_retry_in end
   where id = p_id and sent_at is null;
end
$$;
revoke execute on function private.record_email_attempt(uuid, boolean, text, interval, boolean) from public, anon, authenticated;
grant execute on function private.record_email_attempt(uuid, boolean, text, interval, boolean) to service_role;

-- A subscriber unsubscribes from a kind that is not essential (the api checked the signed link);
-- what is still waiting of that kind is not sent. Answers whether the kind may be unsubscribed
-- from; PT404 account_not_found for an account that is gone.
create function private.email_unsubscribe(p_user uuid, p_kind text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_kind = any (private.email_essential_kinds()) then
    return false;
  end if;
  if not exists (select 1 from public.profiles p where p.id = p_user) then
    raise exception 'account_not_found' using errcode = 'PT404', detail = 'This account no longer exists.';
  end if;
  insert into private.email_unsubscribes (user_id, kind) values (p_user, p_kind) on conflict do nothing;
  update private.email_outbox set skipped_at = now()
   where user_id = p_user and kind = p_kind and sent_at is null and failed_at is null and skipped_at is null;
  return true;
end
$$;
revoke execute on function private.email_unsubscribe(uuid, text) from public, anon, authenticated;
grant execute on function private.email_unsubscribe(uuid, text) to service_role;

-- ---------------------------------------------------------------- the schedule
-- Every minute, as the outbox of submissions: the sender claims due rows with SKIP LOCKED.
select cron.schedule(
  'send-emails',
  '* * * * *',
  $$ select private.invoke_edge_function('send-emails') $$
);
