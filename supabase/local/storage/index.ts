/**
 * Storage API (/storage/v1): the object routes storage-js uses (upload, update, download, public
 * download, signed URLs, remove, list), one file each under routes/, with Supabase Storage's error bodies.
 * Object rows live in storage.objects and are written as the caller, so the policies of the
 * migrations decide; the bytes live on disk below ctx.filesDir/<bucket>/.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Service, StackContext } from '../types';
import { routeNotFound, StorageFailure } from './errors';
import { createObjectStore, PARTIAL_DIR, splitTarget, type ObjectStore } from './objects';
import { download } from './routes/download';
import { list } from './routes/list';
import { removeMany, removeOne } from './routes/remove';
import { createSignedUrl, readSignedObject } from './routes/sign';
import { upload } from './routes/upload';

async function route(store: ObjectStore, request: Request, path: string): Promise<Response> {
  const segments = path.split('/').slice(1);
  const method = request.method.toUpperCase();
  if (segments[0] !== 'object' || segments.length < 2) return routeNotFound(method, path);
  const rest = segments.slice(1);
  const read = method === 'GET' || method === 'HEAD';

  if (read && (rest[0] === 'public' || rest[0] === 'authenticated') && rest.length >= 2) {
    const { bucket, key } = splitTarget(rest.slice(1));
    return download(store, request, bucket, key, rest[0]);
  }
  if (rest[0] === 'sign' && rest.length >= 3) {
    const { bucket, key } = splitTarget(rest.slice(1));
    if (read) return readSignedObject(store, request, bucket, key);
    if (method === 'POST') return createSignedUrl(store, request, bucket, key);
  }
  // Storage routes `POST /object/list/<bucket>` before uploads, so a bucket named `list` loses
  // that key there too.
  if (method === 'POST' && rest[0] === 'list' && rest.length === 2) {
    return list(store, request, splitTarget(rest.slice(1)).bucket);
  }
  const { bucket, key } = splitTarget(rest);
  if (read) return download(store, request, bucket, key, 'authenticated');
  if (method === 'POST') return upload(store, request, bucket, key, request.headers.get('x-upsert') === 'true');
  if (method === 'PUT') return upload(store, request, bucket, key, true);
  if (method === 'DELETE') {
    return rest.length === 1 ? removeMany(store, request, bucket) : removeOne(store, request, bucket, key);
  }
  return routeNotFound(method, path);
}

export function createStorageService(ctx: StackContext): Service {
  const store = createObjectStore(ctx);
  return {
    async handle(request, path) {
      try {
        return await route(store, request, path);
      } catch (error) {
        if (error instanceof StorageFailure) return error.toResponse();
        throw error;
      }
    },
    async close() {
      await rm(join(store.root, PARTIAL_DIR), { recursive: true, force: true });
    },
  };
}
