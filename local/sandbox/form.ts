// Parses form-encoded bodies and query strings with bracketed keys, as the `stripe` SDK sends
// them: `line_items[0][price]=x`, `metadata[user_id]=y`, `expand[0]=line_items`, `expand[]=z`.
// Objects whose keys are all array indices become arrays (in index order).

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const forbidden = new Set(['__proto__', 'constructor', 'prototype']);

function splitKey(key: string): string[] | null {
  const first = key.indexOf('[');
  if (first === -1) return [key];
  const parts = [key.slice(0, first)];
  const rest = key.slice(first);
  const re = /\[([^\]]*)\]/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = re.exec(rest))) {
    parts.push(match[1]);
    consumed = re.lastIndex;
  }
  if (consumed !== rest.length || parts[0] === '') return null;
  return parts;
}

type Tree = Map<string, Tree | string>;

function toValue(node: Tree | string): FormValue {
  if (typeof node === 'string') return node;
  const keys = [...node.keys()];
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => toValue(node.get(String(k)) as Tree | string));
  }
  const out: FormObject = {};
  for (const [k, v] of node) out[k] = toValue(v);
  return out;
}

export function parseNested(params: URLSearchParams): FormObject {
  const root: Tree = new Map();
  for (const [rawKey, value] of params) {
    const parts = splitKey(rawKey);
    if (!parts || parts.some((p) => forbidden.has(p))) continue;
    let node: Tree = root;
    for (let i = 0; i < parts.length; i += 1) {
      let part = parts[i];
      const last = i === parts.length - 1;
      if (part === '') part = String([...node.keys()].filter((k) => /^\d+$/.test(k)).length); // `a[]` appends
      if (last) {
        node.set(part, value);
      } else {
        let next = node.get(part);
        if (typeof next !== 'object') {
          next = new Map();
          node.set(part, next);
        }
        node = next;
      }
    }
  }
  return toValue(root) as FormObject;
}

export function parseForm(body: string): FormObject {
  return parseNested(new URLSearchParams(body));
}
