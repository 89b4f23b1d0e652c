/**
 * `GET|HEAD /object/public/<bucket>/<key>` (public buckets, no policies consulted, as on
 * Supabase), `/object/authenticated/…` or `/object/<bucket>/<key>` (as the caller) and a signed
 * URL's object (./sign.ts checked the token): the bytes with the stored content type, ETag and
 * Last-Modified, `?download` as an attachment. A private bucket's objects are never public.
 */
import { readFile } from 'node:fs/promises';
import { failures } from '../errors';
import type { ObjectMetadata, ObjectStore } from '../objects';

function httpDate(iso: unknown): string | null {
  if (typeof iso !== 'string') return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toUTCString();
}

function readMetadata(value: unknown): Partial<ObjectMetadata> {
  return typeof value === 'object' && value !== null ? value : {};
}

export async function download(
  store: ObjectStore,
  request: Request,
  bucketId: string,
  key: string,
  mode: 'public' | 'authenticated' | 'signed',
): Promise<Response> {
  const caller = mode === 'authenticated' ? store.authorize(request) : null;
  const bucket = await store.findBucket(bucketId);
  if (mode === 'public' && !bucket.public) throw failures.noSuchBucket();
  const file = store.objectFile(bucket.id, key);

  const lookup = 'select metadata from storage.objects where bucket_id = $1 and name = $2';
  const rows =
    caller && !bucket.public
      ? await store.asCaller(caller, async (tx) => (await tx.query<{ metadata: unknown }>(lookup, [bucket.id, key])).rows)
      : (await store.ctx.db.query<{ metadata: unknown }>(lookup, [bucket.id, key])).rows;
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
  const asAttachment = new URL(request.url).searchParams.get('download');
  if (asAttachment !== null) {
    const name = asAttachment || key.split('/').pop() || key;
    const encoded = encodeURIComponent(name);
    headers.set('content-disposition', `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`);
  }
  if (metadata.eTag && request.headers.get('if-none-match') === metadata.eTag) {
    headers.delete('content-length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(bytes), { status: 200, headers });
}
