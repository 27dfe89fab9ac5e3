// `npm run db:push` and `npm run db:migrations`: the Supabase CLI's `db push` and
// `migration list` against the running dev stack's database (`npm start`).
import { loadConfig } from '../local/config.ts';
import { cliDbUrl, pushMigrations, supabaseCli } from '../local/postgres/supabase-cli.ts';

const command = process.argv[2];
const dbUrl = loadConfig('dev').urls.db;
if (command === 'push') {
  const run = await pushMigrations(dbUrl);
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  process.exitCode = run.code;
} else if (command === 'list') {
  const run = await supabaseCli(['migration', 'list', '--db-url', cliDbUrl(dbUrl)]);
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  process.exitCode = run.code;
} else {
  console.error('usage: tsx scripts/supabase-db.ts push|list');
  process.exitCode = 2;
}
