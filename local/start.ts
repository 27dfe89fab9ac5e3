// `npm start`: the whole app on the local stack. `npm start -- --reset` wipes local data first.
// `npm run preview` (`--preview`): the same stack serving the production build of web/ instead of
// Vite's dev server, with `/api/*` and `/oauth/callback` rewritten to the functions as on hosted.
import { loadConfig } from './config.ts';
import { createDemoAccounts, type DemoAccount } from './demo-accounts.ts';
import { startStack, type RunningStack } from './stack.ts';

const reset = process.argv.includes('--reset');
const web = process.argv.includes('--preview') ? 'preview' : 'dev';
const config = loadConfig('dev');
const began = Date.now();
const log = (line: string) => console.log(`  ${line}`);

console.log(`Starting Castloop's local stack${reset ? ' (reset: local data wiped)' : ''}${web === 'preview' ? ' with the production build of web/' : ''}...`);

let stack: RunningStack | undefined;
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    console.log('\nStopping...');
    await stack?.stop();
    console.log('Stopped.');
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

let demoAccounts: DemoAccount[] = [];
try {
  stack = await startStack(config, {
    reset,
    watch: true,
    web,
    log,
    onFatal: (message) => {
      console.error(`\nCastloop stopped working: ${message}.`);
      void shutdown(1);
    },
  });
  demoAccounts = await createDemoAccounts(config);
} catch (error) {
  console.error(`\nCastloop did not start: ${(error as Error).message}`);
  await shutdown(1);
}

const { urls } = config;
console.log(`
Castloop is running (ready in ${((Date.now() - began) / 1000).toFixed(1)} s). Press Ctrl-C to stop.

  App            ${urls.web}          <- open this
  API gateway    ${urls.api}      (/auth/v1 /rest/v1 /storage/v1 /functions/v1)
  Database       postgresql://postgres:postgres@${config.host}:${config.ports.db}/postgres
  Mailbox        ${urls.mailbox}      (every e-mail the stack sends)
  Sandboxes      ${urls.sandbox}      (Stripe and other providers)
  anon key       ${config.anonKey}
  service key    ${config.serviceRoleKey}

Demo accounts (local only):
${demoAccounts.map((account) => `  ${account.role.padEnd(13)}  ${account.email}  password: ${account.password}`).join('\n')}
`);
