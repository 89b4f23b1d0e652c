/**
 * The Storage API, driven by supabase-js over real HTTP (plus raw fetch for hostile input), with
 * the stack's files in a temporary data dir so the test can see exactly what lands on disk.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/types/database';
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET } from '../../supabase/local/config';
import { signJwt } from '../../supabase/local/jwt';
import { ADMIN, startHarness, type Harness } from './harness';

const BUCKET = 'document-uploads';

/** A small but complete one-page PDF (catalog, page, font, content stream, xref, trailer). */
function samplePdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 72 760 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${String(content.length)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${String(index + 1)} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${String(objects.length + 1)} /Root 1 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const pdfBlob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'application/pdf' });

/** Every file below `dir`, as paths relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

let harness: Harness;
let dataDir: string;
let admin: SupabaseClient<Database>;
let adminToken: string;
let storageDir: string;

/** Files the stack wrote outside its database, i.e. the stored objects. */
const storedFiles = () => filesBelow(dataDir).filter((file) => !file.startsWith(`db/`));

async function objectRow(name: string) {
  const { rows } = await harness.stack.db.query<{ name: string; owner: string | null; metadata: Record<string, unknown> }>(
    'select name, owner, metadata from storage.objects where bucket_id = $1 and name = $2',
    [BUCKET, name],
  );
  return rows[0] ?? null;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'storage-test-'));
  storageDir = join(dataDir, 'storage');
  harness = await startHarness({ dataDir });
  admin = await harness.signedIn(ADMIN.email, ADMIN.password);
  const { data } = await admin.auth.getSession();
  adminToken = data.session?.access_token ?? '';
});

