/**
 * What every object route needs: bucket and key rules, the file holding an object's bytes (never
 * outside its bucket's folder), the bucket's settings, the caller, and running SQL as the caller
 * so the policies on storage.objects decide.
 */
import { unlink } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Transaction } from '@electric-sql/pglite';
import { withClaims, type JwtClaims } from '../database';
import { resolveCaller, type Caller } from '../shared';
import type { StackContext } from '../types';
import { failures, tokenMessages } from './errors';

/** Supabase Storage's key and bucket alphabets (S3-safe characters). */
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;
/** Uploads are written here first; '~' cannot occur in a bucket name, so no bucket collides. */
export const PARTIAL_DIR = '~partial';

export interface Bucket {
  id: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

/** Splits `<bucket>/<key…>` from a raw (percent-encoded) path, decoding once like Fastify. */
export function splitTarget(rawSegments: string[]): { bucket: string; key: string } {
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

export function assertBucketName(name: string): void {
  if (name.length === 0 || name.length > 100 || !VALID_BUCKET_NAME.test(name) || name === '.' || name === '..') {
    throw failures.invalidBucketName(name);
  }
}

/**
 * Supabase's key rule (S3-safe characters), plus ours: no empty, `.` or `..` segments and no
 * leading slash, so a key always names exactly one file below its bucket's folder.
 */
export function assertObjectKey(key: string): void {
  if (key.length === 0 || key.length > 1024 || !VALID_OBJECT_KEY.test(key)) throw failures.invalidKey(key);
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw failures.invalidKey(key);
  }
}

export interface ObjectStore {
  readonly ctx: StackContext;
  /** Absolute folder of all buckets' bytes. */
  readonly root: string;
  objectFile(bucket: string, key: string): string;
  findBucket(id: string): Promise<Bucket>;
  authorize(request: Request): Caller;
  asCaller<T>(caller: Caller, fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Lifts Supabase's guard against direct deletes (storage.protect_delete) for this transaction only. */
  allowDelete(tx: Transaction): Promise<void>;
  unlinkObject(bucket: string, name: string): Promise<void>;
}

export function createObjectStore(ctx: StackContext): ObjectStore {
  const root = resolve(ctx.filesDir);

  function objectFile(bucket: string, key: string): string {
    assertBucketName(bucket);
    assertObjectKey(key);
    const bucketDir = resolve(root, bucket);
    const file = resolve(bucketDir, ...key.split('/'));
    if (!bucketDir.startsWith(root + sep) || !file.startsWith(bucketDir + sep)) throw failures.invalidKey(key);
    return file;
  }

  return {
    ctx,
    root,
    objectFile,
    async findBucket(id) {
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
    },
    authorize(request) {
      const result = resolveCaller(request, ctx.config);
      if (!result.ok) throw failures.accessDenied(tokenMessages[result.reason] ?? 'Access denied');
      return result.caller;
    },
    asCaller(caller, fn) {
      // withClaims only serialises the claims into request.jwt.claims, whatever their value types.
      return withClaims(ctx.db, caller.claims as JwtClaims, caller.role, fn);
    },
    async allowDelete(tx) {
      await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
    },
    async unlinkObject(bucket, name) {
      let file: string;
      try {
        file = objectFile(bucket, name);
      } catch {
        return; // a row written by hand with a key we never store on disk has no bytes to delete
      }
      await unlink(file).catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      });
    },
  };
}
