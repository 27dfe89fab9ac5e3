// Starts a fresh local stack on the test ports for the `stack` test project, and stops it after.
import path from 'node:path';
import { loadConfig } from '../../local/config.ts';
import { startStack } from '../../local/stack.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const config = loadConfig('test');
  const web = process.env.CASTLOOP_TEST_WEB === '0' ? 'none' : 'preview';
  const stack = await startStack(config, {
    reset: true,
    extraFunctionsDirs: [path.join(import.meta.dirname, '..', 'fixtures', 'functions')],
    web,
    log: process.env.CASTLOOP_TEST_LOG ? (line) => console.log(`[stack] ${line}`) : undefined,
  });
  return () => stack.stop();
}
