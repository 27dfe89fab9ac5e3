// The test-mode configuration of one bench and the way to start its stack: its own ports
// (CASTLOOP_TEST_PORT_BASE, else the bench's default) and its own data dir, so benches never
// meet a running `npm start` or each other. The environment is set before the local modules
// load, since they read it when imported.
export async function benchStack(defaultPortBase: number, name: string) {
  process.env.CASTLOOP_TEST_PORT_BASE ??= String(defaultPortBase);
  process.env.CASTLOOP_DATA_DIR ??= `.local-data/bench-${name}`;
  const { loadConfig } = await import('../../local/config.ts');
  const { startStack } = await import('../../local/stack.ts');
  return { config: loadConfig('test'), startStack };
}

/** An onboarded subscriber (growth, Drive connected, hosting ready) and their session's Bearer header. */
export async function signedInSubscriber() {
  const { createUser } = await import('../../tests/support/users.ts');
  const { tokenOf } = await import('../../tests/support/episodes.ts');
  const user = await createUser('onboarded', { tier: 'growth', drive: 'connected', hostingReady: true });
  return { user, bearer: { authorization: `Bearer ${await tokenOf(user)}` } };
}
