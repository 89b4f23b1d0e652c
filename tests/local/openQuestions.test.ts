/**
 * The coach keeps the questions its knowledge could not answer ("Offene Fragen"), over real HTTP
 * against the local stack: with a language model (the fake OpenAI server) when the search found
 * no passage, without one when it gives the honest reply (no passage, or weak evidence); never an
 * answered question, a greeting or something a visitor tells about themselves; scrubbed; counted;
 * within each client's daily limit. The recording runs after the reply, in the background, so a
 * test waits for a question that is kept ("the sentinel") before it says another one was not.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOT_IN_KNOWLEDGE } from '../../supabase/functions/coach/offline';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { addCompletedDocument, clientAt, startHarness, type Harness } from './harness';

const OPENAI_KEY = 'sk-proj-open-questions-0123456789';
const HANDBOOK =
  'Arbeitszeit\n\nBei Nordlicht gilt Gleitzeit. Die Kernarbeitszeit liegt zwischen zehn und fünfzehn Uhr.\n\n' +
  'Urlaub\n\nJede Mitarbeiterin hat 30 Tage Urlaub im Jahr. Den Urlaub beantragst du im Portal.';
const ANSWERED = 'Wann beginnt die Kernarbeitszeit?';
const NO_PASSAGE = 'Wie backe ich ein Sauerteigbrot?';
/** Words the handbook has, asked about nothing it states: offline, the closest section is named. */
const WEAK_EVIDENCE = 'Was steht im Personalhandbuch über Nordlicht?';

let fake: FakeOpenAI;
let harness: Harness;
let sentinels = 0;

async function ask(question: string, fetcher: typeof fetch = fetch): Promise<string> {
  const response = await fetcher(`${harness.url}/functions/v1/coach/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? '';
}

async function kept(): Promise<{ question: string; ask_count: number }[]> {
  const { data, error } = await harness.service().from('open_questions').select('question, ask_count').order('first_asked_at');
  if (error) throw error;
  return data;
}

/** Asks a question that is kept and waits for it: what was asked before has been decided then. */
async function settled(fetcher: typeof fetch = fetch): Promise<string> {
  sentinels += 1;
  const plant = ['Kaktus', 'Orchidee', 'Farn', 'Bonsai', 'Monstera', 'Ficus', 'Efeu', 'Lavendel'][sentinels % 8] ?? 'Kaktus';
  const sentinel = `Wie pflege ich eine Pflanze der Art ${plant}?`;
  await ask(sentinel, fetcher);
  await expect.poll(async () => (await kept()).map((row) => row.question)).toContain(sentinel);
  return sentinel;
}

const questions = async (except: readonly string[] = []) => (await kept()).map((row) => row.question).filter((question) => !except.includes(question));

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: OPENAI_KEY });
  harness = await startHarness({
    functionEnv: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: fake.url, COACH_RATE_LIMIT: '1000', OPEN_QUESTIONS_DAILY_LIMIT: '1000' },
  });
  await addCompletedDocument(harness, 'Personalhandbuch Nordlicht.pdf', HANDBOOK);
});

afterAll(async () => {
  await harness.close();
  await fake.close();
});

beforeEach(async () => {
  await harness.service().rpc('clear_open_questions').throwOnError();
  await harness.service().from('request_counts').delete().eq('fn', 'open_questions').throwOnError();
});

describe('with a language model', () => {
  it('keeps a question the search found nothing for, scrubbed, and counts it when asked again', async () => {
    await ask(NO_PASSAGE);
    await ask('Hallo, ich heiße Anna Müller: steht auf www.beispiel.de, wie man Sauerteigbrot backt?');
    await ask('wie backe ich ein sauerteigbrot');
    const sentinel = await settled();
    expect(await kept()).toEqual([
      { question: NO_PASSAGE, ask_count: 2 },
      { question: 'Hallo, ich heiße [Name]: steht auf [Link], wie man Sauerteigbrot backt?', ask_count: 1 },
      { question: sentinel, ask_count: 1 },
    ]);
  });

  it('keeps nothing for a question the knowledge answers, a greeting or what a visitor tells', async () => {
    await ask(ANSWERED);
    await ask('Hallo Mia, schön, dich kennenzulernen!');
    await ask('Ich habe seit Wochen Stress bei der Arbeit.');
    const sentinel = await settled();
    expect(await questions([sentinel])).toEqual([]);
    // The model was told the passage for the answered question: it was answered from the knowledge.
    expect(fake.requests().some((request) => JSON.stringify(request.body).includes('Kernarbeitszeit liegt'))).toBe(true);
  });

  it('keeps at most OPEN_QUESTIONS_DAILY_LIMIT a day from one client, and the others still add theirs', async () => {
    const env = harness.stack.config.functionEnv;
    env.OPEN_QUESTIONS_DAILY_LIMIT = '2';
    const busy = clientAt('127.0.0.2');
    const other = clientAt('127.0.0.3');
    try {
      await ask('Wie backe ich ein Sauerteigbrot?', busy.fetch);
      await ask('Wie lange muss ein Brot gehen?', busy.fetch);
      await ask('Welches Mehl nehme ich für Brötchen?', busy.fetch);
      await ask('Wie lange muss ein Brot gehen?', busy.fetch);
      const sentinel = await settled(other.fetch);
      expect(await kept()).toEqual([
        { question: 'Wie backe ich ein Sauerteigbrot?', ask_count: 1 },
        { question: 'Wie lange muss ein Brot gehen?', ask_count: 1 },
        { question: sentinel, ask_count: 1 },
      ]);
    } finally {
      env.OPEN_QUESTIONS_DAILY_LIMIT = '1000';
      await busy.close();
      await other.close();
    }
  });
});

describe('without a language model', () => {
  beforeAll(() => {
    Reflect.deleteProperty(harness.stack.config.functionEnv, 'OPENAI_API_KEY');
  });
  afterAll(() => {
    harness.stack.config.functionEnv.OPENAI_API_KEY = OPENAI_KEY;
  });

  it('keeps the question of an honest reply, for want of a passage and for weak evidence', async () => {
    expect(await ask(NO_PASSAGE)).toMatch(new RegExp(`^${NOT_IN_KNOWLEDGE} In meinem Wissen geht es um`, 'u'));
    expect(await ask(WEAK_EVIDENCE)).toMatch(new RegExp(`^${NOT_IN_KNOWLEDGE} Am nächsten kommt noch etwas`, 'u'));
    const sentinel = await settled();
    expect(await questions([sentinel])).toEqual([NO_PASSAGE, WEAK_EVIDENCE]);
  });

  it('keeps nothing for a question the knowledge answers', async () => {
    expect(await ask(ANSWERED)).toBe('Die Kernarbeitszeit liegt zwischen zehn und fünfzehn Uhr.');
    const sentinel = await settled();
    expect(await questions([sentinel])).toEqual([]);
  });
});
