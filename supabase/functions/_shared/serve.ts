// Every function's entry point: Deno.serve with two guarantees the handlers need not repeat.
// A throw becomes a JSON 500, and the request body is settled once the answer is chosen: a body
// the handler never read (an early refusal) or left part-read is cancelled, and that cancel's own
// failure is caught. A body stream must never raise an error no one handles: in one process that
// would stop every function at once.

type Handler = (request: Request) => Response | Promise<Response>;

function settleBody(request: Request): void {
  const body = request.body;
  if (body && !body.locked) body.cancel().catch(() => {});
}

export function serveFunction(handler: Handler): void {
  Deno.serve(async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      console.error(error);
      return new Response(JSON.stringify({ message: 'Internal server error' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    } finally {
      settleBody(request);
    }
  });
}
