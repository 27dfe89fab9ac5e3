// A refusal from a platform's API (Google Drive, YouTube, X, LinkedIn, WordPress), with its HTTP status.
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
  /** 401/403: the platform no longer accepts the credentials; only reconnecting helps. */
  get permanent(): boolean {
    return this.status === 401 || this.status === 403;
  }
}
