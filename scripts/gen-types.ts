// Generates supabase/functions/_shared/database.types.ts from a running database's catalog:
// the `public` schema's tables, views, functions, enums and composite types, in the shape
// supabase-js expects for `createClient<Database>()`.
//
//   npm run gen:types                      # the local dev database (npm start)
//   npm run gen:types -- --db-url <url>    # any database
//   npm run gen:types -- --stdout          # print instead of writing
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { loadConfig, repoRoot } from '../local/config.ts';

export const typesFile = path.join(repoRoot, 'supabase', 'functions', '_shared', 'database.types.ts');
const schema = 'public';

interface Column {
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

interface Relation {
  name: string;
  kind: 'r' | 'p' | 'v' | 'm' | 'f';
}

interface ForeignKey {
  constraint_name: string;
  table_name: string;
  columns: string[];
  referenced_table: string;
  referenced_columns: string[];
  is_one_to_one: boolean;
}

interface FunctionInfo {
  name: string;
  arg_names: string[] | null;
  arg_modes: string[] | null;
  arg_types: number[];
  arg_defaults: number;
  return_type: number;
  returns_set: boolean;
  return_type_relid: number;
}

interface TypeInfo {
  oid: number;
  schema: string;
  name: string;
  category: string;
  elem: number;
  relid: number;
  relname: string | null;
  relkind: string | null;
}

const quote = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

/** The enums and composite types of the schema, which types refer to by name. */
interface NamedTypes {
  enums: Set<string>;
  composites: Set<string>;
}

function scalar(typeSchema: string, typeName: string, category: string, named: NamedTypes): string {
  if (typeSchema === schema && named.enums.has(typeName))
    return `Database["public"]["Enums"][${JSON.stringify(typeName)}]`;
  if (typeSchema === schema && category === 'C' && named.composites.has(typeName)) {
    return `Database["public"]["CompositeTypes"][${JSON.stringify(typeName)}]`;
  }
  if (category === 'E' && typeSchema !== schema) return 'string';
  switch (typeName) {
    case 'bool':
      return 'boolean';
    case 'int2':
    case 'int4':
    case 'int8':
    case 'float4':
    case 'float8':
    case 'numeric':
    case 'oid':
      return 'number';
    case 'json':
    case 'jsonb':
      return 'Json';
    case 'void':
      return 'undefined';
    case 'record':
      return 'Record<string, unknown>';
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'char':
    case 'name':
    case 'citext':
    case 'uuid':
    case 'date':
    case 'time':
    case 'timetz':
    case 'timestamp':
    case 'timestamptz':
    case 'interval':
    case 'bytea':
    case 'inet':
    case 'cidr':
    case 'macaddr':
    case 'money':
    case 'tsvector':
    case 'regclass':
      return 'string';
    default:
      return 'unknown';
  }
}

function columnType(column: Column, named: NamedTypes): string {
  if (column.type_category === 'A' && column.element_name) {
    const element = scalar(column.element_schema ?? '', column.element_name, column.element_category ?? '', named);
    return element.includes(' ') || element.includes('|') ? `(${element})[]` : `${element}[]`;
  }
  return scalar(column.type_schema, column.type_name, column.type_category, named);
}

function indent(text: string, by: number): string {
  const pad = ' '.repeat(by);
  return text
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}

function objectType(fields: [string, string][], empty = '{\n  [_ in never]: never\n}'): string {
  if (fields.length === 0) return empty;
  return `{\n${fields.map(([key, value]) => indent(`${key}: ${value}`, 2)).join('\n')}\n}`;
}

export async function generateTypes(client: pg.Client): Promise<string> {
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
  const named: NamedTypes = {
    enums: new Set(enumRows.map((e) => e.name)),
    composites: new Set(composites.map((c) => c.name)),
  };

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
  const tsOfOid = (oid: number): string => {
    const t = types.get(Number(oid));
    if (!t) return 'unknown';
    if (t.category === 'A') {
      const inner = tsOfOid(t.elem);
      return inner.includes(' ') || inner.includes('|') ? `(${inner})[]` : `${inner}[]`;
    }
    return scalar(t.schema, t.name, t.category, named);
  };

  const columnsOf = (table: string) => columns.filter((c) => c.table_name === table);
  const rowOf = (table: string) =>
    objectType(
      columnsOf(table).map((c) => [quote(c.column_name), columnType(c, named) + (c.nullable ? ' | null' : '')]),
    );
  const relationshipsOf = (table: string) => {
    const fks = foreignKeys.filter((fk) => fk.table_name === table);
    if (fks.length === 0) return '[]';
    const items = fks.map((fk) =>
      [
        '{',
        `  foreignKeyName: ${JSON.stringify(fk.constraint_name)}`,
        `  columns: [${fk.columns.map((c) => JSON.stringify(c)).join(', ')}]`,
        `  isOneToOne: ${fk.is_one_to_one}`,
        `  referencedRelation: ${JSON.stringify(fk.referenced_table)}`,
        `  referencedColumns: [${fk.referenced_columns.map((c) => JSON.stringify(c)).join(', ')}]`,
        '},',
      ].join('\n'),
    );
    return `[\n${indent(items.join('\n'), 2)}\n]`;
  };

  const tableEntries: [string, string][] = [];
  const viewEntries: [string, string][] = [];
  for (const relation of relations) {
    const cols = columnsOf(relation.name);
    const isTable = relation.kind === 'r' || relation.kind === 'p' || relation.kind === 'f';
    const insertFields: [string, string][] = cols.map((c) => {
      const type = columnType(c, named) + (c.nullable ? ' | null' : '');
      // Postgres writes generated and always-identity columns itself.
      if (c.is_generated || c.is_identity_always) return [`${quote(c.column_name)}?`, 'never'];
      const optional = c.nullable || c.has_default || c.is_identity;
      return [`${quote(c.column_name)}${optional ? '?' : ''}`, type];
    });
    const updateFields: [string, string][] = cols.map((c) => {
      if (c.is_generated || c.is_identity_always) return [`${quote(c.column_name)}?`, 'never'];
      return [`${quote(c.column_name)}?`, columnType(c, named) + (c.nullable ? ' | null' : '')];
    });
    const parts: [string, string][] = [['Row', rowOf(relation.name)]];
    if (isTable || cols.some((c) => c.is_updatable)) {
      parts.push(['Insert', objectType(insertFields)], ['Update', objectType(updateFields)]);
    }
    parts.push(['Relationships', relationshipsOf(relation.name)]);
    (isTable ? tableEntries : viewEntries).push([quote(relation.name), objectType(parts)]);
  }

  const relationNames = new Map(relations.map((r) => [r.name, r]));
  const functionGroups = new Map<string, string[]>();
  for (const fn of functions) {
    const modes = fn.arg_modes ?? fn.arg_types.map(() => 'i');
    const names = fn.arg_names ?? [];
    const inputs: { name: string; type: string }[] = [];
    const outputs: { name: string; type: string }[] = [];
    fn.arg_types.forEach((oid, i) => {
      const entry = { name: names[i] ?? '', type: tsOfOid(Number(oid)) };
      if (modes[i] === 'i' || modes[i] === 'b' || modes[i] === 'v') inputs.push(entry);
      if (modes[i] === 'o' || modes[i] === 'b' || modes[i] === 't') outputs.push(entry);
    });
    const firstDefault = inputs.length - fn.arg_defaults;
    const args =
      inputs.length === 0
        ? 'never'
        : objectType(
            inputs
              .map((arg, i) => [`${quote(arg.name)}${i >= firstDefault ? '?' : ''}`, arg.type] as [string, string])
              .sort(([a], [b]) => a.replace('?', '').localeCompare(b.replace('?', ''))),
          );

    let returns: string;
    // A function returning rows of a relation or a composite type names it (SetofOptions).
    let setofTarget: string | null = null;
    const returnType = types.get(Number(fn.return_type));
    if (outputs.length > 0) {
      returns = objectType(
        outputs.map((o) => [quote(o.name), o.type] as [string, string]).sort(([a], [b]) => a.localeCompare(b)),
      );
      if (fn.returns_set) returns += '[]';
    } else if (returnType?.relname && relationNames.has(returnType.relname) && returnType.schema === schema) {
      returns = rowOf(returnType.relname);
      if (fn.returns_set) returns += '[]';
      setofTarget = returnType.relname;
    } else if (returnType && returnType.schema === schema && named.composites.has(returnType.name)) {
      returns = tsOfOid(Number(fn.return_type)) + (fn.returns_set ? '[]' : '');
      setofTarget = returnType.name;
    } else {
      returns = tsOfOid(Number(fn.return_type));
      if (fn.returns_set) returns = returns.includes(' ') || returns.includes('|') ? `(${returns})[]` : `${returns}[]`;
    }
    const parts: [string, string][] = [
      ['Args', args],
      ['Returns', returns],
    ];
    if (setofTarget) {
      parts.push([
        'SetofOptions',
        objectType([
          ['from', '"*"'],
          ['to', JSON.stringify(setofTarget)],
          ['isOneToOne', String(!fn.returns_set)],
          ['isSetofReturn', String(fn.returns_set)],
        ]),
      ]);
    }
    const group = functionGroups.get(fn.name) ?? [];
    group.push(objectType(parts));
    functionGroups.set(fn.name, group);
  }
  const functionEntries: [string, string][] = [...functionGroups].map(([name, variants]) => [
    quote(name),
    variants.join('\n| '),
  ]);

  const enumEntries: [string, string][] = enumRows.map((e) => [
    quote(e.name),
    e.labels.map((l) => JSON.stringify(l)).join(' | '),
  ]);
  const compositeEntries: [string, string][] = composites.map((c) => [quote(c.name), rowOf(c.name)]);

  const schemaBody = objectType([
    ['Tables', objectType(tableEntries)],
    ['Views', objectType(viewEntries)],
    ['Functions', objectType(functionEntries)],
    ['Enums', objectType(enumEntries)],
    ['CompositeTypes', objectType(compositeEntries)],
  ]);

  return `// Generated by scripts/gen-types.ts from the database catalog. Do not edit by hand:
// run \`npm run gen:types\` after changing a migration (tests/db/types.test.ts checks it).

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  // PostgREST 12 serves the API (supabase-js picks its query typing from this).
  __InternalSupabase: {
    PostgrestVersion: "12"
  }
  public: ${indent(schemaBody, 2).trimStart()}
}

type PublicSchema = Database["public"]

export type Tables<Name extends keyof PublicSchema["Tables"] | keyof PublicSchema["Views"]> =
  Name extends keyof PublicSchema["Tables"]
    ? PublicSchema["Tables"][Name]["Row"]
    : Name extends keyof PublicSchema["Views"]
      ? PublicSchema["Views"][Name]["Row"]
      : never

export type TablesInsert<Name extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][Name]["Insert"]

export type TablesUpdate<Name extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][Name]["Update"]

export type Enums<Name extends keyof PublicSchema["Enums"]> = PublicSchema["Enums"][Name]

export type CompositeTypes<Name extends keyof PublicSchema["CompositeTypes"]> = PublicSchema["CompositeTypes"][Name]

export type FunctionArgs<Name extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][Name]["Args"]

export type FunctionReturns<Name extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][Name]["Returns"]

export const Constants = {
  public: {
    Enums: {${enumRows.map((e) => `\n      ${quote(e.name)}: [${e.labels.map((l) => JSON.stringify(l)).join(', ')}],`).join('')}${enumRows.length ? '\n    ' : ''}},
  },
} as const
`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const urlIndex = args.indexOf('--db-url');
  const url = urlIndex >= 0 ? args[urlIndex + 1] : (process.env.DATABASE_URL ?? loadConfig('dev').urls.db);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const output = await generateTypes(client);
    if (args.includes('--stdout')) process.stdout.write(output);
    else {
      await writeFile(typesFile, output);
      console.log(`wrote ${path.relative(process.cwd(), typesFile)}`);
    }
  } finally {
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
