// supabase/config.toml is accepted by the real Supabase CLI (npm `supabase`, pinned), as
// `supabase start` and `supabase config push` read it: `start` loads and validates the whole file
// (schema, values, the e-mail templates it names) before it needs Docker. Docker is pointed at a
// socket that does not exist, so the command always stops right after the config, on any machine.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../local/config.ts';

const cli = path.join(repoRoot, 'node_modules', '.bin', 'supabase');
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'castloop-cli-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** `supabase start` on a copy of supabase/ (so the CLI's scratch files stay out of the repo). */
async function startWith(edit: (toml: string) => string = (toml) => toml): Promise<string> {
  const workdir = await mkdtemp(path.join(scratch, 'project-'));
  await cp(path.join(repoRoot, 'supabase'), path.join(workdir, 'supabase'), {
    recursive: true,
    filter: (source) => path.basename(source) !== '.temp',
  });
  const config = path.join(workdir, 'supabase', 'config.toml');
  await writeFile(config, edit(await readFile(config, 'utf8')));
  return new Promise((resolve) => {
    execFile(
      cli,
      ['start', '--workdir', workdir],
      {
        timeout: 60_000,
        env: { ...process.env, DOCKER_HOST: `unix://${path.join(scratch, 'no-docker.sock')}`, DO_NOT_TRACK: '1', SUPABASE_TELEMETRY_DISABLED: '1' },
      },
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
  });
}

const dockerStep = /Cannot connect to the Docker daemon/;

// Each case runs the CLI binary, which takes seconds on a loaded machine: more than vitest's 5 s default.
describe('supabase/config.toml and the Supabase CLI', { timeout: 30_000 }, () => {
  it('the CLI reads and validates the whole file and goes on to start the containers', async () => {
    const output = await startWith();
    // Its first words are about Docker: nothing about the config came before.
    expect(output.split('\n')[0]).toMatch(/^failed to inspect container health: Cannot connect to the Docker daemon/);
    expect(output).not.toMatch(/config/i);
  });

  it.each([
    ['a value of the wrong type', (toml: string) => toml.replace('max_rows = 1000', 'max_rows = "1000"'), /failed to read config/],
    ['an e-mail template that does not exist', (toml: string) => toml.replace('templates/recovery.html', 'templates/missing.html'), /Invalid config for auth\.email\.template\.recovery/],
    ['an unsupported Postgres version', (toml: string) => toml.replace('major_version = 17', 'major_version = 11'), /Invalid db\.major_version/],
  ])('a copy with %s is refused before Docker', async (_name, edit, refusal) => {
    const output = await startWith(edit);
    expect(output).toMatch(refusal);
    expect(output).not.toMatch(dockerStep);
  });
});
