// A normalized dump of a database: every object in every non-system schema with its owner,
// grants, policies, comments and definition (function bodies verbatim), and the rows the
// migrations write (plans, buckets, cron jobs, other tables of public and private), one sorted
// line per item. Two databases built two ways (an old migration chain and the release baseline:
// scripts/compare-baseline.ts; the migrations and supabase/schemas: tests/db/schema-files.test.ts)
// are the same when their dumps are.
import pg from 'pg';

// Grants in a stable order (an ACL lists entries in the order they were granted).
const aclFunction = `
  create function pg_temp.acl(items aclitem[]) returns text language sql stable as $$
    select coalesce(string_agg(case when a.grantee = 0 then 'PUBLIC' else a.grantee::regrole::text end
                               || ':' || a.privilege_type || case when a.is_grantable then '*' else '' end
                               || '/' || a.grantor::regrole::text, ',' order by 1), '')
      from (select (aclexplode(items)).*) a
  $$`;

const ours = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg\\_temp%' and n.nspname not like 'pg\\_toast\\_temp%'`;
/** Columns whose values the clock or a sequence decides, not the migrations. */
const volatileKeys = `array['created_at', 'updated_at', 'jobid']`;

const dumpSql = `
  select 'schema ' || n.nspname || ' owner=' || n.nspowner::regrole || ' acl=' || pg_temp.acl(n.nspacl)
         || ' comment=' || coalesce(obj_description(n.oid, 'pg_namespace'), '') as item
    from pg_catalog.pg_namespace n where ${ours}
  union all
  select 'type ' || t.oid::regtype || ' kind=' || t.typtype::text || ' owner=' || t.typowner::regrole || ' acl=' || pg_temp.acl(t.typacl)
         || ' labels=' || coalesce((select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_catalog.pg_enum e where e.enumtypid = t.oid), '')
         || ' base=' || coalesce(format_type(nullif(t.typbasetype, 0), t.typtypmod), '')
         || ' comment=' || coalesce(obj_description(t.oid, 'pg_type'), '')
    from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
   where ${ours} and (t.typtype in ('e', 'd') or (t.typtype = 'c' and (select relkind from pg_catalog.pg_class where oid = t.typrelid) = 'c'))
  union all
  select 'rel ' || c.oid::regclass || ' kind=' || c.relkind::text || ' owner=' || c.relowner::regrole || ' rls=' || c.relrowsecurity
         || ' force=' || c.relforcerowsecurity || ' acl=' || pg_temp.acl(c.relacl) || ' options=' || coalesce(c.reloptions::text, '')
         || ' comment=' || coalesce(obj_description(c.oid, 'pg_class'), '')
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where ${ours} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f', 'c')
  union all
  select 'column ' || a.attrelid::regclass || ' #' || row_number() over (partition by a.attrelid order by a.attnum) || ' ' || a.attname
         || ' ' || format_type(a.atttypid, a.atttypmod) || ' notnull=' || a.attnotnull
         || ' default=' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ' identity=' || a.attidentity::text || ' generated=' || a.attgenerated::text
         || ' acl=' || pg_temp.acl(a.attacl) || ' comment=' || coalesce(col_description(a.attrelid, a.attnum), '')
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
   where ${ours} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') and a.attnum > 0 and not a.attisdropped
  union all
  select 'constraint ' || coalesce(con.conrelid::regclass::text, con.contypid::regtype::text) || ' ' || con.conname || ' '
         || pg_get_constraintdef(con.oid) || ' deferrable=' || con.condeferrable || ' deferred=' || con.condeferred
    from pg_catalog.pg_constraint con join pg_catalog.pg_namespace n on n.oid = con.connamespace where ${ours}
  union all
  select 'index ' || pg_get_indexdef(i.indexrelid) || ' comment=' || coalesce(obj_description(i.indexrelid, 'pg_class'), '')
    from pg_catalog.pg_index i join pg_catalog.pg_class c on c.oid = i.indexrelid join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where ${ours}
  union all
  select 'trigger ' || pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text
    from pg_catalog.pg_trigger t where not t.tgisinternal
  union all
  select 'function ' || p.oid::regprocedure || ' owner=' || p.proowner::regrole || ' acl=' || pg_temp.acl(p.proacl)
         || ' comment=' || coalesce(obj_description(p.oid, 'pg_proc'), '') || E'\\n' || pg_get_functiondef(p.oid)
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
   where ${ours} and p.prokind in ('f', 'p') and not exists (
     select 1 from pg_catalog.pg_depend dep where dep.classid = 'pg_proc'::regclass and dep.objid = p.oid and dep.deptype = 'e')
  union all
  select 'policy ' || schemaname || '.' || tablename || ' ' || policyname || ' ' || permissive || ' roles=' || roles::text
         || ' cmd=' || cmd || ' using=' || coalesce(qual, '') || ' check=' || coalesce(with_check, '')
    from pg_catalog.pg_policies
  union all
  select 'view ' || c.oid::regclass || E'\\n' || pg_get_viewdef(c.oid)
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where ${ours} and c.relkind in ('v', 'm')
  union all
  select 'sequence ' || schemaname || '.' || sequencename || ' ' || data_type || ' start=' || start_value || ' increment=' || increment_by
         || ' min=' || min_value || ' max=' || max_value || ' cache=' || cache_size || ' cycle=' || cycle
    from pg_catalog.pg_sequences
  union all
  select 'owned-by ' || d.objid::regclass || ' ' || d.refobjid::regclass || '.' || a.attname
    from pg_catalog.pg_depend d join pg_catalog.pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
   where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
     and (select relkind from pg_catalog.pg_class where oid = d.objid) = 'S'
  union all
  select 'default-acl ' || d.defaclrole::regrole || ' schema=' || coalesce(d.defaclnamespace::regnamespace::text, '') || ' '
         || d.defaclobjtype::text || ' ' || pg_temp.acl(d.defaclacl)
    from pg_catalog.pg_default_acl d
  union all
  select 'cast ' || c.castsource::regtype || ' as ' || c.casttarget::regtype || ' function=' || c.castfunc::regprocedure
         || ' context=' || c.castcontext::text || ' method=' || c.castmethod::text
    from pg_catalog.pg_cast c where c.oid >= 16384
  union all
  select 'extension ' || e.extname || ' ' || e.extversion || ' schema=' || e.extnamespace::regnamespace from pg_catalog.pg_extension e
  union all
  select 'cron ' || (to_jsonb(j) - ${volatileKeys} - 'database')::text from cron.job j
  union all
  select 'bucket ' || (to_jsonb(b) - ${volatileKeys})::text from storage.buckets b`;

/** Every table of ours, with the rows the migrations wrote into it. */
async function rows(client: pg.Client): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(`
    select c.oid::regclass::text as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') order by 1`);
  const lines: string[] = [];
  for (const { name } of tables) {
    const { rows: data } = await client.query<{ row: string }>(
      `select (to_jsonb(t) - ${volatileKeys})::text as row from ${name} t`,
    );
    lines.push(...data.map((r) => `row ${name} ${r.row}`));
  }
  return lines;
}

export async function schemaDump(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(aclFunction);
    const { rows: items } = await client.query<{ item: string }>(dumpSql);
    return [...items.map((r) => r.item), ...(await rows(client))].sort();
  } finally {
    await client.end();
  }
}

/** Lines only in `a` (-) and only in `b` (+), as a multiset difference. */
export function dumpDifference(a: string[], b: string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  const added: string[] = [];
  for (const line of b) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else added.push(`+ ${line}`);
  }
  const removed = [...counts].flatMap(([line, n]) => Array<string>(n).fill(`- ${line}`));
  return [...removed, ...added];
}
