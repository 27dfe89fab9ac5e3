// The worker's one failure type: what went wrong, in words the subscriber reads (the episode page
// shows it), and whether another attempt can help. An unusable input (a file that is no video, a
// trim that leaves nothing), a refusal from a platform (with its HTTP status) and a connection only
// reconnecting mends are all ProcessingFailures; anything else thrown (a lost database connection,
// a bug) is retried as the queue's settings say. Only an unusable input fails the episode for good:
// the subscriber's retry would read the same file with the same options, so the app offers none;
// after reconnecting, or a change to their brand assets, a retry can succeed.
export class ProcessingFailure extends Error {
  constructor(
    message: string,
    /** Trying again cannot help: the episode fails now, with this reason. */
    readonly permanent: boolean,
    /** The platform's HTTP status, for a refusal from one. */
    readonly status: number | null = null,
    /** The episode's own file or options cannot succeed as they are: only another submission can. */
    readonly unusableInput = false,
  ) {
    super(message);
    this.name = 'ProcessingFailure';
  }

  /** A platform refused a request: 401 and 403 mean it no longer accepts the credentials (only reconnecting helps). */
  static refusal(status: number, message: string): ProcessingFailure {
    return new ProcessingFailure(message, status === 401 || status === 403, status);
  }

  /** The submitted file or its options cannot give an episode (no video, a trim that leaves nothing, over a limit). */
  static unusableInput(message: string): ProcessingFailure {
    return new ProcessingFailure(message, true, null, true);
  }
}

/** Whether `error` says another attempt cannot help. */
export const isPermanent = (error: unknown): boolean => error instanceof ProcessingFailure && error.permanent;

/** Whether `error` fails the episode for good: a retry of the same submission cannot succeed. */
export const failsForGood = (error: unknown): boolean => error instanceof ProcessingFailure && error.unusableInput;
