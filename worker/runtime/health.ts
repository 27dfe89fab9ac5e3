// The worker's health for its container host (the image's HEALTHCHECK, a platform's HTTP check):
// GET /health answers 200 while the worker's loop reaches the database, 503 when it has not for
// a while or the worker is stopping. Only when WORKER_HEALTH_PORT is set; the worker takes no
// other inbound requests.
import http from 'node:http';

export interface HealthState {
  /** When the feeder last read the queue table (a database round trip from the worker's loop). */
  lastDatabaseAt: number;
  stopping: boolean;
}

export function startHealthServer(
  port: number,
  workerName: string,
  staleAfterMs: number,
  state: HealthState,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const healthy = !state.stopping && Date.now() - state.lastDatabaseAt <= staleAfterMs;
    if (req.method !== 'GET' || req.url !== '/health') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not found' }));
      return;
    }
    res.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: healthy ? 'ok' : state.stopping ? 'stopping' : 'database unreachable',
        worker: workerName,
        lastDatabaseAt: new Date(state.lastDatabaseAt).toISOString(),
      }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
