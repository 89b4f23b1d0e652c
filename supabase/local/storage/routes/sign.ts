/**
 * Signed URLs, as Supabase Storage gives them for private buckets:
 *
 * - `POST /object/sign/<bucket>/<key>` `{ expiresIn }` (storage-js `createSignedUrl`): the caller
 *   must be able to read the object (its select policies decide, as Storage's `findObject` as the
 *   user does); the answer is `{ signedURL: '/object/sign/<bucket>/<key>?token=<jwt>' }`, the JWT
 *   signed with the project's secret and carrying `url: '<bucket>/<key>'`, `iat` and `exp`.
 * - `GET /object/sign/<bucket>/<key>?token=<jwt>[&download]`: the object for whoever holds the
 *   link until it expires (no Authorization needed), after checking the token's signature, expiry
 *   and that its `url` is this path ('Invalid JWT' / 'InvalidSignature', 400).
 */
import { json } from '../../http';
import { signJwt, verifyJwt } from '../../jwt';
import { failures, readJsonBody, StorageFailure } from '../errors';
import type { ObjectStore } from '../objects';
import { download } from './download';

export async function createSignedUrl(store: ObjectStore, request: Request, bucketId: string, key: string): Promise<Response> {
  const caller = store.authorize(request);
  const body = await readJsonBody(request, "body must have required property 'expiresIn'");
  const expiresIn = typeof body === 'object' && body !== null ? (body as { expiresIn?: unknown }).expiresIn : undefined;
  if (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn)) throw failures.badBody("body must have required property 'expiresIn'");
  if (expiresIn < 1) throw failures.badBody('body/expiresIn must be >= 1');
  store.objectFile(bucketId, key); // validates bucket name and key
  const visible = await store.asCaller(caller, async (tx) =>
    (await tx.query('select 1 from storage.objects where bucket_id = $1 and name = $2', [bucketId, key])).rows.length > 0,
  );
  if (!visible) throw failures.noSuchKey();
  const iat = Math.floor(Date.now() / 1000);
  const token = signJwt({ url: `${bucketId}/${key}`, iat, exp: iat + expiresIn }, store.ctx.config.jwtSecret);
  return json(200, { signedURL: `/object/sign/${encodeURIComponent(bucketId)}/${key.split('/').map(encodeURIComponent).join('/')}?token=${token}` });
}

export async function readSignedObject(store: ObjectStore, request: Request, bucketId: string, key: string): Promise<Response> {
  const token = new URL(request.url).searchParams.get('token');
  if (token === null) throw failures.badBody("querystring must have required property 'token'");
  const verified = verifyJwt(token, store.ctx.config.jwtSecret);
  if (!verified.ok) {
    const messages = { malformed: 'jwt malformed', signature: 'invalid signature', expired: 'jwt expired' } as const;
    throw new StorageFailure(400, 'InvalidJWT', 'Invalid JWT', messages[verified.reason]);
  }
  if (verified.claims.url !== `${bucketId}/${key}`) {
    throw new StorageFailure(400, 'InvalidSignature', 'InvalidSignature', 'The url do not match the signature');
  }
  // The link is the permission: the object is read as Storage's own superuser does.
  return download(store, request, bucketId, key, 'signed');
}
