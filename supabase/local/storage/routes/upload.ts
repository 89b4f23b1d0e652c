/**
 * `POST /object/<bucket>/<key>` (upload; `x-upsert: true` replaces) and `PUT` (update): the
 * bucket's MIME and size limits, PDFs that really are PDFs, the row written as the caller and the
 * bytes moved into place inside the same transaction.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { json } from '../../http';
import { isRecord, type Caller } from '../../shared';
import { failures, fromDatabaseError } from '../errors';
import { PARTIAL_DIR, type ObjectMetadata, type ObjectStore } from '../objects';

const EMPTY_FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder';
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface IncomingFile {
  bytes: Buffer;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
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

function parseUserMetadata(raw: string | null): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
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

function ownerOf(caller: Caller): string | null {
  const sub = caller.claims.sub;
  return typeof sub === 'string' && uuidPattern.test(sub) ? sub : null;
}

export async function upload(store: ObjectStore, request: Request, bucketId: string, key: string, upsert: boolean): Promise<Response> {
  const caller = store.authorize(request);
  const bucket = await store.findBucket(bucketId);
  const target = store.objectFile(bucket.id, key);
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

  const partialDir = join(store.root, PARTIAL_DIR);
  await mkdir(partialDir, { recursive: true });
  const partial = join(partialDir, randomUUID());
  await writeFile(partial, incoming.bytes);
  try {
    const owner = ownerOf(caller);
    const id = await store.asCaller(caller, async (tx) => {
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
