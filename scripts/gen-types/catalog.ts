// Reads the `public` schema's catalog: relations, columns, foreign keys, enums, composites, functions and their types.
import type pg from 'pg';

export const schema = 'public';

export interface Column {
  table_name: string;
  column_name: string;
  type_schema: string;
  type_name: string;
  type_category: string;
  element_schema: string | null;
  element_name: string | null;
  element_category: string | null;
  nullable: boolean;
  has_default: boolean;
  is_identity: boolean;
  is_identity_always: boolean;
  is_generated: boolean;
  is_updatable: boolean;
}

export interface Relation {
  name: string;
  kind: 'r' | 'p' | 'v' | 'm' | 'f';
}

export interface ForeignKey {
  constraint_name: string;
  table_name: string;
  columns: string[];
  referenced_table: string;
  referenced_columns: string[];
  is_one_to_one: boolean;
}

export interface FunctionInfo {
  name: string;
  arg_names: string[] | null;
  arg_modes: string[] | null;
  arg_types: number[];
  arg_defaults: number;
  return_type: number;
  returns_set: boolean;
  return_type_relid: number;
}

export interface TypeInfo {
  oid: number;
  schema: string;
  name: string;
  category: string;
  elem: number;
  relid: number;
  relname: string | null;
  relkind: string | null;
}

export interface Catalog {
  relations: Relation[];
  columns: Column[];
  foreignKeys: ForeignKey[];
  enumRows: { name: string; labels: string[] }[];
  composites: { name: string }[];
  functions: FunctionInfo[];
  /** The types functions take and return (and their array elements), by oid. */
  types: Map<number, TypeInfo>;
}

export async function readCatalog(client: pg.Client): Promise<Catalog> {
  const relations = (
    await client.query<Relation>(
      `select c.relname as name, c.relkind as kind
         from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f')
        order by c.relname`,
      [schema],
    )
  ).rows;

  const columns = (
    await client.query<Column>(
      `select c.relname as table_name, a.attname as column_name,
              tn.nspname as type_schema, t.typname as type_name, t.typcategory as type_category,
              en.nspname as element_schema, et.typname as element_name, et.typcategory as element_category,
              not a.attnotnull as nullable, a.atthasdef as has_default,
              a.attidentity <> '' as is_identity, a.attidentity = 'a' as is_identity_always,
              a.attgenerated <> '' as is_generated,
              coalesce(col.is_updatable = 'YES', false) as is_updatable
         from pg_catalog.pg_attribute a
         join pg_catalog.pg_class c on c.oid = a.attrelid
         join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         join pg_catalog.pg_type t on t.oid = a.atttypid
         join pg_catalog.pg_namespace tn on tn.oid = t.typnamespace
         left join pg_catalog.pg_type et on et.oid = t.typelem and t.typcategory = 'A'
         left join pg_catalog.pg_namespace en on en.oid = et.typnamespace
         left join information_schema.columns col
           on col.table_schema = n.nspname and col.table_name = c.relname and col.column_name = a.attname
        where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attname`,
      [schema],
    )
  ).rows;

  const foreignKeys = (
    await client.query<ForeignKey>(
      `select con.conname as constraint_name, src.relname as table_name,
              array(select a.attname from unnest(con.conkey) with ordinality k(attnum, ord)
                      join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum order by k.ord)::text[] as columns,
              dst.relname as referenced_table,
              array(select a.attname from unnest(con.confkey) with ordinality k(attnum, ord)
                      join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum order by k.ord)::text[] as referenced_columns,
              exists (select 1 from pg_catalog.pg_constraint u
                       where u.conrelid = con.conrelid and u.contype in ('p', 'u')
                         and u.conkey @> con.conkey and u.conkey <@ con.conkey) as is_one_to_one
         from pg_catalog.pg_constraint con
         join pg_catalog.pg_class src on src.oid = con.conrelid
         join pg_catalog.pg_namespace sn on sn.oid = src.relnamespace
         join pg_catalog.pg_class dst on dst.oid = con.confrelid
         join pg_catalog.pg_namespace dn on dn.oid = dst.relnamespace
        where con.contype = 'f' and sn.nspname = $1 and dn.nspname = $1
        order by src.relname, con.conname`,
      [schema],
    )
  ).rows;

  const enumRows = (
    await client.query<{ name: string; labels: string[] }>(
      `select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as labels
         from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
         join pg_catalog.pg_enum e on e.enumtypid = t.oid
        where n.nspname = $1 group by t.typname order by t.typname`,
      [schema],
    )
  ).rows;

  const composites = (
    await client.query<{ name: string }>(
      `select t.typname as name from pg_catalog.pg_type t
         join pg_catalog.pg_namespace n on n.oid = t.typnamespace
         join pg_catalog.pg_class c on c.oid = t.typrelid
        where n.nspname = $1 and t.typtype = 'c' and c.relkind = 'c' order by t.typname`,
      [schema],
    )
  ).rows;

  const functions = (
    await client.query<FunctionInfo>(
      `select p.proname as name, p.proargnames as arg_names, p.proargmodes::text[] as arg_modes,
              coalesce(p.proallargtypes, p.proargtypes::oid[])::int8[] as arg_types, p.pronargdefaults as arg_defaults,
              p.prorettype::int8 as return_type, p.proretset as returns_set, coalesce(rt.typrelid, 0)::int8 as return_type_relid
         from pg_catalog.pg_proc p
         join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         join pg_catalog.pg_type rt on rt.oid = p.prorettype
        where n.nspname = $1 and p.prokind = 'f'
          and rt.typname not in ('trigger', 'event_trigger')
        order by p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)`,
      [schema],
    )
  ).rows;

  const typeOids = new Set<number>();
  for (const fn of functions) {
    typeOids.add(Number(fn.return_type));
    for (const t of fn.arg_types) typeOids.add(Number(t));
  }
  const types = new Map<number, TypeInfo>();
  if (typeOids.size) {
    const { rows } = await client.query<TypeInfo>(
      `select t.oid::int8 as oid, n.nspname as schema, t.typname as name, t.typcategory as category, t.typelem::int8 as elem,
              t.typrelid::int8 as relid, c.relname, c.relkind::text as relkind
         from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
         left join pg_catalog.pg_class c on c.oid = t.typrelid
        where t.oid = any($1::oid[]) or t.oid in (select typelem from pg_catalog.pg_type where oid = any($1::oid[]))`,
      [[...typeOids]],
    );
    for (const row of rows)
      types.set(Number(row.oid), { ...row, oid: Number(row.oid), elem: Number(row.elem), relid: Number(row.relid) });
  }
  return { relations, columns, foreignKeys, enumRows, composites, functions, types };
}
