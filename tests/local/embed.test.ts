/**
 * The embed function and the coach's hybrid search over real HTTP: the local stack with its real
 * database, the fake OpenAI server answering deterministic embeddings. An admin embeds the
 * passages waiting for one; the coach embeds the question and hands the model the passage found by
 * meaning; without a key nothing is embedded and nothing fails; a provider failure loses nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { NO_KNOWLEDGE_INTRO } from '../../supabase/functions/coach/knowledge';
import { embeddingTokens } from '../fixtures/fakeProviders/fakeEmbeddings';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { ADMIN, addCompletedDocument, startHarness, type Harness } from './harness';
import { expectWarnings } from './warnings';

const OPENAI_KEY = 'sk-proj-embed-test-key-0123456789abcdef';
const ALCOHOL = 'Alkohol macht zwar müde, verschlechtert aber die Qualität der zweiten Nachthälfte deutlich.';
const NAP = 'Ein kurzes Nickerchen am frühen Nachmittag sollte nicht länger als zwanzig Minuten dauern.';

let fake: FakeOpenAI;
let harness: Harness;
let adminToken: string;

/** The knowledge system message the model received, or null when there was none. */
function knowledgeOf(body: unknown): string | null {
  const messages = (body as { messages: { role: string; content: string }[] }).messages;
  const second = messages[1];
  return second?.role === 'system' ? second.content : null;
}

async function ask(question: string): Promise<void> {
  const response = await fetch(`${harness.url}/functions/v1/coach/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` },
    body: JSON.stringify({ model: 'coach', messages: [{ role: 'user', content: question }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

const embed = (method: 'GET' | 'POST', token = adminToken) =>
  fetch(`${harness.url}/functions/v1/embed`, { method, headers: { authorization: `Bearer ${token}`, apikey: LOCAL_ANON_KEY } });

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: OPENAI_KEY });
  harness = await startHarness({ functionEnv: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: fake.url, COACH_RATE_LIMIT: '1000' } });
  const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
  adminToken = (await admin.auth.getSession()).data.session?.access_token ?? '';
  await addCompletedDocument(harness, 'alkohol.pdf', ALCOHOL);
  await addCompletedDocument(harness, 'nickerchen.pdf', NAP);
});

afterAll(async () => {
  await harness.close();
  await fake.close();
});

