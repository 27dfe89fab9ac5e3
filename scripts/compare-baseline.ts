// Proves the release baseline (supabase/migrations) builds the same database as the migration
// chain it replaced: both are applied to fresh databases, bootstrapped as a new hosted project,
// in a throwaway local Postgres, and a normalized dump of each (every object in every
// non-system schema with its owner, grants, policies, comments and definition, function bodies
// verbatim, and the rows the migrations write: plans, buckets, cron jobs) is compared line by
// line. Run: `npx tsx scripts/compare-baseline.ts [<commit holding the old chain>]`. Exits 1 on
// any difference. Slow (a Postgres start and two full migrations): not part of `npm test`.
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, repoRoot } from '../local/config.ts';
import { applyMigrations, createBootstrappedDatabase, startDatabase } from '../local/postgres/database.ts';
import { dumpDifference, schemaDump } from '../local/postgres/schema-dump.ts';

/** The last commit whose supabase/migrations held the chain (plus its explicit service-role grants). */
export const chainCommit = '1c13dab3a2bff95a3b3c9b1d117a087f478d4f32';

const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 });

/** Writes the migrations as they were at `commit` into `dir`. */
async function checkoutMigrations(commit: string, dir: string): Promise<number> {
  const files = git('ls-tree', '--name-only', `${commit}:supabase/migrations`)
    .split('\n')
    .filter((f) => f.endsWith('.sql'));
  await mkdir(dir, { recursive: true });
  for (const file of files) await writeFile(path.join(dir, file), git('show', `${commit}:supabase/migrations/${file}`));
  return files.length;
}

/**
 * The chain created four server-only tables in public and moved them to private; a table a new
 * hosted project creates in public gets TRUNCATE, REFERENCES, TRIGGER and MAINTAIN for the API
 * roles from the default privileges, and the chain revoked those from anon and authenticated
 * only. The baseline creates the tables in private, so the service role never holds them.
 * Returns those surplus grants per table when they are the whole difference, else null.
 */
function grantsTheBaselineDoesNotCarry(diff: string[]): Map<string, string[]> | null {
  const split = (line: string) => /^([-+]) (rel \S+ .*) acl=(\S*) (options=.*)$/.exec(line);
  const chainOnly = new Map<string, Set<string>>();
  const baselineOnly = new Map<string, Set<string>>();
  for (const line of diff) {
    const parts = split(line);
    if (!parts) return null;
    const key = `${parts[2]} ${parts[4]}`;
    (parts[1] === '-' ? chainOnly : baselineOnly).set(key, new Set(parts[3].split(',')));
  }
  if (chainOnly.size !== baselineOnly.size) return null;
  const surplus = new Map<string, string[]>();
  for (const [key, chainAcl] of chainOnly) {
    const baselineAcl = baselineOnly.get(key);
    if (!baselineAcl || [...baselineAcl].some((item) => !chainAcl.has(item))) return null;
    const extra = [...chainAcl].filter((item) => !baselineAcl.has(item));
    if (
      !key.startsWith('rel private.') ||
      !extra.every((item) => /^service_role:(TRUNCATE|REFERENCES|TRIGGER|MAINTAIN)\/postgres$/.test(item))
    ) {
      return null;
    }
    surplus.set(key.split(' ')[1], extra);
  }
  return surplus;
}

async function main(): Promise<void> {
  const commit = process.argv[2] ?? chainCommit;
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'castloop-baseline-'));
  // As root the server runs as the OS user postgres, which must reach its data directory.
  await chmod(workDir, 0o755);
  const config = loadConfig('test', { CASTLOOP_DATA_DIR: workDir });
  const log = () => {};
  const server = await startDatabase(config, log);
  try {
    const chainDir = path.join(workDir, 'chain');
    const chainFiles = await checkoutMigrations(commit, chainDir);
    const chainUrl = await createBootstrappedDatabase(config, 'chain_probe');
    const baselineUrl = await createBootstrappedDatabase(config, 'baseline_probe');
    await applyMigrations(chainUrl, log, chainDir);
    const baselineFiles = (await applyMigrations(baselineUrl, log)).length;
    const chain = await schemaDump(chainUrl);
    const baseline = await schemaDump(baselineUrl);
    const kinds = new Map<string, number>();
    for (const line of baseline) kinds.set(line.split(' ')[0], (kinds.get(line.split(' ')[0]) ?? 0) + 1);
    console.log(
      `chain: ${chainFiles} migrations at ${commit.slice(0, 12)}; baseline: ${baselineFiles} migrations in supabase/migrations`,
    );
    console.log(`compared ${baseline.length} items: ${[...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
    const diff = dumpDifference(chain, baseline);
    const explained = grantsTheBaselineDoesNotCarry(diff);
    if (diff.length === 0) {
      console.log('identical: the baseline builds the same database as the chain');
    } else if (explained) {
      console.log(
        'identical but for these grants, which the chain gave only by creating a table in public and moving it:',
      );
      for (const [relation, privileges] of explained) console.log(`  ${relation}: ${privileges.join(', ')}`);
    } else {
      console.log(`${diff.length} lines differ (- chain only, + baseline only):\n${diff.join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
