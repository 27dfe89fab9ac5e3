-- What hosted Supabase's pg_cron, pg_net and Vault provide, for the Docker-free local stack.
-- Applied by local/postgres/database.ts as `supabase_admin` before the migrations whenever the
-- `cron` schema is missing (a fresh data directory, or one made before scheduled jobs existed).
-- ---------------------------------------------------------------- scheduled jobs (pg_cron, pg_net, Vault)
-- Hosted Supabase runs jobs with the pg_cron and pg_net extensions and keeps their secrets in
-- Vault; embedded Postgres has none of them. These stand-ins have the same names, columns and
-- signatures, so a migration's `cron.schedule(...)` calling `net.http_post(...)` with secrets
-- from `vault.decrypted_secrets` runs unchanged. local/cron/scheduler.ts runs the jobs on their
-- schedules and sends the queued requests. Vault here stores secrets unencrypted (local only).
create schema cron;
grant usage on schema cron to postgres;
create table cron.job (
  jobid bigserial primary key,
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport integer not null default 5432,
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text,
  unique (username, jobname)
);
create table cron.job_run_details (
  jobid bigint,
  runid bigserial primary key,
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
-- As in pg_cron: each role sees and changes only its own jobs.
alter table cron.job enable row level security;
alter table cron.job_run_details enable row level security;
create policy cron_job_policy on cron.job using (username = current_user);
create policy cron_job_run_details_policy on cron.job_run_details using (username = current_user);
grant select, delete on cron.job to postgres;
grant select, delete on cron.job_run_details to postgres;

-- pg_cron accepts five-field cron expressions and '<n> seconds'.
create function cron.valid_schedule(p_schedule text) returns boolean
language sql immutable set search_path = '' as $$
  select p_schedule ~ '^\s*[1-5]?[0-9] seconds\s*$'
      or p_schedule ~ '^\s*(\S+\s+){4}\S+\s*$'
$$;

create function cron.schedule(job_name text, schedule text, command text) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  v_id bigint;
begin
  if not cron.valid_schedule(schedule) then
    raise exception 'invalid schedule: %', schedule using errcode = '22023';
  end if;
  insert into cron.job (schedule, command, jobname, username)
  values (schedule, command, job_name, session_user)
  on conflict (username, jobname) do update set schedule = excluded.schedule, command = excluded.command, active = true
  returning jobid into v_id;
  return v_id;
end
$$;
create function cron.schedule(schedule text, command text) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  v_id bigint;
begin
  if not cron.valid_schedule(schedule) then
    raise exception 'invalid schedule: %', schedule using errcode = '22023';
  end if;
  insert into cron.job (schedule, command, username) values (schedule, command, session_user) returning jobid into v_id;
  return v_id;
end
$$;
create function cron.unschedule(job_name text) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  delete from cron.job where jobname = job_name and username = session_user;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name using errcode = 'P0001';
  end if;
  return true;
end
$$;
create function cron.unschedule(job_id bigint) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  delete from cron.job where jobid = job_id and username = session_user;
  if not found then
    raise exception 'could not find valid entry for job %', job_id using errcode = 'P0001';
  end if;
  return true;
end
$$;
revoke execute on all functions in schema cron from public;
grant execute on all functions in schema cron to postgres;

create schema net;
grant usage on schema net to postgres, service_role;
create table net.http_request_queue (
  id bigserial primary key,
  method text not null,
  url text not null,
  headers jsonb not null,
  body bytea,
  timeout_milliseconds integer not null
);
create table net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now()
);
create index on net._http_response (id);
grant select on net.http_request_queue, net._http_response to postgres, service_role;

-- Queues a request (sent after the calling transaction commits, as pg_net does); the one body
-- behind http_post and http_get.
create function net._enqueue_request(
  method text,
  url text,
  params jsonb,
  headers jsonb,
  body bytea,
  timeout_milliseconds integer
) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  v_id bigint;
  v_url text := url;
begin
  if params <> '{}'::jsonb then
    v_url := v_url || case when position('?' in v_url) > 0 then '&' else '?' end
      || (select string_agg(key || '=' || value, '&') from jsonb_each_text(params));
  end if;
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values (method, v_url, headers, body, timeout_milliseconds)
  returning id into v_id;
  perform pg_notify('castloop_net', v_id::text);
  return v_id;
end
$$;
create function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language sql security definer set search_path = '' as $$
  select net._enqueue_request('POST', url, params, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds);
$$;
create function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language sql security definer set search_path = '' as $$
  select net._enqueue_request('GET', url, params, headers, null, timeout_milliseconds);
$$;
revoke execute on all functions in schema net from public;
grant execute on all functions in schema net to postgres, service_role;
-- Not part of pg_net: reached only through http_post and http_get.
revoke execute on function net._enqueue_request(text, text, jsonb, jsonb, bytea, integer) from postgres, service_role;

create schema vault;
grant usage on schema vault to postgres, service_role;
create table vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text unique,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create view vault.decrypted_secrets as
  select id, name, description, secret, secret as decrypted_secret, key_id, nonce, created_at, updated_at
    from vault.secrets;
create function vault.create_secret(new_secret text, new_name text default null, new_description text default '', new_key_id uuid default null)
returns uuid
language sql security definer set search_path = '' as $$
  insert into vault.secrets (secret, name, description, key_id)
  values (new_secret, new_name, coalesce(new_description, ''), new_key_id)
  returning id
$$;
create function vault.update_secret(secret_id uuid, new_secret text default null, new_name text default null, new_description text default null, new_key_id uuid default null)
returns void
language sql security definer set search_path = '' as $$
  update vault.secrets
     set secret = coalesce(new_secret, secret),
         name = coalesce(new_name, name),
         description = coalesce(new_description, description),
         key_id = coalesce(new_key_id, key_id),
         updated_at = now()
   where id = secret_id
$$;
revoke all on vault.secrets, vault.decrypted_secrets from public;
grant select, delete on vault.secrets, vault.decrypted_secrets to postgres, service_role;
revoke execute on all functions in schema vault from public;
grant execute on all functions in schema vault to postgres, service_role;
