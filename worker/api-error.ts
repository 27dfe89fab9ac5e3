// A refusal from a platform's API (Google Drive, YouTube, X, LinkedIn, WordPress), with its HTTP
// status. The same shape, (status, message), as the SPA's ApiError (web/src/lib/api-client.ts).
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
  /** 401/403: the platform no longer accepts the credentials; only reconnecting helps. */
  get permanent(): boolean {
    return this.status === 401 || this.status === 403;
  }
}
