/**
 * Storage API (/storage/v1): the object routes storage-js uses (upload, update, download, public
 * download, remove, list), with Supabase Storage's error bodies. Object rows live in storage.objects and
 * are written as the caller, so the policies of the migrations decide; the bytes live on disk
 * below ctx.filesDir/<bucket>/.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Transaction } from '@electric-sql/pglite';
import { withClaims, type JwtClaims } from './database';
import { json } from './http';
import { resolveCaller, type Caller } from './shared';
import type { Service, StackContext } from './types';

/** Supabase Storage's key and bucket alphabets (S3-safe characters). */
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;
const EMPTY_FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder';
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
/** Uploads are written here first; '~' cannot occur in a bucket name, so no bucket collides. */
const PARTIAL_DIR = '~partial';

/**
 * An error as Supabase Storage renders it: the HTTP status is 400 for every client error (500
 * stays 500) and the real status travels as the string `statusCode` in the body, which storage-js
 * exposes as `error.statusCode`.
 */
class StorageFailure extends Error {
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

const failures = {
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

const tokenMessages: Record<string, string> = {
  missing: 'jwt must be provided',
  malformed: 'jwt malformed',
  signature: 'invalid signature',
  expired: 'jwt expired',
  role: 'Access denied: Invalid role',
};

interface Bucket {
  id: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

/** The body of `POST /object/list/<bucket>` as storage-js sends it (`list(path, options)`). */
interface ListRequest {
  prefix: string;
  limit: number;
  offset: number;
  sortColumn: (typeof SORT_COLUMNS)[number];
  sortOrder: 'asc' | 'desc';
  search: string;
}

/** Storage's request schema allows exactly these sort columns; they are spliced into SQL. */
const SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'] as const;

interface IncomingFile {
  bytes: Buffer;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

/** Splits `<bucket>/<key…>` from a raw (percent-encoded) path, decoding once like Fastify. */
function splitTarget(rawSegments: string[]): { bucket: string; key: string } {
  const decoded = rawSegments.map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw failures.invalidKey(rawSegments.slice(1).join('/'));
    }
  });
  const [bucket = '', ...rest] = decoded;
  return { bucket, key: rest.join('/') };
}

function assertBucketName(name: string): void {
  if (name.length === 0 || name.length > 100 || !VALID_BUCKET_NAME.test(name) || name === '.' || name === '..') {
    throw failures.invalidBucketName(name);
  }
}

/**
 * Supabase's key rule (S3-safe characters), plus ours: no empty, `.` or `..` segments and no
 * leading slash, so a key always names exactly one file below its bucket's folder.
 */
function assertObjectKey(key: string): void {
  if (key.length === 0 || key.length > 1024 || !VALID_OBJECT_KEY.test(key)) throw failures.invalidKey(key);
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw failures.invalidKey(key);
  }
}

function isEmptyFolder(key: string): boolean {
  return key === EMPTY_FOLDER_PLACEHOLDER || key.endsWith(`/${EMPTY_FOLDER_PLACEHOLDER}`);
}

/** Storage's mime rule: `type/subtype` must equal an allowed entry or match `type/*`. */
function assertMimeTypeAllowed(mimeType: string, allowed: string[]): void {
  const [type, subtype, ...extra] = mimeType.split('/');
  if (type === undefined || subtype === undefined || extra.length > 0) throw failures.invalidMimeType(mimeType);
  const ok = allowed.some((entry) => {
    const [allowedType, allowedSubtype] = entry.split('/');
    return allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype);
  });
  if (!ok) throw failures.invalidMimeType(mimeType);
}

