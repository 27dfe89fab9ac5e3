// The generated Functions: each function's Args, Returns and, for one returning a relation or a composite, SetofOptions.
import { schema, type Catalog } from './catalog.ts';
import { objectType, quote, scalar, type NamedTypes } from './ts-types.ts';

export function functionTypes({ relations, functions, types }: Catalog, named: NamedTypes, rowOf: (table: string) => string): [string, string][] {
  const tsOfOid = (oid: number): string => {
    const t = types.get(Number(oid));
    if (!t) return 'unknown';
    if (t.category === 'A') {
      const inner = tsOfOid(t.elem);
      return inner.includes(' ') || inner.includes('|') ? `(${inner})[]` : `${inner}[]`;
    }
    return scalar(t.schema, t.name, t.category, named);
  };

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
  return [...functionGroups].map(([name, variants]) => [
    quote(name),
    variants.join('\n| '),
  ]);
}