afterAll(async () => {
  await harness.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('uploading, serving and removing a PDF', () => {
  const name = 'handbook-1.pdf';
  const pdf = samplePdf('Coaching handbook');

  it('stores an admin upload: row with metadata, bytes on disk', async () => {
    const { data, error } = await admin.storage
      .from(BUCKET)
      .upload(name, pdfBlob(pdf), { cacheControl: '3600', upsert: false, contentType: 'application/pdf' });
    expect(error).toBeNull();
    expect(data).toEqual({ path: name, id: expect.any(String) as string, fullPath: `${BUCKET}/${name}` });

    const row = await objectRow(name);
    expect(row?.metadata).toMatchObject({
      mimetype: 'application/pdf',
      size: pdf.length,
      contentLength: pdf.length,
      cacheControl: 'max-age=3600',
      httpStatusCode: 200,
      eTag: expect.stringMatching(/^"[0-9a-f]{32}"$/) as string,
    });
    expect(row?.owner).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(join(storageDir, BUCKET, name))).toEqual(pdf);
  });

  it('refuses a second upload to the same key unless upsert is set', async () => {
    const { data, error } = await admin.storage.from(BUCKET).upload(name, pdfBlob(samplePdf('other')), { upsert: false });
    expect(data).toBeNull();
    // Supabase Storage answers client errors with HTTP 400 and the real status in the body.
    expect(error).toMatchObject({ statusCode: '409', status: 400, message: 'The resource already exists' });
    expect(readFileSync(join(storageDir, BUCKET, name))).toEqual(pdf);
  });

  it('serves nothing on the public route: the knowledge bucket is private', async () => {
    const { data } = admin.storage.from(BUCKET).getPublicUrl(name);
    for (const headers of [{}, { authorization: `Bearer ${adminToken}` }] as Record<string, string>[]) {
      const response = await fetch(data.publicUrl, { headers });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });
    }
  });

  it('opens through a signed URL without a token until it expires: same bytes, content type, cache headers', async () => {
    const { data, error } = await admin.storage.from(BUCKET).createSignedUrl(name, 60);
    expect(error).toBeNull();
    const signedUrl = data?.signedUrl ?? '';
    expect(signedUrl).toMatch(new RegExp(`^${harness.url}/storage/v1/object/sign/${BUCKET}/${name}\\?token=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`, 'u'));
    const response = await fetch(signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('max-age=3600');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(pdf);
    const revalidated = await fetch(signedUrl, { headers: { 'if-none-match': etag ?? '' } });
    expect(revalidated.status).toBe(304);

    // The token names its object and expires; one made without the project's secret is nothing.
    const token = new URL(signedUrl).searchParams.get('token') ?? '';
    const elsewhere = await fetch(`${harness.url}/storage/v1/object/sign/${BUCKET}/other.pdf?token=${token}`);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({ error: 'InvalidSignature', message: 'The url do not match the signature' });
    const now = Math.floor(Date.now() / 1000);
    for (const [forged, message] of [
      [signJwt({ url: `${BUCKET}/${name}`, iat: now - 120, exp: now - 60 }, LOCAL_JWT_SECRET), 'jwt expired'],
      [signJwt({ url: `${BUCKET}/${name}`, iat: now, exp: now + 60 }, 'not-the-project-secret-but-32-characters'), 'invalid signature'],
    ] as const) {
      const refused = await fetch(`${harness.url}/storage/v1/object/sign/${BUCKET}/${name}?token=${forged}`);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'Invalid JWT', message });
    }
  });

  it('lets neither a visitor nor a signed-in non-admin read a knowledge PDF in any way', async () => {
    const reader = await harness.user('curious@example.com');
    for (const client of [harness.anon(), reader]) {
      const signed = await client.storage.from(BUCKET).createSignedUrl(name, 60);
      expect(signed.data).toBeNull();
      expect(signed.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
      const downloaded = await client.storage.from(BUCKET).download(name);
      expect(downloaded.data).toBeNull();
      const listed = await client.storage.from(BUCKET).list();
      expect(listed.data).toEqual([]);
    }
    expect((await admin.storage.from(BUCKET).list()).data?.map((entry) => entry.name)).toContain(name);
  });

  it('still serves a public bucket on the public route, without a token', async () => {
    await harness.stack.db.query(`insert into storage.buckets (id, name, public) values ('press-kit', 'press-kit', true)`);
    const { error } = await harness.service().storage.from('press-kit').upload('logo.pdf', pdfBlob(pdf), { contentType: 'application/pdf' });
    expect(error).toBeNull();
    const response = await fetch(`${harness.url}/storage/v1/object/public/press-kit/logo.pdf`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(pdf);
  });

  it('downloads through the authenticated route', async () => {
    const { data, error } = await admin.storage.from(BUCKET).download(name);
    expect(error).toBeNull();
    expect(Buffer.from(await (data ?? new Blob()).arrayBuffer())).toEqual(pdf);
  });

  it('replaces the file with upsert and with update', async () => {
    const second = samplePdf('Second edition');
    const upserted = await admin.storage.from(BUCKET).upload(name, pdfBlob(second), { upsert: true, contentType: 'application/pdf' });
    expect(upserted.error).toBeNull();
    expect(readFileSync(join(storageDir, BUCKET, name))).toEqual(second);

    // A Buffer goes as a raw body with content-type and cache-control headers (Node clients).
    const third = samplePdf('Third edition');
    const updated = await admin.storage.from(BUCKET).update(name, third, { contentType: 'application/pdf', cacheControl: '60' });
    expect(updated.error).toBeNull();
    expect(readFileSync(join(storageDir, BUCKET, name))).toEqual(third);
    expect((await objectRow(name))?.metadata).toMatchObject({ size: third.length, cacheControl: 'max-age=60' });
    const downloaded = await admin.storage.from(BUCKET).download(name);
    expect(Buffer.from(await (downloaded.data ?? new Blob()).arrayBuffer())).toEqual(third);
  });

  it('removes bytes and row, and a signed URL made before then answers not found', async () => {
    const signed = (await admin.storage.from(BUCKET).createSignedUrl(name, 60)).data?.signedUrl ?? '';
    const { data, error } = await admin.storage.from(BUCKET).remove([name, 'never-uploaded.pdf']);
    expect(error).toBeNull();
    expect(data?.map((object) => object.name)).toEqual([name]);
    expect(await objectRow(name)).toBeNull();
    expect(storedFiles()).not.toContain(`storage/${BUCKET}/${name}`);

    const response = await fetch(signed);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '404', error: 'not_found', message: 'Object not found' });
  });
});

