// The local stack's internal ports (only the gateway talks to them) can never be held by an
// outgoing connection: Linux takes those from its ephemeral range, so they stay below it. Test
// stacks are below it by their base. (The ports people use are the Supabase CLI's, kept as they
// are; MailDev's own web server takes a port the system picks, see tests/stack/stack.test.ts.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDotenv, repoRoot } from '../../local/config.ts';

const [ephemeralLow, ephemeralHigh] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
  .trim()
  .split(/\s+/)
  .map(Number);
const defaults = parseDotenv(readFileSync(path.join(repoRoot, '.env.example'), 'utf8'));

describe("npm start's internal ports", () => {
  it.each(['POSTGREST_PORT', 'FUNCTIONS_PORT'])('%s lies outside the ephemeral port range', (key) => {
    const port = Number(defaults[key]);
    expect(port < ephemeralLow || port > ephemeralHigh, `${key}=${port} inside ${ephemeralLow}-${ephemeralHigh}`).toBe(
      true,
    );
  });
});
