// Storage API errors, rendered as Supabase Storage renders them: HTTP 400 (500 for internal
// errors) with the logical status in the body's `statusCode` string.
import type { ServerResponse } from 'node:http';
import { sendJsonError } from '../lib/http.ts';

export class StorageError extends Error {
  readonly status: number;
  readonly code: string;
  readonly error: string;

  constructor(status: number, code: string, message: string, error?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.error = error ?? code;
  }

  /** The HTTP status a client sees: 400 for every 4xx, 500 for server errors. */
  get httpStatus(): number {
    return this.status >= 500 ? 500 : 400;
  }

  render(): { statusCode: string; code: string; error: string; message: string } {
    return { statusCode: String(this.status), code: this.code, error: this.error, message: this.message };
  }
}

export const errors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  invalidJwt: (message: string) => new StorageError(403, 'InvalidJWT', message, 'Unauthorized'),
  // Storage verifies the empty token of a request without Authorization; jose's message.
  missingAuth: () => new StorageError(403, 'AccessDenied', 'Invalid Compact JWS', 'Unauthorized'),
  accessDenied: (message = 'new row violates row-level security policy') =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  keyAlreadyExists: () => new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () => new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () => new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  entityTooLarge: () =>
    new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size', 'Payload too large'),
  invalidMimeType: (mime: string) =>
    new StorageError(415, 'InvalidMimeType', `mime type ${mime} is not supported`, 'invalid_mime_type'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: () => new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidSignature: (message = 'Invalid signature') => new StorageError(400, 'InvalidSignature', message),
  invalidRange: () => new StorageError(400, 'InvalidRange', 'invalid range provided', 'invalid_range'),
  noContent: () => new StorageError(400, 'InvalidRequest', 'No content provided'),
  notFound: () => new StorageError(404, 'NotFound', 'Route not found', 'Not Found'),
  internal: (message = 'Internal server error') => new StorageError(500, 'InternalError', message),
};

interface PgLikeError {
  code?: string;
  message?: string;
}

/** Maps a Postgres error to the Storage error Supabase answers with. */
export function fromDbError(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const pgError = error as PgLikeError;
  switch (pgError?.code) {
    case '42501':
      return errors.accessDenied(pgError.message?.startsWith('new row violates')
        ? 'new row violates row-level security policy'
        : (pgError.message ?? undefined));
    case '23505':
      return errors.keyAlreadyExists();
    case '23503':
      return new StorageError(404, 'InvalidRequest', 'The related resource does not exist');
    // Text or JSON Postgres cannot hold (a NUL, an invalid escape): the client's input, as upstream answers it.
    case '22021':
    case '22P05':
      return errors.invalidRequest(pgError.message ?? 'Invalid input');
    case '57014':
      return new StorageError(544, 'DatabaseTimeout', 'The connection to the database timed out');
    default:
      return errors.internal((error as Error)?.message);
  }
}

export function sendError(res: ServerResponse, error: unknown): void {
  const storageError = error instanceof StorageError ? error : fromDbError(error);
  if (storageError.status >= 500 && !(error instanceof StorageError)) {
    console.error('[storage]', error);
  }
  sendJsonError(res, storageError.httpStatus, storageError.render());
}
