/** GoTrue's error answers (apierrors.HTTPError) and chi's answers for unknown paths and methods. */
import { json } from '../http';

const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';

/** An error GoTrue would answer with (apierrors.HTTPError). */
export class AuthApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string) => new AuthApiError(400, code, message);
export const forbidden = (code: string, message: string) => new AuthApiError(403, code, message);

/** X-Supabase-Api-Version ≥ 2024-01-01 selects GoTrue's newer error body ({code, message}). */
export function usesVersionedErrors(request: Request): boolean {
  const value = request.headers.get(API_VERSION_HEADER);
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return false;
  return value >= API_VERSION_2024;
}

/** An error without a code (an auth hook's refusal) leaves the code out, as GoTrue's omitempty does. */
export function errorResponse(request: Request, error: AuthApiError): Response {
  const code = error.errorCode === '' ? {} : { error_code: error.errorCode };
  const headers: Record<string, string> = error.errorCode === '' ? {} : { 'x-sb-error-code': error.errorCode };
  if (usesVersionedErrors(request)) {
    headers[API_VERSION_HEADER] = API_VERSION_2024;
    return json(error.status, { ...(error.errorCode === '' ? {} : { code: error.errorCode }), message: error.message }, headers);
  }
  return json(error.status, { code: error.status, ...code, msg: error.message }, headers);
}

/** chi's default answers for paths and methods GoTrue has no route for. */
export const notFound = () => new Response('404 page not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
export const methodNotAllowed = () => new Response(null, { status: 405 });
