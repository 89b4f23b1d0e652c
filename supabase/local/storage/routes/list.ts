/**
 * `POST /object/list/<bucket>` (storage-js `list(path, { limit, offset, sortBy, search })`): one
 * folder level as the caller, so the bucket's select policies decide what shows; a caller without
 * one gets an empty list, as on Supabase (an unknown bucket does too).
 */
import { json } from '../../http';
import { failures, readJsonBody } from '../errors';
import { assertBucketName, type ObjectStore } from '../objects';

/** Storage's request schema allows exactly these sort columns; they are spliced into SQL. */
const SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'] as const;

interface ListRequest {
  prefix: string;
  limit: number;
  offset: number;
  sortColumn: (typeof SORT_COLUMNS)[number];
  sortOrder: 'asc' | 'desc';
  search: string;
}

function isSortColumn(value: unknown): value is ListRequest['sortColumn'] {
  return SORT_COLUMNS.some((column) => column === value);
}

/**
 * Validates a list body the way Storage's request schema does (prefix required; limit ≥ 1,
 * offset ≥ 0; sortBy.column and sortBy.order from fixed sets) and fills in Storage's defaults.
 */
function parseListRequest(body: unknown): ListRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw failures.badBody("body must have required property 'prefix'");
  }
  const { prefix, limit = 100, offset = 0, sortBy, search = '' } = body as Record<string, unknown>;
  if (typeof prefix !== 'string') throw failures.badBody("body must have required property 'prefix'");
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) throw failures.badBody('body/limit must be >= 1');
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw failures.badBody('body/offset must be >= 0');
  }
  if (typeof search !== 'string') throw failures.badBody('body/search must be string');
  let sortColumn: ListRequest['sortColumn'] = 'name';
  let sortOrder: ListRequest['sortOrder'] = 'asc';
  if (sortBy !== undefined) {
    const { column, order = 'asc' } = (typeof sortBy === 'object' && sortBy !== null ? sortBy : {}) as Record<string, unknown>;
    if (!isSortColumn(column)) throw failures.badBody('body/sortBy/column must be equal to one of the allowed values');
    if (order !== 'asc' && order !== 'desc') {
      throw failures.badBody('body/sortBy/order must be equal to one of the allowed values');
    }
    sortColumn = column;
    sortOrder = order;
  }
  // Storage treats the prefix as a folder: `a` lists the contents of `a/`.
  const folder = prefix.length > 0 && !prefix.endsWith('/') ? `${prefix}/` : prefix;
  return { prefix: folder, limit, offset, sortColumn, sortOrder, search };
}

/**
 * Storage's `storage.search()`: one level below the prefix, folders (name only, everything else
 * null) first, then the objects with their metadata, each group sorted, then limit and offset
 * over both. `search` narrows by the start of the name, case-insensitively, as Storage's `ilike`.
 */
function listSql(request: ListRequest): string {
  const orderBy = `${request.sortColumn} ${request.sortOrder}`;
  return `with folders as (
      select path_tokens[$1] as folder
        from storage.objects
       where objects.name ilike $2 || $3 || '%'
         and bucket_id = $4
         and array_length(objects.path_tokens, 1) <> $1
       group by folder
       order by folder ${request.sortOrder}
    )
    (select folder as name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
            null::timestamptz as last_accessed_at, null::jsonb as metadata
       from folders)
    union all
    (select path_tokens[$1] as name, id, updated_at, created_at, last_accessed_at, metadata
       from storage.objects
      where objects.name ilike $2 || $3 || '%'
        and bucket_id = $4
        and array_length(objects.path_tokens, 1) = $1
      order by ${orderBy})
    limit $5 offset $6`;
}

export async function list(store: ObjectStore, request: Request, bucketId: string): Promise<Response> {
  const caller = store.authorize(request);
  assertBucketName(bucketId);
  const query = parseListRequest(await readJsonBody(request, "body must have required property 'prefix'"));
  const levels = query.prefix.split('/').length;
  const rows = await store.asCaller(caller, async (tx) => {
    const result = await tx.query<Record<string, unknown>>(listSql(query), [
      levels,
      query.prefix,
      query.search,
      bucketId,
      query.limit,
      query.offset,
    ]);
    return result.rows;
  });
  return json(200, rows);
}
