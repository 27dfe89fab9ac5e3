-- One automation per submission: the built-in worker or the external webhook, never both.
-- The automation active when a submission (or resubmission) is logged takes it, decided in the
-- same transaction: queue_episode_processing() gives the worker a processing row when 'builtin'
-- is active, and the outbox row written next is created skipped when that row exists, so the
-- outbox never posts a submission the worker is processing. Switching the automation later
-- does not move submissions already taken.

-- When the outbox stood aside because the built-in worker took the submission.
alter table public.webhook_deliveries add column skipped_at timestamptz;

create function private.skip_delivery_taken_by_worker()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.episode_processing p where p.submission_log_id = new.submission_log_id) then
    new.skipped_at := now();
  end if;
  return new;
end
$$;
revoke execute on function private.skip_delivery_taken_by_worker() from public;

create trigger webhook_deliveries_skip_taken_by_worker
  before insert on public.webhook_deliveries
  for each row execute function private.skip_delivery_taken_by_worker();

-- Deliveries still due whose submission the worker already has (both automations took them
-- before this rule) stand aside too.
update public.webhook_deliveries d
   set skipped_at = now()
 where d.delivered_at is null and d.failed_at is null
   and exists (select 1 from public.episode_processing p where p.submission_log_id = d.submission_log_id);

drop index public.webhook_deliveries_due_idx;
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at)
  where delivered_at is null and failed_at is null and skipped_at is null;

-- As before, but a skipped delivery is never claimed.
create or replace function public.claim_webhook_deliveries(p_limit integer default 10, p_lease interval default '5 minutes')
returns setof public.webhook_deliveries
language sql
set search_path = ''
as $$
  update public.webhook_deliveries d
     set attempts = d.attempts + 1,
         next_attempt_at = now() + p_lease
   where d.id in (
     select w.id from public.webhook_deliveries w
      where w.delivered_at is null and w.failed_at is null and w.skipped_at is null
        and w.next_attempt_at <= now()
      order by w.next_attempt_at
      limit greatest(p_limit, 0)
      for update skip locked
   )
  returning d.*
$$;
revoke execute on function public.claim_webhook_deliveries(integer, interval) from public, anon, authenticated;
grant execute on function public.claim_webhook_deliveries(integer, interval) to service_role;
