/**
 * A budget that fits a question: the coach reserves what a question really costs (its prompt with
 * the passages found), so a small practice's cap answers a new visitor; a configuration whose
 * budget cannot hold one ordinary first question is reported when the local stack starts, in the
 * function's log at its first request, and to the admin, with the smallest cap that works.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { budgetProblems, questionBound } from '../../supabase/functions/_shared/budgetFit';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { runLocalStack } from '../../supabase/local/main';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { addCompletedDocument, ADMIN, clientAt, startHarness, testConfig, type Harness } from './harness';
import { expectWarnings } from './warnings';

const passage = (topic: string) =>
  `${topic}: Atme vier Sekunden ein, halte kurz inne und atme sechs Sekunden aus. Wiederhole das zehnmal, am besten am Abend vor dem Einschlafen. `.repeat(5);

describe('a budget that fits a question', () => {
  let fake: FakeOpenAI;
  let harness: Harness;
  const env: Record<string, string> = {};

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    Object.assign(env, { OPENAI_API_KEY: 'sk-budget-fit-0123456789', OPENAI_BASE_URL: fake.url, SPEND_CAP_MODEL_TOKENS: '200000' });
    harness = await startHarness({ functionEnv: env });
    // A knowledge base whose passages fill the knowledge message.
    for (const topic of ['Atmung', 'Schlaf', 'Stress', 'Pausen', 'Abendroutine']) await addCompletedDocument(harness, `${topic}.pdf`, passage(topic));
  });

  afterAll(async () => {
    await harness.close();
    await fake.close();
  });

  it('answers a new visitor with a cap of 200,000 tokens (a budget of 10,000), reserving the passages found', async () => {
    expect(budgetProblems(env)).toEqual([]);
    const from = clientAt('127.0.6.1');
    try {
      const response = await from.fetch(`${harness.url}/functions/v1/coach/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Wie viele Sekunden atme ich am Abend vor dem Einschlafen ein und aus?' }] }),
      });
      expect(response.headers.get('x-coach-mode')).toBe('model');
      await response.text();
    } finally {
      await from.close();
    }
    const sent = fake.requests()[0]?.body as { messages: { role: string; content: string }[] };
    expect(sent.messages[1]?.content).toContain('<<<Auszug 5');
    // The reservation was the prompt with these passages and a full reply, below the budget.
    const prompt = sent.messages.reduce((sum, message) => sum + Buffer.byteLength(message.content) + 4, 3);
    expect(prompt + 500).toBeLessThan(10_000);
    expect(prompt + 500).toBeLessThan(questionBound());
  });

  it('reports a budget too small for one question in the function\'s log at its first request, once, with the smallest cap that works', async () => {
    env.SPEND_CAP_MODEL_TOKENS = '100000';
    const warnings = expectWarnings(/daily budget of/u);
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await fetch(`${harness.url}/functions/v1/coach/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Hallo' }] }),
        });
        await response.text();
      }
      const smallest = Math.ceil((questionBound() * 100) / 5);
      expect(warnings.seen()).toEqual([
        `[coach] a client's daily budget of 5,000 model tokens (one question) is smaller than ${questionBound().toLocaleString('en-US')}: a new visitor would be answered "paused"; set SPEND_CAP_MODEL_TOKENS to at least ${smallest.toLocaleString('en-US')}`,
      ]);
      expect(smallest).toBeGreaterThan(100_000);
      expect(smallest).toBeLessThanOrEqual(200_000);
    } finally {
      warnings.restore();
      env.SPEND_CAP_MODEL_TOKENS = '200000';
    }
  });

  it('tells the admin in the system settings, with the setting that fixes it', async () => {
    env.SPEND_CAP_MODEL_TOKENS = '100000';
    env.CLIENT_BUDGET_STT_SECONDS = '30';
    try {
      const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
      const token = (await admin.auth.getSession()).data.session?.access_token ?? '';
      const response = await fetch(`${harness.url}/functions/v1/system-settings/usage`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { problems: unknown[]; budgets: { client: Record<string, number>; network: Record<string, number> } };
      expect(body.problems).toEqual([
        { kind: 'model_tokens', scope: 'client', budget: 5000, needed: questionBound(), fix: { setting: 'SPEND_CAP_MODEL_TOKENS', value: Math.ceil((questionBound() * 100) / 5) } },
        { kind: 'stt_seconds', scope: 'client', budget: 30, needed: 60, fix: { setting: 'CLIENT_BUDGET_STT_SECONDS', value: 60 } },
      ]);
      expect(body.budgets).toEqual({
        client: { modelTokens: 5000, ttsCharacters: 5000, sttSeconds: 30 },
        network: { modelTokens: 20_000, ttsCharacters: 20_000, sttSeconds: 1440 },
      });
    } finally {
      env.SPEND_CAP_MODEL_TOKENS = '200000';
      Reflect.deleteProperty(env, 'CLIENT_BUDGET_STT_SECONDS');
    }
  });
});

describe('the local stack at start', () => {
  it('says which budgets cannot hold a new visitor\'s first question, greeting or utterance', async () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const warnings = expectWarnings(/^Budget:/u);
    try {
      const close = await runLocalStack(testConfig({ functionEnv: { SPEND_CAP_MODEL_TOKENS: '100000', SPEND_CAP_TTS_CHARACTERS: '2000' } }));
      await close();
      printed.push(...warnings.seen());
    } finally {
      warnings.restore();
      log.mockRestore();
    }
    expect(printed).toHaveLength(2);
    expect(printed[0]).toMatch(/^Budget: {11}a client's daily budget of 5,000 model tokens \(one question\) is smaller than [\d,]+: .*set SPEND_CAP_MODEL_TOKENS to at least [\d,]+$/u);
    expect(printed[1]).toMatch(/^Budget: {11}a client's daily budget of 100 TTS characters \(the greeting\) is smaller than \d+: .*set SPEND_CAP_TTS_CHARACTERS to at least [\d,]+$/u);
  });
});
