// docs/deploy.md is the operator's only guide to production: it must name every function, every
// setting the code requires or reads, every scheduled job, and only commands and paths the
// repository holds. Each list below is taken from the code, so a new function, setting or job
// fails here until the document has it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';
import { localDefaultSecrets } from '../../supabase/functions/_shared/local-defaults.ts';
import { FUNCTION_NAMES, requiredSettings } from '../../supabase/functions/_shared/settings.ts';
import { requiredSpaSettings } from '../../web/build-settings.ts';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const doc = read('docs/deploy.md');

/** Section `n` of the document ("## n. Title" up to the next "## "). */
function section(n: number): string {
  const match = new RegExp(`^## ${n}\\. [^\\n]*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(doc);
  if (!match) throw new Error(`docs/deploy.md has no section ${n}`);
  return match[1];
}

/** Every `code span` of a text (spans may wrap a line), whitespace collapsed. */
const codeSpans = (text: string) =>
  new Set([...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\s+/g, ' ').trim()));

/** A table row of `text` whose first cell is `key`. */
const row = (text: string, key: string) => text.split('\n').find((line) => line.startsWith(`| \`${key}\` |`));

/** Whether `text` names `setting` in a code span, directly or as one of a `PREFIX_*` family. */
function names(text: string, setting: string): boolean {
  return [...codeSpans(text)].some(
    (span) => span === setting || (span.endsWith('_*') && setting.startsWith(span.slice(0, -1))),
  );
}

const functionFolders = readdirSync(path.join(repoRoot, 'supabase/functions')).filter(
  (name) =>
    !name.startsWith('_') &&
    !name.startsWith('.') &&
    statSync(path.join(repoRoot, 'supabase/functions', name)).isDirectory(),
);
const platformSettings = requiredSettings['storage-cleanup'];

describe('docs/deploy.md, section 4: the Edge Functions', () => {
  const functions = section(4);

  it('deploys every function folder, without JWT verification exactly where config.toml turns it off', () => {
    expect([...FUNCTION_NAMES].sort()).toEqual([...functionFolders].sort());
    const deploys = [...functions.matchAll(/^npx supabase functions deploy (\S+)(.*)$/gm)];
    expect(deploys.map((m) => m[1]).sort()).toEqual([...functionFolders].sort());
    const toml = parse(read('supabase/config.toml')) as { functions?: Record<string, { verify_jwt?: boolean }> };
    for (const [, name, flags] of deploys) {
      expect(flags.includes('--no-verify-jwt'), name).toBe(toml.functions?.[name]?.verify_jwt === false);
    }
  });

  it('its `secrets set` command sets every setting a function refuses to start without', () => {
    const command = /^npx supabase secrets set ((?:.*\\\n)*.*)$/m.exec(functions)?.[1] ?? '';
    const set = new Set([...command.matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]));
    expect(set.size).toBeGreaterThan(0);
    for (const name of FUNCTION_NAMES) {
      for (const setting of requiredSettings[name]) {
        if (!platformSettings.includes(setting)) expect(set.has(setting), `secrets set lacks ${setting}`).toBe(true);
      }
    }
  });

  it('lists every function with each setting it refuses to start without, and explains each one', () => {
    const secretsTable = functions.slice(0, functions.indexOf('| function |'));
    for (const name of FUNCTION_NAMES) {
      const needs = row(functions, name);
      expect(needs, `no row for ${name} in the table of what each function needs`).toBeDefined();
      for (const setting of requiredSettings[name]) {
        if (platformSettings.includes(setting)) continue;
        expect(names(needs ?? '', setting), `${name}'s row does not name ${setting}`).toBe(true);
        expect(codeSpans(secretsTable).has(setting), `${setting} has no line in the secrets table`).toBe(true);
      }
    }
    for (const setting of platformSettings) expect(codeSpans(functions).has(setting), setting).toBe(true);
  });

  it('names every other setting the functions read, and every local default they refuse', () => {
    const source = read('supabase/functions/_shared/settings.ts');
    const read_ = [...source.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]);
    expect(read_.length).toBeGreaterThan(5);
    for (const setting of [...read_, ...Object.keys(localDefaultSecrets)]) {
      expect(codeSpans(functions).has(setting), `section 4 does not name ${setting}`).toBe(true);
    }
  });

  it('quotes the local defaults as .env.example has them', () => {
    const example = new Map(
      [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]] as const),
    );
    const quoted = [...codeSpans(doc)]
      .map((span) => /^([A-Z][A-Z0-9_]*)=([^\s.<]+)$/.exec(span))
      .filter((m) => m !== null);
    expect(quoted.length).toBeGreaterThan(2);
    for (const [, name, value] of quoted) {
      if (example.has(name)) expect(value, name).toBe(example.get(name));
      if (name in localDefaultSecrets) expect(value, name).toBe(localDefaultSecrets[name]);
    }
  });
});

