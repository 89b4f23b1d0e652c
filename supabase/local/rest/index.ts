/**
 * The subset of PostgREST (12.2, the version src/types/database.ts names) the app uses: reading,
 * counting, inserting, updating and deleting rows of the tables in `public`, and calling its
 * functions. Every request runs in one transaction as the caller's role with the JWT claims set,
 * so row level security decides exactly as on Supabase. The query string is parsed with
 * PostgREST's grammar (the part the app sends); every identifier is looked up in the catalog
 * before it reaches SQL (and is quoted), every value is a bound parameter.
 */
import { withClaims } from '../database';
import type { Service, StackContext } from '../types';
import { GatewayError, type RestCaller, authenticate } from './caller';
import { cachedRelation, schemaCacheOf } from './catalog';
import { PgrstError, isPostgresError, postgresErrorResponse } from './errors';
import { checkProfile, chooseMedia, readPreferences } from './headers';
import type { RequestContext } from './responses';
import { readTable } from './routes/read';
import { callRoutine } from './routes/rpc';
import { deleteRows, insertRows, updateRows } from './routes/write';

const SEARCH_PATH = 'public, extensions';


// The service

function requestHeadersJson(request: Request): string {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return JSON.stringify(headers);
}

async function route(ctx: StackContext, request: Request, path: string, caller: RestCaller): Promise<Response> {
  const url = new URL(request.url);
  let segments: string[];
  try {
    segments = path.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment));
  } catch {
    throw new PgrstError(404, 'PGRST125', 'Invalid path specified in request URL');
  }
  const method = request.method;
  const isRpc = segments[0] === 'rpc';
  if (segments.length === 0) {
    throw new PgrstError(404, 'PGRST126', 'Root endpoint metadata is disabled');
  }
  if ((isRpc && segments.length !== 2) || (!isRpc && segments.length !== 1)) {
    throw new PgrstError(404, 'PGRST125', 'Invalid path specified in request URL');
  }
  const supported = isRpc ? ['GET', 'HEAD', 'POST'] : ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];
  if (!supported.includes(method)) {
    throw isRpc
      ? new PgrstError(405, 'PGRST101', `Cannot use the ${method} method on RPC`)
      : new PgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
  }
  checkProfile(request);
  const media = chooseMedia(request);
  const prefs = readPreferences(request);
  const name = segments[isRpc ? 1 : 0] ?? '';

  return withClaims(ctx.db, caller.claims, caller.role, async (tx) => {
    await tx.query(
      `select set_config('search_path', $1, true), set_config('request.method', $2, true),
              set_config('request.path', $3, true), set_config('request.headers', $4, true)`,
      [SEARCH_PATH, method, url.pathname, requestHeadersJson(request)],
    );
    if (method === 'GET' || method === 'HEAD') await tx.query('set transaction read only');
    const rc: RequestContext = { tx, schema: schemaCacheOf(ctx.db), request, url, media, prefs };
    if (isRpc) return callRoutine(rc, name);
    const relation = await cachedRelation(rc.schema, tx, name);
    switch (method) {
      case 'POST':
        return insertRows(rc, relation);
      case 'PATCH':
        return updateRows(rc, relation);
      case 'DELETE':
        return deleteRows(rc, relation);
      default:
        return readTable(rc, relation);
    }
  });
}

export function createRestService(ctx: StackContext): Service {
  return {
    async handle(request, path) {
      let caller: RestCaller | null = null;
      try {
        caller = authenticate(request, ctx.config);
        return await route(ctx, request, path, caller);
      } catch (error) {
        if (error instanceof PgrstError || error instanceof GatewayError) return error.toResponse();
        if (isPostgresError(error)) return postgresErrorResponse(error, caller?.role ?? 'anon');
        console.error('[supabase-local rest]', error);
        return new PgrstError(500, 'PGRSTX00', 'Internal server error').toResponse();
      }
    },
  };
}
