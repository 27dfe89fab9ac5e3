// The documents point only at what the repository holds: every relative link in README.md,
// docs/ and docs/records/ reaches its file, and the heading it names; every repository path the
// living documents (README.md, docs/*.md) name exists. The dated records in docs/records/ keep
// the paths of their day, so only their links are checked.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const markdownIn = (dir: string) =>
  readdirSync(path.join(repoRoot, dir))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${dir}/${name}`);

const livingDocs = ['README.md', ...markdownIn('docs')];
const records = markdownIn('docs/records');

/** Paths a document may name that are not in a checkout: what a run writes, and example names. */
const notInCheckout = new Set(['bench/results/', 'bench/x.ts']);

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeated ones. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Relative links of a Markdown file that reach no file, or no heading of the file they name. */
function brokenLinks(file: string, markdown = read(file)): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [linked, anchor] = target.split('#');
    const resolved = linked ? path.posix.join(path.posix.dirname(file), linked) : file;
    if (!existsSync(path.join(repoRoot, resolved))) broken.push(target);
    else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(target);
  }
  return broken;
}

describe('links between the documents', () => {
  it.each([...livingDocs, ...records])('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('finds a link to a missing file and one to a missing heading', () => {
    expect(slug('Built-in processing (worker/)')).toBe('built-in-processing-worker');
    expect(slug("The walk's small findings (issue 26)")).toBe('the-walks-small-findings-issue-26');
    const links = '[a](missing.md), [b](../decisions.md#billing), [c](../decisions.md#no-such-heading)';
    expect(brokenLinks('docs/records/README.md', links)).toEqual(['missing.md', '../decisions.md#no-such-heading']);
  });

  it('indexes every record in docs/records/README.md', () => {
    const index = read('docs/records/README.md');
    for (const file of records.filter((name) => !name.endsWith('/README.md')))
      expect(index, `${file} is not in the index`).toContain(`](${path.basename(file)})`);
  });
});

describe('repository paths in the living documents', () => {
  const generated = new Set(['node_modules', 'dist', 'test-results', 'coverage']);
  const roots = new Set(
    readdirSync(repoRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !generated.has(entry.name))
      .map((entry) => entry.name),
  );

  it.each(livingDocs)('%s names only paths that exist', (file) => {
    // A path starts at one of the repository's top folders; `@scope/name` is a package, not a path.
    const paths = [...read(file).matchAll(/(?<![\w./<@-])([a-z][\w.-]*\/[\w./-]*)/g)]
      .map((m) => m[1].replace(/[.,]$/, ''))
      .filter((p) => roots.has(p.split('/')[0]) && !notInCheckout.has(p));
    expect(paths.filter((p) => !existsSync(path.join(repoRoot, p)))).toEqual([]);
  });
});
