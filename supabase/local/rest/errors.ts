/** PostgREST's error bodies and its mapping of SQLSTATEs to HTTP statuses. */
import type { DatabaseRole } from '../database';
import { json } from '../http';

/** An error PostgREST answers with {code, details, hint, message}. */
export class PgrstError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): Response {
    return json(
      this.status,
      { code: this.code, details: this.details, hint: this.hint, message: this.message },
      { 'proxy-status': `PostgREST; error=${this.code}`, ...this.headers },
    );
  }
}

interface PostgresError {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function isPostgresError(error: unknown): error is PostgresError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; message?: unknown; severity?: unknown };
  return typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code) && typeof candidate.message === 'string';
}

/** PostgREST's mapping of SQLSTATEs to HTTP statuses (Error.hs, pgErrorStatus). */
function statusForSqlState(code: string, authenticated: boolean, message = ''): number {
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '53400': 500,
    '57P01': 503,
    P0001: 400,
    '42P01': 404,
    '42P17': 500,
  };
  if (code === '42501') return authenticated ? 403 : 401;
  if (code === '42883') return message.startsWith('function xmlagg(') ? 406 : 404;
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500;
  const known = exact[code];
  if (known !== undefined) return known;
  if (code.startsWith('PT')) {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
  }
  const prefixes: [string, number][] = [
    ['08', 503], ['09', 500], ['0L', 403], ['0P', 403], ['25', 500], ['28', 403], ['2D', 500], ['38', 500],
    ['39', 500], ['3B', 500], ['40', 500], ['53', 503], ['54', 500], ['55', 500], ['57', 500], ['58', 500],
    ['F0', 500], ['HV', 500], ['P0', 500], ['XX', 500],
  ];
  for (const [prefix, status] of prefixes) if (code.startsWith(prefix)) return status;
  return 400;
}

export function postgresErrorResponse(error: PostgresError, role: DatabaseRole): Response {
  const status = statusForSqlState(error.code, role !== 'anon', error.message);
  const headers: Record<string, string> = { 'proxy-status': `PostgREST; error=${error.code}` };
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  return json(
    status,
    { code: error.code, details: error.detail ?? null, hint: error.hint ?? null, message: error.message },
    headers,
  );
}

export const parseError = (what: string, raw: string, column: number, details: string) =>
  new PgrstError(400, 'PGRST100', `"failed to parse ${what} (${raw})" (line 1, column ${column})`, details);

export const columnMissing = (relation: string, column: string) =>
  new PgrstError(400, '42703', `column ${relation}.${column} does not exist`);

export function aggregatesNotAllowed(): PgrstError {
  return new PgrstError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
}

export function notEmbedded(resource: string): PgrstError {
  return new PgrstError(
    400,
    'PGRST108',
    `'${resource}' is not an embedded resource in this request`,
    null,
    `Verify that '${resource}' is included in the 'select' query parameter.`,
  );
}

/** Grammar PostgREST has but the app never sends: a clear refusal rather than a half implementation. */
export function notSupported(what: string): PgrstError {
  return new PgrstError(400, 'PGRST100', `Not supported by the local stack: ${what}`);
}
