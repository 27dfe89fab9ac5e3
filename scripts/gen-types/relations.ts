// The generated Tables and Views: each relation's Row, Insert, Update and Relationships.
import type { Catalog } from './catalog.ts';
import { columnType, indent, objectType, quote, type NamedTypes } from './ts-types.ts';

/** `rowOf` is also how functions returning a relation's rows, and composite types, are written. */
export function relationTypes({ relations, columns, foreignKeys }: Catalog, named: NamedTypes) {
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
  return { rowOf, tableEntries, viewEntries };
}
