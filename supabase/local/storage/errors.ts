/**
 * Errors as Supabase Storage renders them: the HTTP status is 400 for every client error (500
 * stays 500) and the real status travels as the string `statusCode` in the body, which storage-js
 * exposes as `error.statusCode`.
 */
import { json } from '../http';

export class StorageFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }

  toResponse(): Response {
    return json(this.status >= 500 ? 500 : 400, {
      statusCode: String(this.status),
      code: this.code,
      error: this.error,
      message: this.message,
    });
  }
}

export const failures = {
  invalidKey: (key: string) => new StorageFailure(400, 'InvalidKey', 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: (name: string) =>
    new StorageFailure(400, 'InvalidBucketName', 'Invalid Input', `Bucket name invalid: ${name}`),
  noSuchBucket: () => new StorageFailure(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageFailure(404, 'NoSuchKey', 'not_found', 'Object not found'),
  duplicate: () => new StorageFailure(409, 'ResourceAlreadyExists', 'Duplicate', 'The resource already exists'),
  accessDenied: (message: string) => new StorageFailure(403, 'AccessDenied', 'Unauthorized', message),
  invalidMimeType: (mimeType: string) =>
    new StorageFailure(415, 'InvalidMimeType', 'invalid_mime_type', `mime type ${mimeType} is not supported`),
  contentMismatch: (mimeType: string) =>
    new StorageFailure(
      415,
      'InvalidMimeType',
      'invalid_mime_type',
      `The file content does not match the mime type ${mimeType}`,
    ),
  tooLarge: () =>
    new StorageFailure(413, 'EntityTooLarge', 'Payload too large', 'The object exceeded the maximum allowed size'),
  noContent: () => new StorageFailure(400, 'InvalidRequest', 'InvalidRequest', 'No content provided'),
  badBody: (message: string) => new StorageFailure(400, 'InvalidRequest', 'Bad Request', message),
};

/** Storage's messages for a missing or refused JWT. */
export const tokenMessages: Record<string, string> = {
  missing: 'jwt must be provided',
  malformed: 'jwt malformed',
  signature: 'invalid signature',
  expired: 'jwt expired',
  role: 'Access denied: Invalid role',
};

interface PgError {
  code: string;
  message: string;
}

function isPgError(error: unknown): error is PgError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** Maps database errors the way Storage's DBError does (RLS → 403, unique → 409). */
export function fromDatabaseError(error: unknown): unknown {
  if (!isPgError(error)) return error;
  if (error.code === '42501') {
    return failures.accessDenied(
      error.message.includes('row-level security') ? 'new row violates row-level security policy' : error.message,
    );
  }
  if (error.code === '23505') return failures.duplicate();
  return error;
}

/** A JSON request body; a missing or malformed one is refused with the route's schema message. */
export async function readJsonBody(request: Request, missingMessage: string): Promise<unknown> {
  try {
    return (await request.json()) as unknown;
  } catch {
    throw failures.badBody(missingMessage);
  }
}

export function routeNotFound(method: string, path: string): Response {
  return json(404, { statusCode: 404, error: 'Not Found', message: `Route ${method}:${path} not found` });
}