describe('docs/deploy.md, sections 6, 9 and 10', () => {
  it('lists every setting the SPA build requires or reads', () => {
    const spa = section(6);
    const readBySpa = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
          for (const m of readFileSync(file, 'utf8').matchAll(/\bVITE_[A-Z0-9_]+/g)) readBySpa.add(m[0]);
      }
    };
    walk(path.join(repoRoot, 'web/src'));
    for (const setting of [...requiredSpaSettings, ...readBySpa]) {
      expect(codeSpans(spa).has(setting), `section 6 does not name ${setting}`).toBe(true);
    }
  });

  it('lists every job the migrations schedule, with its schedule', () => {
    const jobs = new Map<string, string>();
    const dir = path.join(repoRoot, 'supabase/migrations');
    for (const file of readdirSync(dir).sort()) {
      const sql = readFileSync(path.join(dir, file), 'utf8');
      for (const m of sql.matchAll(/cron\.schedule\(\s*'([^']+)',\s*'([^']+)'/g)) jobs.set(m[1], m[2]);
      for (const m of sql.matchAll(/cron\.unschedule\(\s*'([^']+)'/g)) jobs.delete(m[1]);
    }
    expect(jobs.size).toBeGreaterThan(0);
    for (const [job, schedule] of jobs) {
      expect(row(section(9), job) ?? '', `section 9 lacks the job ${job}`).toMatch(
        new RegExp(`^\\| \`${job}\` \\| \`${schedule.replace(/\*/g, '\\*')}\``),
      );
    }
  });

  it('lists every setting the worker reads (worker/config.ts)', () => {
    const source = read('worker/config.ts');
    const settings = [...source.matchAll(/(?:env\.|read\.\w+\(')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]);
    expect(settings).toContain('WORKER_DATABASE_URL');
    for (const setting of settings)
      expect(codeSpans(section(10)).has(setting), `section 10 does not name ${setting}`).toBe(true);
  });
});

describe('docs/deploy.md names only what the repository holds', () => {
  const pkg = JSON.parse(read('package.json')) as {
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('every npm script it runs exists', () => {
    const scripts = [...doc.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of [...scripts, 'start', 'test']) expect(Object.keys(pkg.scripts), script).toContain(script);
  });

  it('the Supabase CLI it pins and the Node image it names are the ones the repository uses', () => {
    expect(doc).toContain(`npx supabase@${pkg.devDependencies.supabase}`);
    const image = /^FROM (\S+)/m.exec(read('worker/Dockerfile'))?.[1];
    expect(doc).toContain(`\`${image}\``);
  });

  it('every repository path it names exists', () => {
    // On disk, not `git ls-files`: CI runs the tests in an exported copy that has no .git.
    const generated = new Set(['node_modules', 'dist', 'test-results', 'coverage']);
    const roots = new Set(
      readdirSync(repoRoot, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !generated.has(entry.name))
        .map((entry) => entry.name),
    );
    const paths = [...doc.matchAll(/(?<![\w./<-])([a-z][\w.-]*\/[\w./-]*)/g)]
      .map((m) => m[1].replace(/[.,]$/, ''))
      .filter((p) => roots.has(p.split('/')[0]));
    expect(paths).toContain('worker/Dockerfile');
    const missing = paths.filter((p) => !existsSync(path.join(repoRoot, p)));
    expect(missing).toEqual([]);
  });
});
