/** What every route answers with: JSON arrays or one object, Content-Range, the request's context. */
import type { Transaction } from '@electric-sql/pglite';
import type { Relation, SchemaCache } from './catalog';
import { PgrstError } from './errors';
import type { MediaChoice, Preferences } from './headers';
import type { Aggregated, Source } from './sql';

export type Json = Record<string, unknown>;

// Responses

export const JSON_TYPE = 'application/json; charset=utf-8';
export const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

/** Thrown inside the transaction so a write that cannot be shown as one object is rolled back. */
export function singularityError(rows: number): PgrstError {
  return new PgrstError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`);
}

export function rowsBody(result: Aggregated, media: MediaChoice): { body: string; contentType: string } {
  if (media.singular) {
    if (result.total !== 1) throw singularityError(result.total);
    // json_agg of a single row is "[<row>]"; the object is that text without the brackets.
    return { body: result.body.slice(1, -1).trim(), contentType: OBJECT_TYPE };
  }
  return { body: result.body, contentType: JSON_TYPE };
}

export function contentRange(offset: number, rows: number, total: number | null): string {
  const range = rows > 0 ? `${offset}-${offset + rows - 1}` : '*';
  return `${range}/${total === null ? '*' : String(total)}`;
}


export interface RequestContext {
  tx: Transaction;
  schema: SchemaCache;
  request: Request;
  url: URL;
  media: MediaChoice;
  prefs: Preferences;
}

export function relationSource(relation: Relation): Source {
  return { label: relation.name, columns: relation.columns };
}

export function rangeResponse(rc: RequestContext, offset: number, result: Aggregated, total: number | null): Response {
  let status = 200;
  if (total !== null) {
    if (offset > total && !(offset === 0 && total === 0)) {
      throw new PgrstError(416, 'PGRST103', 'Requested range not satisfiable', `An offset of ${offset} was requested, but there are only ${total} rows.`);
    }
    if (result.total < total) status = 206;
  }
  const { body, contentType } = rowsBody(result, rc.media);
  return new Response(body, {
    status,
    headers: { 'content-type': contentType, 'content-range': contentRange(offset, result.total, total) },
  });
}