describe('who may upload and remove', () => {
  it('refuses uploads by a signed-in non-admin and by a visitor (row level security)', async () => {
    const reader = await harness.user('reader@example.com');
    for (const client of [reader, harness.anon()]) {
      const { data, error } = await client.storage
        .from(BUCKET)
        .upload('intruder.pdf', pdfBlob(samplePdf('no')), { contentType: 'application/pdf' });
      expect(data).toBeNull();
      expect(error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    }
    expect(await objectRow('intruder.pdf')).toBeNull();
    expect(storedFiles().filter((file) => file.includes('intruder'))).toEqual([]);
  });

  it('removes nothing for a non-admin', async () => {
    const kept = samplePdf('kept');
    expect((await admin.storage.from(BUCKET).upload('kept.pdf', pdfBlob(kept))).error).toBeNull();
    const reader = await harness.signedIn('reader@example.com', 'password-123');
    const { data, error } = await reader.storage.from(BUCKET).remove(['kept.pdf']);
    expect(error).toBeNull();
    expect(data).toEqual([]);
    expect(await objectRow('kept.pdf')).not.toBeNull();
    expect(readFileSync(join(storageDir, BUCKET, 'kept.pdf'))).toEqual(kept);
  });

  it('refuses an expired or forged token', async () => {
    const claims = JSON.parse(Buffer.from(adminToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const expired = signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }, LOCAL_JWT_SECRET);
    const forged = signJwt(claims, 'not-the-secret-but-long-enough-to-look-real');
    for (const [token, message] of [
      [expired, 'jwt expired'],
      [forged, 'invalid signature'],
    ] as const) {
      const response = await fetch(`${harness.url}/storage/v1/object/${BUCKET}/refused.pdf`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/pdf' },
        body: new Uint8Array(samplePdf('x')),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized', message });
    }
    expect(await objectRow('refused.pdf')).toBeNull();
  });
});

describe('bucket limits and content checks', () => {
  it('refuses a type the bucket does not allow', async () => {
    const { error } = await admin.storage
      .from(BUCKET)
      .upload('notes.txt', new Blob(['just text'], { type: 'text/plain' }), { contentType: 'text/plain' });
    expect(error).toMatchObject({ statusCode: '415', message: 'mime type text/plain is not supported' });
    expect(await objectRow('notes.txt')).toBeNull();
  });

  it('refuses a text file renamed to .pdf and declared as a PDF', async () => {
    const { error } = await admin.storage
      .from(BUCKET)
      .upload('renamed.pdf', new Blob(['Dear diary, this is not a PDF.'], { type: 'application/pdf' }), {
        contentType: 'application/pdf',
      });
    expect(error).toMatchObject({ statusCode: '415' });
    expect(await objectRow('renamed.pdf')).toBeNull();
    expect(storedFiles().filter((file) => file.includes('renamed'))).toEqual([]);
  });

  it('refuses a PDF over the bucket limit of 20 MB', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024, 0x20);
    big.write('%PDF-1.4\n', 'latin1');
    const { error } = await admin.storage.from(BUCKET).upload('big.pdf', pdfBlob(big), { contentType: 'application/pdf' });
    expect(error).toMatchObject({ statusCode: '413', message: 'The object exceeded the maximum allowed size' });
    expect(await objectRow('big.pdf')).toBeNull();
    expect(storedFiles().filter((file) => file.includes('big'))).toEqual([]);
  });

  it('refuses a 50 MB body at the server limit and writes nothing', async () => {
    const before = storedFiles();
    const huge = new Uint8Array(50 * 1024 * 1024);
    huge.set(Buffer.from('%PDF-1.4\n', 'latin1'));
    const response = await fetch(`${harness.url}/storage/v1/object/${BUCKET}/huge.pdf`, {
      method: 'POST',
      headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${adminToken}`, 'content-type': 'application/pdf' },
      body: huge,
    });
    expect(response.status).toBe(413);
    expect(await objectRow('huge.pdf')).toBeNull();
    expect(storedFiles()).toEqual(before);
  });
});

describe('object keys', () => {
  it('never writes outside the storage folder, whatever the key', async () => {
    const before = storedFiles();
    for (const key of ['../../etc/passwd', 'a/../../b.pdf']) {
      const { data, error } = await admin.storage.from(BUCKET).upload(key, pdfBlob(samplePdf('x')));
      expect(data, key).toBeNull();
      expect(error, key).not.toBeNull();
    }

    // Encoded separators survive URL normalisation and reach the key check.
    const hostile = [
      '..%2F..%2Fetc%2Fpasswd',
      'a%2F..%2F..%2Fb.pdf',
      '..%2Fa.pdf',
      'a%5C..%5Cb.pdf',
      'a%00.pdf',
      '%2Fabsolute.pdf',
      'a%2F%2Fb.pdf',
      '.%2Fa.pdf',
    ];
    for (const key of hostile) {
      const response = await fetch(`${harness.url}/storage/v1/object/${BUCKET}/${key}`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${adminToken}`, 'content-type': 'application/pdf' },
        body: new Uint8Array(samplePdf('x')),
      });
      expect(response.status, key).toBe(400);
      expect(await response.json(), key).toMatchObject({
        statusCode: '400',
        error: 'InvalidKey',
        message: `Invalid key: ${decodeURIComponent(key)}`,
      });
    }

    expect(storedFiles()).toEqual(before);
    const { rows } = await harness.stack.db.query<{ count: number }>(
      `select count(*)::int as count from storage.objects where name like '%..%' or name like '%passwd%' or name like '/%'`,
    );
    expect(rows[0]?.count).toBe(0);
  });

  it('keeps nested keys below the bucket folder', async () => {
    const pdf = samplePdf('nested');
    const { error } = await admin.storage.from(BUCKET).upload('2026/11/report.pdf', pdfBlob(pdf));
    expect(error).toBeNull();
    expect(readFileSync(join(storageDir, BUCKET, '2026', '11', 'report.pdf'))).toEqual(pdf);
  });
});

