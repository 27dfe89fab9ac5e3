// `npm run bench`: every benchmark in turn, each on its own ports and data. Figures go to stdout.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../local/config.ts';

const benches = ['startup.ts', 'storage-upload.ts', 'web-bundle.ts', 'episode-reads.ts', 'api-auth.ts', 'episode-delivery.ts', 'episode-upload-browser.ts', 'processing.ts'];
for (const bench of benches) {
  console.log(`\n== bench/${bench}`);
  execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'bench', bench)], { stdio: 'inherit', cwd: repoRoot });
}
