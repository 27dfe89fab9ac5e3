// An emulated upload link for one browser context on loopback: the context talks HTTP through a
// forward proxy (Chromium's per-context proxy) that holds every byte for half the round trip in
// each direction, and the kernel holds the bytes sent to that proxy to the link's rate (an HTB
// class on `lo` for the proxy's port; everything else on `lo` is unclassified and goes out
// directly, untouched). This kernel has no netem, hence the delay in the proxy. Needs root and
// HTB with u32 filters; the root qdisc of `lo` must be the default (noqueue), which `close`
// restores (a run killed before that leaves the class on `lo`: `tc qdisc del dev lo root`).
// Chromium's own emulation (CDP Network.emulateNetworkConditions) is not used: its
// single PUT came to 10.1-10.7 MB/s of a nominal 12.5 under this machine's load, and its latency
// overlaps a request's upload instead of following it (a 6 MiB PUT took no longer with it).
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';

export interface LinkShape {
  /** Upload rate in bits per second. */
  bitsPerSecond: number;
  roundTripMs: number;
}

const tc = (...args: string[]) => execFileSync('tc', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

function unshape(): void {
  try {
    tc('qdisc', 'del', 'dev', 'lo', 'root');
  } catch {
    // already the default
  }
}

/** Holds the bytes sent to `port` on loopback to `bitsPerSecond`. */
function shapeLoopback(port: number, bitsPerSecond: number): void {
  const current = tc('qdisc', 'show', 'dev', 'lo');
  if (!/^qdisc noqueue 0: root/m.test(current)) throw new Error(`lo already has a root qdisc (${current.trim()}): another shaping run?`);
  try {
    // No `default`: unclassified packets (every other flow) bypass the shaping.
    tc('qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb');
    // Bursts of a loopback packet or two (they run up to 64 KiB).
    tc('class', 'add', 'dev', 'lo', 'parent', '1:', 'classid', '1:10', 'htb', 'rate', `${bitsPerSecond}bit`, 'ceil', `${bitsPerSecond}bit`, 'burst', '128k', 'cburst', '128k');
    tc('filter', 'add', 'dev', 'lo', 'parent', '1:', 'protocol', 'ip', 'prio', '1', 'u32', 'match', 'ip', 'dport', String(port), '0xffff', 'flowid', '1:10');
  } catch (error) {
    unshape();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`cannot shape lo with tc: ${stderr || (error as Error).message}`, { cause: error });
  }
}

/** Passes every chunk on `ms` after it came, in order. */
const delayLine = (ms: number) =>
  new Transform({
    transform(chunk: Buffer, _encoding, done) {
      setTimeout(() => this.push(chunk), ms);
      done();
    },
    flush(done) {
      setTimeout(done, ms);
    },
  });

const hopByHop = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive']);

export interface ShapedLink {
  /** The proxy for a browser context: `browser.newContext({ proxy })`. */
  proxy: { server: string; bypass: string };
  close(): Promise<void>;
}

/** Starts the link: the delaying forward proxy on `port` (in the caller's port range) and its rate. */
export async function shapedLink(port: number, shape: LinkShape): Promise<ShapedLink> {
  const half = shape.roundTripMs / 2;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    // A forward proxy gets the absolute URL in the request line.
    const target = new URL(req.url ?? '/');
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !hopByHop.has(name)));
    // The request's bytes on the same clock as its head: each `half` after it came.
    const body = req.pipe(delayLine(half));
    setTimeout(() => {
      const upstream = http.request(target, { method: req.method, headers, agent }, (answer) => {
        // The answer's bytes on the same clock as its head: each `half` after it came.
        const answerBody = answer.pipe(delayLine(half));
        setTimeout(() => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
          answerBody.pipe(res);
        }, half);
      });
      upstream.on('error', () => res.headersSent || res.writeHead(502).end());
      body.pipe(upstream);
    }, half);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  try {
    shapeLoopback((server.address() as AddressInfo).port, shape.bitsPerSecond);
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    // `<-loopback>`: Chromium sends loopback addresses through the proxy too.
    proxy: { server: `http://127.0.0.1:${port}`, bypass: '<-loopback>' },
    close: async () => {
      unshape();
      server.closeAllConnections();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
