/**
 * The `stt-stream` edge function on the real local stack over a real WebSocket, with the fake
 * ElevenLabs speaking Scribe v2 Realtime's protocol (tests/fixtures/fakeProviders/fakeScribe.ts):
 * how the page's audio reaches the transcriber and its words come back, what is counted, and every
 * refusal and failure as the page sees it (a message and a close code).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { catalogue } from '../../supabase/functions/_shared/catalogue';
import { guardMessages } from '../../supabase/functions/_shared/guard';
import { sttMessages } from '../../supabase/functions/stt/messages';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { startFakeElevenLabs, voicedPcm, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import type { RecordedScribeSession } from '../fixtures/fakeProviders/fakeScribe';
import { ADMIN, startHarness, type Harness } from './harness';

const ELEVENLABS_KEY = 'sk_fake-elevenlabs-stream-key-0123456789';
const RATE = 16_000;
const BYTES_PER_SECOND = RATE * 2;

let elevenLabs: FakeElevenLabs;
let harness: Harness;
/** The host hands the function this object's current contents on every request. */
const env: Record<string, string> = {};

interface Stream {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** The first message of a type (waits for it). */
  next(type: string): Promise<Record<string, unknown>>;
}

/** Opens the function's WebSocket as the page does (`?jwt=`), resolving once it is open. */
function openStream(options: { jwt?: string | null; origin?: string } = {}): Promise<Stream> {
  const jwt = options.jwt === undefined ? LOCAL_ANON_KEY : options.jwt;
  const url = `${harness.url.replace(/^http/u, 'ws')}/functions/v1/stt-stream${jwt === null ? '' : `?jwt=${encodeURIComponent(jwt)}`}`;
  const ws = new WebSocket(url, { headers: options.origin ? { origin: options.origin } : {} });
  const messages: Record<string, unknown>[] = [];
  const waiters: { type: string; resolve: (message: Record<string, unknown>) => void }[] = [];
  ws.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false);
    const message = JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as Record<string, unknown>;
    messages.push(message);
    for (const waiter of waiters.filter((entry) => entry.type === message.type)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = messages.find((message) => message.type === type);
      if (seen) resolve(seen);
      else waiters.push({ type, resolve });
    });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, closed, next }));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${String(response.statusCode)}`)));
    ws.once('error', reject);
  });
}

/** Sends PCM as the page does: 20 ms frames, `pace` times faster than real time (0: at once). */
async function speak(stream: Stream, pcm: Uint8Array, pace = 4): Promise<void> {
  const frame = RATE * 0.02 * 2;
  for (let offset = 0; offset < pcm.length; offset += frame) {
    stream.ws.send(pcm.subarray(offset, offset + frame));
    if (pace > 0) await new Promise((resolve) => setTimeout(resolve, 20 / pace));
  }
}

const silence = (seconds: number) => new Uint8Array(Math.round(seconds * RATE) * 2);
const utterance = (voiced: number, quiet = 0.3) => Buffer.concat([voicedPcm(voiced, RATE), silence(quiet)]);

/** Today's streamed seconds as the guard recorded them, once no reservation or slot is open. */
async function settledSeconds(): Promise<number> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const { rows } = await harness.stack.db.query<{ open: number; seconds: number }>(
      `select (select count(*)::int from public.spend_reservations) + (select count(*)::int from public.active_streams) as open,
              coalesce((select sum(amount)::int from public.daily_spend where kind = 'stt_seconds'), 0) as seconds`,
    );
    if (rows[0]?.open === 0) return rows[0].seconds;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the stream was not settled within 5 s');
}

/** The fake transcriber's record of the first session, once that session has closed. */
async function closedSession(): Promise<RecordedScribeSession | undefined> {
  for (let waited = 0; waited < 5_000; waited += 20) {
    const [session] = elevenLabs.streams();
    if (session?.closed) return session;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the transcriber\'s session did not close within 5 s');
}

beforeAll(async () => {
  elevenLabs = await startFakeElevenLabs({ apiKey: ELEVENLABS_KEY });
  harness = await startHarness({ functionEnv: env });
});

afterAll(async () => {
  await harness.close();
  await elevenLabs.close();
});

beforeEach(async () => {
  for (const key of Object.keys(env)) Reflect.deleteProperty(env, key);
  Object.assign(env, { ELEVENLABS_API_KEY: ELEVENLABS_KEY, ELEVENLABS_BASE_URL: elevenLabs.url, STT_RATE_LIMIT: '1000', CLIENT_BUDGET_PERCENT: '100' });
  elevenLabs.reset();
  await harness.stack.db.exec(
    'delete from public.daily_spend; delete from public.client_spend; delete from public.spend_reservations; delete from public.request_counts; delete from public.active_streams;',
  );
});

describe('a streamed turn', () => {
  it('relays the audio to Scribe v2 Realtime and its words back, and counts the seconds streamed', async () => {
    elevenLabs.control.streaming.script = ['Ich bin gestresst, was kann ich tun?'];
    const stream = await openStream();
    await stream.next('ready');
    const pcm = utterance(1.6);
    await speak(stream, pcm);
    stream.ws.send(JSON.stringify({ type: 'commit' }));
    const final = await stream.next('final');
    stream.ws.close(1000);
    expect(await stream.closed).toEqual({ code: 1000, reason: '' });

    expect(final).toEqual({ type: 'final', text: 'Ich bin gestresst, was kann ich tun?' });
    const partials = stream.messages.filter((message) => message.type === 'partial').map((message) => String(message.text));
    expect(partials.length).toBeGreaterThan(2);
    // The words grow while the audio arrives, each partial the start of the final words.
    for (const [index, text] of partials.entries()) {
      expect('Ich bin gestresst, was kann ich tun?'.startsWith(text)).toBe(true);
      if (index > 0) expect(text.length).toBeGreaterThan(partials[index - 1]?.length ?? 0);
    }
    expect(stream.messages.at(-1)).toEqual(final);

    const session = await closedSession();
    expect(elevenLabs.streams()).toHaveLength(1);
    expect(session).toMatchObject({
      query: { model_id: 'scribe_v2_realtime', audio_format: 'pcm_16000', language_code: 'de', commit_strategy: 'manual' },
      auth: 'token',
      accepted: true,
      audioBytes: pcm.length,
      audioBeforeSession: 0,
      commits: 1,
      closed: { by: 'client', code: 1000 },
    });
    expect(elevenLabs.streamTokens()).toEqual({ minted: 1, used: 1 });
    // What was sent on is what is counted, in whole seconds (1.9 s → 2).
    expect(session?.audioSeconds).toBeCloseTo(pcm.length / BYTES_PER_SECOND, 6);
    expect(await settledSeconds()).toBe(Math.ceil(pcm.length / BYTES_PER_SECOND));
    expect(JSON.stringify(stream.messages)).not.toContain(ELEVENLABS_KEY);
  });

  it('keeps the audio sent before the transcriber listens and sends it on in order', async () => {
    elevenLabs.control.streaming.sessionMs = 300;
    const stream = await openStream();
    const pcm = utterance(0.8);
    await speak(stream, pcm, 0);
    stream.ws.send(JSON.stringify({ type: 'commit' }));
    await stream.next('final');
    expect(stream.messages.findIndex((message) => message.type === 'ready')).toBe(0);
    stream.ws.close(1000);
    await stream.closed;
    expect(await closedSession()).toMatchObject({ audioBytes: pcm.length, audioBeforeSession: 0, commits: 1 });
  });

  it('answers each commit with its segment\'s words, and an empty one for a commit without speech', async () => {
    elevenLabs.control.streaming.script = ['Ich bin gestresst,', 'was kann ich tun?'];
    const stream = await openStream();
    await stream.next('ready');
    await speak(stream, utterance(0.7), 0);
    stream.ws.send(JSON.stringify({ type: 'commit' }));
    await speak(stream, utterance(0.7), 0);
    stream.ws.send(JSON.stringify({ type: 'commit' }));
    await speak(stream, silence(0.3), 0);
    stream.ws.send(JSON.stringify({ type: 'commit' }));
    for (let waited = 0; stream.messages.filter((message) => message.type === 'final').length < 3 && waited < 3_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    stream.ws.close(1000);
    await stream.closed;
    expect(stream.messages.filter((message) => message.type === 'final')).toEqual([
      { type: 'final', text: 'Ich bin gestresst,' },
      { type: 'final', text: 'was kann ich tun?' },
      { type: 'final', text: '' },
    ]);
  });

  it('cuts a stream that would pass the 60 s it reserved, counting only what was sent on', async () => {
    const stream = await openStream();
    await stream.next('ready');
    const second = voicedPcm(1, RATE);
    for (let index = 0; index < 61; index += 1) stream.ws.send(second);
    const { code, reason } = await stream.closed;
    expect(code).toBe(4413);
    expect(reason).toBe(sttMessages.tooLarge);
    expect(stream.messages.at(-1)).toEqual({ type: 'error', error: { message: sttMessages.tooLarge, code: 'too_large' } });
    expect(await settledSeconds()).toBe(60);
    expect((await closedSession())?.audioSeconds).toBe(60);
  });

  it('ends the transcriber\'s session when the page goes away mid-sentence, and settles what was sent', async () => {
    const stream = await openStream();
    await stream.next('ready');
    await speak(stream, voicedPcm(0.5, RATE), 0);
    await stream.next('partial');
    stream.ws.terminate();
    expect(await settledSeconds()).toBe(1);
    expect((await closedSession())?.closed).toEqual({ by: 'client', code: 1000 });
  });
});

describe('who may stream', () => {
  it('refuses the upgrade without a token, with a token GoTrue does not know, and from another site', async () => {
    await expect(openStream({ jwt: null })).rejects.toThrow('HTTP 401');
    await expect(openStream({ jwt: 'not-a-token' })).rejects.toThrow('HTTP 401');
    await expect(openStream({ origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    expect(elevenLabs.streams()).toEqual([]);
  });

  it('streams for a signed-in session token as for the anon key', async () => {
    const client = await harness.signedIn(ADMIN.email, ADMIN.password);
    const { data } = await client.auth.getSession();
    const stream = await openStream({ jwt: data.session?.access_token ?? '' });
    await stream.next('ready');
    stream.ws.close(1000);
    await stream.closed;
  });

  it('says so over the socket when no transcriber is configured', async () => {
    Reflect.deleteProperty(env, 'ELEVENLABS_API_KEY');
    const stream = await openStream();
    expect(await stream.closed).toEqual({ code: 4503, reason: catalogue.voiceConfigMissing });
    expect(stream.messages).toEqual([{ type: 'error', error: { message: catalogue.voiceConfigMissing, code: 'not_configured' } }]);
  });

  it('holds one of the client\'s stt slots while it streams: a stream beyond the limit is refused with the guard\'s message', async () => {
    env.STT_CONCURRENT_LIMIT = '1';
    const first = await openStream();
    await first.next('ready');
    const second = await openStream();
    expect(await second.closed).toEqual({ code: 4429, reason: guardMessages.concurrent });
    expect(second.messages).toEqual([{ type: 'error', error: { message: guardMessages.concurrent, code: 'too_many_streams' } }]);
    first.ws.close(1000);
    await first.closed;
    await settledSeconds();
    const third = await openStream();
    await third.next('ready');
    third.ws.close(1000);
    await third.closed;
  });
});

describe('when the transcriber fails', () => {
  it.each([
    ['an error message mid-stream', { failure: 'transcriber_error', failAfterSeconds: 0.4 }],
    ['a dropped connection', { failure: 'drop', failAfterSeconds: 0.4 }],
    ['a refused token', { failure: 'token_http500', failAfterSeconds: 0 }],
    ['a refused connection', { failure: 'refuse', failAfterSeconds: 0 }],
  ] as const)('ends the stream with the processing message after %s, counting what was sent on', async (_case, failure) => {
    Object.assign(elevenLabs.control.streaming, failure);
    const stream = await openStream();
    const pcm = voicedPcm(1, RATE);
    await speak(stream, pcm, 0);
    const { code, reason } = await stream.closed;
    expect({ code, reason }).toEqual({ code: 4502, reason: catalogue.processingFailed });
    expect(stream.messages.at(-1)).toEqual({ type: 'error', error: { message: catalogue.processingFailed, code: 'provider_error' } });
    const heard = elevenLabs.streams()[0]?.audioBytes ?? 0;
    expect(await settledSeconds()).toBe(Math.ceil(heard / BYTES_PER_SECOND));
    expect(JSON.stringify(stream.messages)).not.toContain(ELEVENLABS_KEY);
  });

  it('refuses a message that is neither audio nor a commit', async () => {
    const stream = await openStream();
    stream.ws.send('hello');
    expect((await stream.closed).code).toBe(4400);
  });
});

describe('GET /stt-stream', () => {
  const capability = async () => {
    const response = await fetch(`${harness.url}/functions/v1/stt-stream`);
    expect(response.status).toBe(200);
    return (await response.json()) as unknown;
  };

  it('tells the page whether a transcriber is configured and whether every browser should use it', async () => {
    expect(await capability()).toEqual({ available: true, everyBrowser: false });
    const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
    const { error } = await admin.from('system_settings').update({ voice_input_via_provider: true }).eq('id', true);
    expect(error).toBeNull();
    expect(await capability()).toEqual({ available: true, everyBrowser: true });
    Reflect.deleteProperty(env, 'ELEVENLABS_API_KEY');
    expect(await capability()).toEqual({ available: false, everyBrowser: true });
    await admin.from('system_settings').update({ voice_input_via_provider: false }).eq('id', true);
  });
});
