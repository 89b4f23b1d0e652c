/**
 * The starter knowledge base on a fresh local stack (over real HTTP): four real PDFs go the way an
 * admin's upload goes, the offline coach answers a stress question from them and an unrelated one
 * honestly, a second start adds nothing, STARTER_KNOWLEDGE=off skips it, and a starter document
 * the admin deleted stays deleted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { addStarterKnowledge, starterDir, starterDocuments } from '../../scripts/starterKnowledge';
import { topicOf } from '../../supabase/functions/coach/knowledge';
import { honestReply, isHonestReply } from '../../supabase/functions/coach/offline';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { ADMIN, startHarness, type Harness } from '../local/harness';

let harness: Harness;
let dataDir: string;

async function coach(question: string): Promise<string> {
  const response = await fetch(`${harness.url}/functions/v1/coach/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` },
    body: JSON.stringify({ model: 'coach', messages: [{ role: 'user', content: question }] }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? '';
}

beforeAll(async () => {
  harness = await startHarness();
  dataDir = mkdtempSync(join(tmpdir(), 'starter-knowledge-'));
});

afterAll(async () => {
  await harness.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('starter knowledge', () => {
  it('ships real PDFs rendered by groff and ghostscript', () => {
    for (const { file } of starterDocuments) {
      const bytes = readFileSync(join(starterDir, `${file}.pdf`));
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.toString('latin1')).toMatch(/Ghostscript/);
    }
  });

  it('is skipped with STARTER_KNOWLEDGE=off', async () => {
    expect(await addStarterKnowledge(harness.url, { dataDir }, { STARTER_KNOWLEDGE: 'off' })).toEqual({ skipped: 'disabled' });
    const { count } = await harness.service().from('documents').select('id', { count: 'exact', head: true });
    expect(count).toBe(0);
  });

  it('adds the documents on the first start the way an upload goes, and the coach answers from them', async () => {
    const result = await addStarterKnowledge(harness.url, { dataDir }, {});
    expect(result).toEqual({ added: starterDocuments.map((document) => document.title) });

    const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
    const { data: documents } = await admin.from('documents').select('title, status, storage_path, file_size').order('title');
    expect(documents?.map((document) => document.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED']);
    const stress = documents?.find((document) => document.title.includes('Stress'));
    expect(stress?.storage_path).toBe('starter/stress-im-job.pdf');
    const stored = await admin.storage.from('document-uploads').download('starter/stress-im-job.pdf');
    expect(stored.data?.size).toBe(stress?.file_size);

    expect(await coach('Ich bin total gestresst bei der Arbeit, was kann ich tun?')).toContain('Pause von drei Minuten');
    // Switching off after work, one of the commonest coaching questions; its section runs over a page break.
    expect(await coach('Was hilft mir abends beim Abschalten?')).toContain('Feierabendritual');
    // Spoken: lower case, "nich", a separable verb cut short ("aufwach"): the sleep document is found.
    const { data: found } = await admin.rpc('search_knowledge', { query: 'wie krieg ich das hin dass ich nachts nich dauernd aufwach' });
    expect(found?.[0]?.document_title).toBe('Starterwissen – Besser schlafen.pdf');
    // The answer is the document's advice, not its running header ("Besser schlafen: Starterwissen.").
    const sleep = await coach('wie krieg ich das hin dass ich nachts nich dauernd aufwach');
    expect(sleep).not.toContain('Starterwissen');
    expect(sleep).toMatch(/vor dem Schlafengehen weg|zur gleichen Zeit ins Bett|wach, steh kurz auf/u);
    // No price is in the knowledge: no exercise instead of one, but the honest reply.
    expect(isHonestReply(await coach('Was kostet bei euch eine Sitzung?'))).toBe(true);
    // The honest reply names what the knowledge base holds, newest document first.
    const topics = [...starterDocuments].reverse().map((document) => topicOf(document.title));
    expect(await coach('Was ist die Hauptstadt von Australien?')).toBe(honestReply(topics));
  });

  it('adds nothing on a later start, and a starter document the admin deleted stays deleted', async () => {
    const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
    const { data: deleted, error } = await admin.from('documents').delete().eq('storage_path', 'starter/besser-schlafen.pdf').select('id');
    expect(error).toBeNull();
    expect(deleted).toHaveLength(1);
    expect((await admin.storage.from('document-uploads').remove(['starter/besser-schlafen.pdf'])).error).toBeNull();

    expect(await addStarterKnowledge(harness.url, { dataDir }, {})).toEqual({ skipped: 'already added' });
    const { data: titles } = await admin.from('documents').select('title');
    expect(titles?.map((row) => row.title).sort()).toEqual(
      starterDocuments.filter((document) => document.file !== 'besser-schlafen').map((document) => document.title).sort(),
    );
  });
});