function mimeEssence(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

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
function fromDatabaseError(error: unknown): unknown {
  if (!isPgError(error)) return error;
  if (error.code === '42501') {
    return failures.accessDenied(
      error.message.includes('row-level security') ? 'new row violates row-level security policy' : error.message,
    );
  }
  if (error.code === '23505') return failures.duplicate();
  return error;
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

function parseUserMetadata(raw: string | null): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A JSON request body; a missing or malformed one is refused with the route's schema message. */
async function readJsonBody(request: Request, missingMessage: string): Promise<unknown> {
  try {
    return (await request.json()) as unknown;
  } catch {
    throw failures.badBody(missingMessage);
  }
}

/** Reads the upload the way Storage does: multipart (browsers, Blob/File) or a raw body. */
async function readIncomingFile(request: Request): Promise<IncomingFile> {
  const contentType = request.headers.get('content-type') ?? '';
  if (contentType.toLowerCase().startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw failures.noContent();
    }
    let file: File | null = null;
    for (const [, value] of form) {
      if (typeof value !== 'string') {
        file = value;
        break;
      }
    }
    if (!file) throw failures.noContent();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' && value !== '' ? value : null;
    };
    const cacheTime = field('cacheControl');
    return {
      bytes: Buffer.from(await file.arrayBuffer()),
      mimeType: field('contentType') ?? (file.type || 'application/octet-stream'),
      cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache',
      userMetadata: parseUserMetadata(field('metadata') ?? field('userMetadata')),
    };
  }
  const encodedMetadata = request.headers.get('x-metadata');
  return {
    bytes: Buffer.from(await request.arrayBuffer()),
    mimeType: contentType || 'application/octet-stream',
    cacheControl: request.headers.get('cache-control') ?? 'no-cache',
    userMetadata: encodedMetadata ? parseUserMetadata(Buffer.from(encodedMetadata, 'base64').toString('utf8')) : null,
  };
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function ownerOf(caller: Caller): string | null {
  const sub = caller.claims.sub;
  return typeof sub === 'string' && uuidPattern.test(sub) ? sub : null;
}

function httpDate(iso: unknown): string | null {
  if (typeof iso !== 'string') return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toUTCString();
}

function readMetadata(value: unknown): Partial<ObjectMetadata> {
  return typeof value === 'object' && value !== null ? value : {};
}

export function createStorageService(ctx: StackContext): Service {
  const root = resolve(ctx.filesDir);

  /** The file holding an object's bytes; refuses anything that would leave the bucket's folder. */
  function objectFile(bucket: string, key: string): string {
    assertBucketName(bucket);
    assertObjectKey(key);
    const bucketDir = resolve(root, bucket);
    const file = resolve(bucketDir, ...key.split('/'));
    if (!bucketDir.startsWith(root + sep) || !file.startsWith(bucketDir + sep)) throw failures.invalidKey(key);
    return file;
  }

  async function findBucket(id: string): Promise<Bucket> {
    assertBucketName(id);
    const { rows } = await ctx.db.query<{
      id: string;
      public: boolean | null;
      file_size_limit: number | string | null;
      allowed_mime_types: string[] | null;
    }>('select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1', [id]);
    const row = rows[0];
    if (!row) throw failures.noSuchBucket();
    return {
      id: row.id,
      public: row.public === true,
      fileSizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit),
      allowedMimeTypes: row.allowed_mime_types,
    };
  }

  function authorize(request: Request): Caller {
    const result = resolveCaller(request, ctx.config);
    if (!result.ok) throw failures.accessDenied(tokenMessages[result.reason] ?? 'Access denied');
    return result.caller;
  }

  function asCaller<T>(caller: Caller, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    // withClaims only serialises the claims into request.jwt.claims, whatever their value types.
    return withClaims(ctx.db, caller.claims as JwtClaims, caller.role, fn);
  }

  /** Lifts Supabase's guard against direct deletes (storage.protect_delete) for this transaction only. */
  async function allowDelete(tx: Transaction): Promise<void> {
    await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
  }

  async function upload(request: Request, bucketId: string, key: string, upsert: boolean): Promise<Response> {
    const caller = authorize(request);
    const bucket = await findBucket(bucketId);
    const target = objectFile(bucket.id, key);
    const incoming = await readIncomingFile(request);
    const placeholder = isEmptyFolder(key);

    if (!placeholder && bucket.allowedMimeTypes && bucket.allowedMimeTypes.length > 0) {
      assertMimeTypeAllowed(incoming.mimeType, bucket.allowedMimeTypes);
    }
    const limit = placeholder ? 0 : bucket.fileSizeLimit;
    if (limit !== null && incoming.bytes.length > limit) throw failures.tooLarge();
    // A renamed text file must not pass as a PDF: the declared type has to match the content.
    const claimsPdf = mimeEssence(incoming.mimeType) === 'application/pdf';
    if (claimsPdf && !incoming.bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
      throw failures.contentMismatch(incoming.mimeType);
    }

    const metadata: ObjectMetadata = {
      eTag: `"${createHash('md5').update(incoming.bytes).digest('hex')}"`,
      size: incoming.bytes.length,
      mimetype: incoming.mimeType,
      cacheControl: incoming.cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: incoming.bytes.length,
      httpStatusCode: 200,
    };

    const partialDir = join(root, PARTIAL_DIR);
    await mkdir(partialDir, { recursive: true });
    const partial = join(partialDir, randomUUID());
    await writeFile(partial, incoming.bytes);
    try {
      const owner = ownerOf(caller);
      const id = await asCaller(caller, async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
           values ($1, $2, $3, $4, $5, $6, $7)
           ${
             upsert
               ? `on conflict (bucket_id, name) do update set
                    owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
                    user_metadata = excluded.user_metadata, version = excluded.version,
                    updated_at = now(), last_accessed_at = now()`
               : ''
           }
           returning id`,
          [
            bucket.id,
            key,
            owner,
            owner,
            JSON.stringify(metadata),
            incoming.userMetadata ? JSON.stringify(incoming.userMetadata) : null,
            randomUUID(),
          ],
        );
        // The bytes move into place only once the row is accepted, inside the same transaction.
        try {
          await mkdir(dirname(target), { recursive: true });
          await rename(partial, target);
        } catch (error) {
          // On disk a key cannot be both a file and a folder (`a` and `a/b.pdf`), unlike in S3.
          const code = (error as { code?: unknown }).code;
          if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST') throw failures.invalidKey(key);
          throw error;
        }
        return rows[0]?.id ?? null;
      });
      return json(200, { Id: id, Key: `${bucket.id}/${key}` });
    } catch (error) {
      throw fromDatabaseError(error);
    } finally {
      await rm(partial, { force: true });
    }
  }

  async function serve(
    request: Request,
    bucketId: string,
    key: string,
    mode: 'public' | 'authenticated',
  ): Promise<Response> {
    const caller = mode === 'authenticated' ? authorize(request) : null;
    const bucket = await findBucket(bucketId);
    if (mode === 'public' && !bucket.public) throw failures.noSuchBucket();
    const file = objectFile(bucket.id, key);

    const lookup = 'select metadata from storage.objects where bucket_id = $1 and name = $2';
    // Public buckets are served without consulting policies, as Supabase does.
    const rows =
      caller && !bucket.public
        ? await asCaller(caller, async (tx) => (await tx.query<{ metadata: unknown }>(lookup, [bucket.id, key])).rows)
        : (await ctx.db.query<{ metadata: unknown }>(lookup, [bucket.id, key])).rows;
    const row = rows[0];
    if (!row) throw failures.noSuchKey();

    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      throw failures.noSuchKey();
    }
    const metadata = readMetadata(row.metadata);
    const headers = new Headers({
      'content-type': metadata.mimetype ?? 'application/octet-stream',
      'cache-control': metadata.cacheControl ?? 'no-cache',
      'content-length': String(bytes.length),
      'x-robots-tag': 'none',
    });
    if (metadata.eTag) headers.set('etag', metadata.eTag);
    const lastModified = httpDate(metadata.lastModified);
    if (lastModified) headers.set('last-modified', lastModified);
    const download = new URL(request.url).searchParams.get('download');
    if (download !== null) {
      const name = download || key.split('/').pop() || key;
      const encoded = encodeURIComponent(name);
      headers.set('content-disposition', `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`);
    }
    if (metadata.eTag && request.headers.get('if-none-match') === metadata.eTag) {
      headers.delete('content-length');
      return new Response(null, { status: 304, headers });
    }
    return new Response(new Uint8Array(bytes), { status: 200, headers });
  }

  async function unlinkObject(bucket: string, name: string): Promise<void> {
    let file: string;
    try {
      file = objectFile(bucket, name);
    } catch {
      return; // a row written by hand with a key we never store on disk has no bytes to delete
    }
    await unlink(file).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    });
  }

  async function removeMany(request: Request, bucketId: string): Promise<Response> {
    const caller = authorize(request);
    assertBucketName(bucketId);
    const body = await readJsonBody(request, "body must have required property 'prefixes'");
    const prefixes = (body as { prefixes?: unknown } | null)?.prefixes;
    if (!Array.isArray(prefixes) || !prefixes.every((item): item is string => typeof item === 'string')) {
      throw failures.badBody("body must have required property 'prefixes'");
    }
    if (prefixes.length === 0 || prefixes.length > 1000) {
      throw failures.badBody('body/prefixes must NOT have fewer than 1 items or more than 1000 items');
    }
    try {
      const rows = await asCaller(caller, async (tx) => {
        await allowDelete(tx);
        const deleted = await tx.query<Record<string, unknown> & { name: string }>(
          'delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *',
          [bucketId, prefixes],
        );
        for (const row of deleted.rows) await unlinkObject(bucketId, row.name);
        return deleted.rows;
      });
      return json(200, rows);
    } catch (error) {
      throw fromDatabaseError(error);
    }
  }

  async function removeOne(request: Request, bucketId: string, key: string): Promise<Response> {
    const caller = authorize(request);
    assertBucketName(bucketId);
    assertObjectKey(key);
    try {
      const removed = await asCaller(caller, async (tx) => {
        await allowDelete(tx);
        const deleted = await tx.query('delete from storage.objects where bucket_id = $1 and name = $2 returning name', [
          bucketId,
          key,
        ]);
        if (deleted.rows.length > 0) await unlinkObject(bucketId, key);
        return deleted.rows.length;
      });
      if (removed === 0) throw failures.noSuchKey();
      return json(200, { message: 'Successfully deleted' });
    } catch (error) {
      throw fromDatabaseError(error);
    }
  }

  /**
   * Lists a folder of a bucket as the caller, so the bucket's select policies decide what shows:
   * a caller without one gets an empty list, as on Supabase (an unknown bucket does too).
   */
  async function list(request: Request, bucketId: string): Promise<Response> {
    const caller = authorize(request);
    assertBucketName(bucketId);
    const query = parseListRequest(await readJsonBody(request, "body must have required property 'prefix'"));
    const levels = query.prefix.split('/').length;
    const rows = await asCaller(caller, async (tx) => {
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

  async function route(request: Request, path: string): Promise<Response> {
    const segments = path.split('/').slice(1);
    const method = request.method.toUpperCase();
    if (segments[0] !== 'object' || segments.length < 2) return routeNotFound(method, path);
    const rest = segments.slice(1);
    const read = method === 'GET' || method === 'HEAD';

    if (read && (rest[0] === 'public' || rest[0] === 'authenticated') && rest.length >= 2) {
      const { bucket, key } = splitTarget(rest.slice(1));
      return serve(request, bucket, key, rest[0]);
    }
    // Storage routes `POST /object/list/<bucket>` before uploads, so a bucket named `list` loses
    // that key there too.
    if (method === 'POST' && rest[0] === 'list' && rest.length === 2) {
      return list(request, splitTarget(rest.slice(1)).bucket);
    }
    const { bucket, key } = splitTarget(rest);
    if (read) return serve(request, bucket, key, 'authenticated');
    if (method === 'POST') return upload(request, bucket, key, request.headers.get('x-upsert') === 'true');
    if (method === 'PUT') return upload(request, bucket, key, true);
    if (method === 'DELETE') {
      return rest.length === 1 ? removeMany(request, bucket) : removeOne(request, bucket, key);
    }
    return routeNotFound(method, path);
  }

  return {
    async handle(request, path) {
      try {
        return await route(request, path);
      } catch (error) {
        if (error instanceof StorageFailure) return error.toResponse();
        throw error;
      }
    },
    async close() {
      await rm(join(root, PARTIAL_DIR), { recursive: true, force: true });
    },
  };
}

function routeNotFound(method: string, path: string): Response {
  return json(404, { statusCode: 404, error: 'Not Found', message: `Route ${method}:${path} not found` });
}