describe('listing a folder', () => {
  const folder = 'list-test';

  beforeAll(async () => {
    for (const name of ['b.pdf', 'a.pdf', 'sub/c.pdf']) {
      const { error } = await admin.storage.from(BUCKET).upload(`${folder}/${name}`, pdfBlob(samplePdf(name)));
      expect(error).toBeNull();
    }
  });

  it('answers as Storage does: one level, folders first (name only), then files with metadata', async () => {
    const { data, error } = await admin.storage.from(BUCKET).list(folder);
    expect(error).toBeNull();
    expect(data?.map((entry) => entry.name)).toEqual(['sub', 'a.pdf', 'b.pdf']);
    expect(data?.[0]).toEqual({
      name: 'sub',
      id: null,
      updated_at: null,
      created_at: null,
      last_accessed_at: null,
      metadata: null,
    });
    const file = data?.[1];
    expect(Object.keys(file ?? {}).sort()).toEqual(['created_at', 'id', 'last_accessed_at', 'metadata', 'name', 'updated_at']);
    expect(file?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(file?.created_at ?? ''))).toBe(false);
    expect(file?.metadata).toMatchObject({ mimetype: 'application/pdf', size: samplePdf('a.pdf').length });
  });

  it('treats the prefix as a folder and lists its subfolder', async () => {
    const { data } = await admin.storage.from(BUCKET).list(`${folder}/sub/`);
    expect(data?.map((entry) => entry.name)).toEqual(['c.pdf']);
    const root = await admin.storage.from(BUCKET).list();
    expect(root.data?.map((entry) => entry.name)).toContain(folder);
  });

  it('sorts, pages and searches', async () => {
    const descending = await admin.storage.from(BUCKET).list(folder, { sortBy: { column: 'name', order: 'desc' } });
    expect(descending.data?.map((entry) => entry.name)).toEqual(['sub', 'b.pdf', 'a.pdf']);
    const page = await admin.storage.from(BUCKET).list(folder, { limit: 1, offset: 1 });
    expect(page.data?.map((entry) => entry.name)).toEqual(['a.pdf']);
    const found = await admin.storage.from(BUCKET).list(folder, { search: 'B' });
    expect(found.data?.map((entry) => entry.name)).toEqual(['b.pdf']);
  });

  it('shows only what the caller may select (row level security)', async () => {
    const reader = await harness.signedIn('reader@example.com', 'password-123');
    for (const client of [reader, harness.anon()]) {
      const { data, error } = await client.storage.from(BUCKET).list(folder);
      expect(error).toBeNull();
      expect(data).toEqual([]);
    }
    // The private tts cache has no policies at all: only the service role sees its objects.
    const service = harness.service();
    const audio = new Blob([new Uint8Array([0xff, 0xfb, 0x90, 0x64])], { type: 'audio/mpeg' });
    expect((await service.storage.from('tts-cache').upload('greeting.mp3', audio)).error).toBeNull();
    expect((await admin.storage.from('tts-cache').list()).data).toEqual([]);
    expect((await service.storage.from('tts-cache').list()).data?.map((entry) => entry.name)).toEqual(['greeting.mp3']);
  });

  it('refuses a body without prefix and an unknown sort column', async () => {
    const post = (body: unknown) =>
      fetch(`${harness.url}/storage/v1/object/list/${BUCKET}`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const missing = await post({ limit: 10 });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ statusCode: '400', message: "body must have required property 'prefix'" });
    const injected = await post({ prefix: '', sortBy: { column: 'name; drop table storage.objects', order: 'asc' } });
    expect(injected.status).toBe(400);
    expect((await admin.storage.from(BUCKET).list(folder)).data).toHaveLength(3);
  });
});
