// Postgres types as TypeScript text, and the small text builders the generated file is made of.
import { schema, type Column } from './catalog.ts';

export const quote = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

/** The enums and composite types of the schema, which types refer to by name. */
export interface NamedTypes {
  enums: Set<string>;
  composites: Set<string>;
}

export function scalar(typeSchema: string, typeName: string, category: string, named: NamedTypes): string {
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

export function columnType(column: Column, named: NamedTypes): string {
  if (column.type_category === 'A' && column.element_name) {
    const element = scalar(column.element_schema ?? '', column.element_name, column.element_category ?? '', named);
    return element.includes(' ') || element.includes('|') ? `(${element})[]` : `${element}[]`;
  }
  return scalar(column.type_schema, column.type_name, column.type_category, named);
}

export function indent(text: string, by: number): string {
  const pad = ' '.repeat(by);
  return text
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}

export function objectType(fields: [string, string][], empty = '{\n  [_ in never]: never\n}'): string {
  if (fields.length === 0) return empty;
  return `{\n${fields.map(([key, value]) => indent(`${key}: ${value}`, 2)).join('\n')}\n}`;
}
