// Whether an address is this machine: the local stack's, which no deployed build or function
// may point at. Pure, shared by the SPA's build settings, the functions and the worker.

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for http(s) URLs on this machine only (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const { hostname } = new URL(url);
    return loopbackHosts.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname.endsWith('.localhost');
  } catch {
    return false;
  }
}
