/**
 * `DELETE /object/<bucket>` with `{ prefixes }` (storage-js `remove`) and `DELETE
 * /object/<bucket>/<key>`: rows deleted as the caller, then their bytes.
 */
import { json } from '../../http';
import { failures, fromDatabaseError, readJsonBody } from '../errors';
import { assertBucketName, assertObjectKey, type ObjectStore } from '../objects';

export async function removeMany(store: ObjectStore, request: Request, bucketId: string): Promise<Response> {
  const caller = store.authorize(request);
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
    const rows = await store.asCaller(caller, async (tx) => {
      await store.allowDelete(tx);
      const deleted = await tx.query<Record<string, unknown> & { name: string }>(
        'delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *',
        [bucketId, prefixes],
      );
      for (const row of deleted.rows) await store.unlinkObject(bucketId, row.name);
      return deleted.rows;
    });
    return json(200, rows);
  } catch (error) {
    throw fromDatabaseError(error);
  }
}

export async function removeOne(store: ObjectStore, request: Request, bucketId: string, key: string): Promise<Response> {
  const caller = store.authorize(request);
  assertBucketName(bucketId);
  assertObjectKey(key);
  try {
    const removed = await store.asCaller(caller, async (tx) => {
      await store.allowDelete(tx);
      const deleted = await tx.query('delete from storage.objects where bucket_id = $1 and name = $2 returning name', [
        bucketId,
        key,
      ]);
      if (deleted.rows.length > 0) await store.unlinkObject(bucketId, key);
      return deleted.rows.length;
    });
    if (removed === 0) throw failures.noSuchKey();
    return json(200, { message: 'Successfully deleted' });
  } catch (error) {
    throw fromDatabaseError(error);
  }
}