describe('embed function', () => {
  it('refuses visitors and signed-in non-admins', async () => {
    expect((await embed('POST', LOCAL_ANON_KEY)).status).toBe(403);
    const member = await harness.user('member@example.com');
    const token = (await member.auth.getSession()).data.session?.access_token ?? '';
    expect((await embed('POST', token)).status).toBe(403);
    expect(fake.embeddings()).toHaveLength(0);
  });

  it('without a key embeds nothing, says so, and counts what waits', async () => {
    const env = harness.stack.config.functionEnv;
    Reflect.deleteProperty(env, 'OPENAI_API_KEY');
    try {
      const response = await embed('POST');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ enabled: false, embedded: 0, pending: 2 });
    } finally {
      env.OPENAI_API_KEY = OPENAI_KEY;
    }
  });

  it('keeps what waits when the provider fails, and says so in German', async () => {
    fake.control.embeddingFailure = 'http500';
    const logged = vi.mocked(console.error).mockImplementationOnce(() => undefined);
    try {
      const response = await embed('POST');
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: { message: 'Die Einbettungen konnten nicht erstellt werden.', code: 'embedding_error' } });
      expect(logged).toHaveBeenCalledWith('[embed]', expect.stringContaining('HTTP 500'));
    } finally {
      fake.control.embeddingFailure = null;
    }
    expect(await (await embed('GET')).json()).toEqual({ enabled: true, embedded: 0, pending: 2 });
  });

  it('embeds nothing once the day\'s cap of embedding tokens is reached', async () => {
    const env = harness.stack.config.functionEnv;
    env.SPEND_CAP_EMBEDDING_TOKENS = '10';
    const before = fake.embeddings().length;
    const warnings = expectWarnings(/daily cap of embedding tokens/u);
    try {
      const response = await embed('POST');
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: { message: 'Das Tageslimit der Einbettungen ist erreicht. Die übrigen Passagen werden morgen eingebettet.', code: 'spend_cap_reached' },
      });
      // Refused for the cap: 80 % and 100 % at once, each said once.
      expect(warnings.seen()).toEqual([expect.stringContaining('at 80 %'), expect.stringContaining('reached')]);
    } finally {
      warnings.restore();
      Reflect.deleteProperty(env, 'SPEND_CAP_EMBEDDING_TOKENS');
    }
    expect(fake.embeddings()).toHaveLength(before);
  });

  it('does not embed (or bill) a question while no passage has an embedding', async () => {
    const before = fake.embeddings().length;
    const asked = fake.requests().length;
    // Not confidently answered by the full text: with embedded passages, this one is embedded.
    await ask('Ist ein Glas Wein gut zum Einschlafen?');
    expect(fake.requests().length).toBe(asked + 1);
    expect(fake.embeddings()).toHaveLength(before);
  });

  it('embeds the passages waiting for an embedding, in one batch request with the key, on a cap of their own', async () => {
    const before = fake.embeddings().length;
    const spent = async () => (await harness.service().rpc('usage_today')).data as { modelTokens: number; embeddingTokens: number };
    const tokensBefore = await spent();
    // The visitors' model cap used up does not keep the admin from re-reading documents.
    await harness.service().rpc('record_spend', { p_kind: 'model_tokens', p_amount: 1_000_000 });
    const response = await embed('POST');
    expect(await response.json()).toEqual({ enabled: true, embedded: 2, pending: 0 });
    const requests = fake.embeddings().slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.apiKeyMatches).toBe(true);
    expect(requests[0]?.body).toMatchObject({ model: 'text-embedding-3-small', input: expect.arrayContaining([ALCOHOL, NAP]) as unknown });
    // Counted in the day's embedding tokens as OpenAI reports them, not in the visitors' model tokens.
    const after = await spent();
    expect(after.embeddingTokens - tokensBefore.embeddingTokens).toBe(embeddingTokens([ALCOHOL, NAP]));
    expect(after.modelTokens - tokensBefore.modelTokens).toBe(1_000_000);
    await harness.stack.db.exec(`delete from public.daily_spend where kind = 'model_tokens'`);
    expect(await (await embed('POST')).json()).toEqual({ enabled: true, embedded: 0, pending: 0 });
  });
});

describe('coach with hybrid search', () => {
  it('embeds the question and gives the model the passage found by meaning', async () => {
    const before = fake.requests().length;
    await ask('Ist ein Glas Wein gut zum Einschlafen?');
    expect(knowledgeOf(fake.requests().slice(before)[0]?.body)).toContain(ALCOHOL);
    expect(fake.embeddings().at(-1)?.body).toMatchObject({ input: ['Ist ein Glas Wein gut zum Einschlafen?'] });
  });

  it('does not wait for the question\'s embedding when the full-text search is confident', async () => {
    // An embedding slower than the coach's timeout: had the coach waited, it would log the
    // timeout, and the setup fails on any log. It cancels the request instead.
    fake.control.embeddingMs = 5000;
    const before = fake.requests().length;
    try {
      await ask('Wie lange darf ein Nickerchen am Nachmittag dauern?');
    } finally {
      fake.control.embeddingMs = 0;
    }
    expect(knowledgeOf(fake.requests().slice(before)[0]?.body)).toContain(NAP);
  });

  it('answers from full text alone when the question cannot be embedded, and logs it', async () => {
    fake.control.embeddingFailure = 'http401';
    const logged = vi.mocked(console.error).mockImplementationOnce(() => undefined);
    const before = fake.requests().length;
    try {
      await ask('Ist ein Glas Wein gut zum Einschlafen?');
    } finally {
      fake.control.embeddingFailure = null;
    }
    expect(logged).toHaveBeenCalledWith('[coach] question embedding:', expect.stringContaining('HTTP 401'));
    // Full text finds nothing for it: the model hears that the knowledge base has nothing on it.
    const knowledge = knowledgeOf(fake.requests().slice(before)[0]?.body);
    expect(knowledge?.startsWith(NO_KNOWLEDGE_INTRO)).toBe(true);
    expect(knowledge).not.toContain(ALCOHOL);
  });
});
