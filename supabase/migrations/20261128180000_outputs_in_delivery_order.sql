-- One delivered file (or one about to be), replacing the output of the same name. The outputs
-- are kept in the delivery's order whatever order they reach Drive in (the clips' pieces deliver
-- side by side, before the join): the episode, the clips by name (numbered from 01), then the
-- rest in the order first recorded.
create or replace function private.record_output(p_id uuid, p_output jsonb)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if jsonb_typeof(p_output) is distinct from 'object' or jsonb_typeof(p_output -> 'name') is distinct from 'string'
     or jsonb_typeof(p_output -> 'kind') is distinct from 'string' then
    raise exception 'invalid_output' using errcode = '22023', detail = 'An output needs a name and a kind.';
  end if;
  update public.episode_processing p
     set outputs = (
       select coalesce(jsonb_agg(s.o order by case s.o ->> 'kind' when 'episode' then 0 when 'clip' then 1 else 2 end,
                                            case when s.o ->> 'kind' = 'clip' then s.o ->> 'name' end, s.ord), '[]'::jsonb)
         from (select case when a.o ->> 'name' = p_output ->> 'name' then p_output else a.o end as o, a.ord
                 from jsonb_array_elements(p.outputs) with ordinality as a (o, ord)
               union all
               select p_output, jsonb_array_length(p.outputs) + 1
                where not exists (select 1 from jsonb_array_elements(p.outputs) x where x ->> 'name' = p_output ->> 'name')) s)
   where p.id = p_id;
end
$$;
revoke execute on function private.record_output(uuid, jsonb) from public, anon, authenticated;
grant execute on function private.record_output(uuid, jsonb) to service_role;
