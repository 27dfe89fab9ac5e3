// Placeholder until the sandboxes are built (issue: Billing).
import type { StackConfig } from '../config.ts';

export async function startSandbox(_config: StackConfig): Promise<{ stop(): Promise<void> }> {
  return { stop: async () => {} };
}
