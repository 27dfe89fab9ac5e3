-- The processing-pieces bucket swept (issue 28): the join removes a delivered plan's files, but a
-- plan that failed, was replaced by a new attempt, or whose join could not remove them left them
-- there for good. `storage-cleanup` now deletes, through the Storage API, every piece older than
-- p_age that no plan under way names (its plan is gone, or its submission delivered or failed).
--   processing-pieces:  <processing id>/<plan id>/<piece file>
create function private.stale_processing_pieces(p_age interval, p_limit integer)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select o.name
    from storage.objects o
   where o.bucket_id = 'processing-pieces'
     and o.created_at < now() - p_age
     and not exists (
       select 1
         from private.processing_plans p
         join public.episode_processing e on e.id = p.processing_id
        where p.plan_id::text = split_part(o.name, '/', 2)
          and e.status in ('queued', 'processing'))
   order by o.created_at
   limit p_limit
$$;
revoke execute on function private.stale_processing_pieces(interval, integer) from public, anon, authenticated;
grant execute on function private.stale_processing_pieces(interval, integer) to service_role;
