/**
 * The `stt` edge function on the real local stack over HTTP, with the fake OpenAI and ElevenLabs
 * servers as providers: which provider is asked and how (model, German, the file), the answer,
 * what it accepts (the page's 16 kHz mono PCM WAV, nothing else) and counts (its bytes), every
 * failure, and that no key reaches an answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { clientAt, startHarness, type Harness } from './harness';
import { expectWarnings, SPEND_WARNINGS } from './warnings';
import { emptyWav, encodeWav } from '../../src/lib/wav';

const OPENAI_KEY = 'sk-fake-openai-stt-key-0123456789';
const ELEVENLABS_KEY = 'sk_fake-elevenlabs-stt-key-0123456789';

let openai: FakeOpenAI;
let elevenLabs: FakeElevenLabs;
let harness: Harness;
/** The host hands the function this object's current contents on every request. */
const env: Record<string, string> = {};

/** A real (silent) 16-bit mono WAV of the given length, as the page sends it (16 kHz unless said). */
function wav(seconds: number, sampleRate = 16_000): Uint8Array<ArrayBuffer> {
  return emptyWav(Math.round(seconds * sampleRate), sampleRate).bytes;
}

function stt(body: BodyInit | null, headers: Record<string, string> = {}, from: typeof fetch = fetch): Promise<Response> {
  return from(`${harness.url}/functions/v1/stt`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'audio/wav', ...headers },
    body,
  });
}

/** `first` followed by a chunk of its own: what a WAV with a hidden second chunk looks like. */
function withChunk(first: Uint8Array<ArrayBuffer>, id: string, payload: Uint8Array<ArrayBuffer>, fixSizes: boolean): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(first.length + 8 + payload.length);
  out.set(first);
  const view = new DataView(out.buffer);
  for (let index = 0; index < 4; index += 1) view.setUint8(first.length + index, id.charCodeAt(index));
  view.setUint32(first.length + 4, payload.length, true);
  out.set(payload, first.length + 8);
  if (fixSizes) view.setUint32(4, out.length - 8, true);
  return out;
}

/** A header field changed: the format a WAV declares. */
function patched(file: Uint8Array<ArrayBuffer>, offset: number, value: number, bytes: 2 | 4): Uint8Array<ArrayBuffer> {
  const copy = file.slice();
  const view = new DataView(copy.buffer);
  if (bytes === 2) view.setUint16(offset, value, true);
  else view.setUint32(offset, value, true);
  return copy;
}

const unsupported = {
  error: {
    message: 'Dieses Audioformat wird nicht unterstützt: erwartet wird eine WAV-Datei mit 16 kHz, mono, 16 Bit PCM und einem Datenblock bis zum Ende der Datei.',
    code: 'unsupported_type',
  },
};
const tooLong = { error: { message: 'Die Aufnahme ist zu lang. Bitte fasse dich kürzer (höchstens 60 Sekunden).', code: 'too_large' } };

beforeAll(async () => {
  openai = await startFakeOpenAI({ apiKey: OPENAI_KEY });
  elevenLabs = await startFakeElevenLabs({ apiKey: ELEVENLABS_KEY });
  harness = await startHarness({ functionEnv: env });
});

afterAll(async () => {
  await harness.close();
  await Promise.all([openai.close(), elevenLabs.close()]);
});

beforeEach(() => {
  for (const key of Object.keys(env)) Reflect.deleteProperty(env, key);
  // Every test of this file comes from one address; the per-client budget is guard.test.ts's subject.
  Object.assign(env, { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url, STT_RATE_LIMIT: '1000', CLIENT_BUDGET_PERCENT: '100' });
  openai.reset();
  elevenLabs.reset();
  Object.assign(openai.control.transcription, { delayMs: 0 });
  Object.assign(elevenLabs.control.transcription, { delayMs: 0 });
});

describe('with OpenAI', () => {
  it('transcribes German with gpt-4o-mini-transcribe and answers the text', async () => {
    openai.control.transcription.transcript = 'Wie kann ich besser schlafen?';
    const audio = wav(2.5);
    const response = await stt(audio, { 'x-audio-duration': '2.50' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ text: 'Wie kann ich besser schlafen?' });
    expect(openai.transcriptions()).toEqual([
      {
        provider: 'openai',
        model: 'gpt-4o-mini-transcribe',
        language: 'de',
        fileName: 'utterance.wav',
        fileType: 'audio/wav',
        fileBytes: audio.length,
        wavSeconds: 2.5,
        prompt: null,
        apiKeyMatches: true,
        receivedAt: expect.any(Number) as number,
      },
    ]);
  });

  it('passes the words said before a segment (x-previous-text, URI-encoded) to OpenAI as its prompt', async () => {
    const response = await stt(wav(1.5), { 'x-previous-text': encodeURIComponent('Ich bin müde,') });
    expect(response.status).toBe(200);
    expect(openai.transcriptions().at(-1)).toMatchObject({ prompt: 'Ich bin müde,', wavSeconds: 1.5 });
    // Unreadable context is left out rather than refused.
    await stt(wav(1), { 'x-previous-text': '%E0%A4%A' });
    expect(openai.transcriptions().at(-1)).toMatchObject({ prompt: null });
  });

  it('uses OPENAI_STT_MODEL, and takes the page\'s WAV however its type is written', async () => {
    env.OPENAI_STT_MODEL = 'whisper-1';
    for (const type of ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/wav; codecs=1']) {
      const response = await stt(wav(1), { 'content-type': type });
      expect(response.status, type).toBe(200);
      expect(openai.transcriptions().at(-1)).toMatchObject({ model: 'whisper-1', fileName: 'utterance.wav' });
    }
  });

  it('takes what the page sends: a segment the browser recorded at 48 kHz, encoded as the page encodes it', async () => {
    const samples = new Float32Array(48_000 * 1.2).map((_, index) => 0.3 * Math.sin((2 * Math.PI * 220 * index) / 48_000));
    const response = await stt(encodeWav(samples, 48_000));
    expect(response.status).toBe(200);
    expect(openai.transcriptions().at(-1)).toMatchObject({ wavSeconds: 1.2 });
  });

  it('answers an empty text when nothing was understood', async () => {
    openai.control.transcription.failure = 'empty';
    const response = await stt(wav(1));
    expect(await response.json()).toEqual({ text: '' });
  });

  it.each(['http500', 'http401', 'http400', 'http503-plain'] as const)('answers a provider %s as a processing problem, without the key', async (failure) => {
    openai.control.transcription.failure = failure;
    const response = await stt(wav(1));
    expect(response.status).toBe(502);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: { message: 'Es gab ein Problem bei der Verarbeitung.', code: 'provider_error' } });
    expect(body).not.toContain(OPENAI_KEY);
  });
});

describe('with ElevenLabs only', () => {
  it('falls back to ElevenLabs speech to text when only its key is set', async () => {
    Object.assign(env, { OPENAI_API_KEY: '', ELEVENLABS_API_KEY: ELEVENLABS_KEY, ELEVENLABS_BASE_URL: elevenLabs.url });
    elevenLabs.control.transcription.transcript = 'Ich bin müde.';
    const response = await stt(wav(1));
    expect(await response.json()).toEqual({ text: 'Ich bin müde.' });
    expect(elevenLabs.transcriptions()).toEqual([
      expect.objectContaining({ provider: 'elevenlabs', model: 'scribe_v1', language: 'de', fileType: 'audio/wav', apiKeyMatches: true }),
    ]);
    expect(openai.transcriptions()).toEqual([]);
  });

  it.each(['http500', 'http401', 'http400', 'http503-plain'] as const)('answers an ElevenLabs %s as a processing problem, without the key', async (failure) => {
    Object.assign(env, { OPENAI_API_KEY: '', ELEVENLABS_API_KEY: ELEVENLABS_KEY, ELEVENLABS_BASE_URL: elevenLabs.url });
    elevenLabs.control.transcription.failure = failure;
    const response = await stt(wav(1));
    expect(response.status).toBe(502);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: { message: 'Es gab ein Problem bei der Verarbeitung.', code: 'provider_error' } });
    expect(body).not.toContain(ELEVENLABS_KEY);
    expect(elevenLabs.transcriptions()).toHaveLength(1);
  });
});

describe('limits and refusals', () => {
  it('says whether voice input by the server is available', async () => {
    const get = () => fetch(`${harness.url}/functions/v1/stt`, { headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` } });
    expect(await (await get()).json()).toEqual({ available: true });
    env.OPENAI_API_KEY = '';
    expect(await (await get()).json()).toEqual({ available: false });
  });

  it('says the configuration is missing without any key', async () => {
    env.OPENAI_API_KEY = '';
    const response = await stt(wav(1));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: { message: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.', code: 'not_configured' },
    });
  });

  it('refuses another type, or anything but a 16 kHz mono 16-bit PCM WAV with one data chunk to its end, without asking the provider', async () => {
    const good = wav(1);
    const cases: [string, Uint8Array<ArrayBuffer>, string][] = [
      ['text/plain', good, 'text/plain'],
      ['audio/webm', good, 'audio/webm'],
      ['no header', Uint8Array.from(Buffer.from('<html>Bad Gateway</html>')), 'audio/wav'],
      ['another format (IEEE float)', patched(good, 20, 3, 2), 'audio/wav'],
      ['stereo', patched(good, 22, 2, 2), 'audio/wav'],
      ['44.1 kHz', wav(1, 44_100), 'audio/wav'],
      ['8-bit', patched(good, 34, 8, 2), 'audio/wav'],
      ['a data size that is not the rest of the file', patched(good, 40, 3200, 4), 'audio/wav'],
      ['a RIFF size that is not the file', patched(good, 4, 100, 4), 'audio/wav'],
      // A second data chunk after the first: 0.1 s declared, 30 s hidden behind it (60 s would
      // make the file too large, and be refused as too long before it is read to the end).
      ['a hidden second data chunk', withChunk(wav(0.1), 'data', wav(30).subarray(44), true), 'audio/wav'],
      ['another chunk after the data', withChunk(wav(1), 'LIST', new Uint8Array(64), true), 'audio/wav'],
    ];
    for (const [name, body, type] of cases) {
      const response = await stt(body, { 'content-type': type });
      expect(response.status, name).toBe(415);
      expect(await response.json()).toEqual(unsupported);
    }
    expect(openai.transcriptions()).toEqual([]);
  });

  it('refuses empty audio and more than 60 s, and accepts 60 s, counting the bytes, whatever is declared', async () => {
    const empty = await stt(new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('empty_audio');
    const silent = await stt(wav(0));
    expect(silent.status).toBe(400);
    const long = await stt(wav(60.01), { 'x-audio-duration': '3' });
    expect(long.status).toBe(413);
    expect(await long.json()).toEqual(tooLong);
    expect(openai.transcriptions()).toEqual([]);
    expect((await stt(wav(60), { 'x-audio-duration': '1' })).status).toBe(200);
    expect(openai.transcriptions().map(({ wavSeconds }) => wavSeconds)).toEqual([60]);
  });

  it('limits the requests per client (STT_RATE_LIMIT per minute), whatever X-Forwarded-For the client writes', async () => {
    env.STT_RATE_LIMIT = '2';
    const client = clientAt('127.0.0.9');
    const other = clientAt('127.0.1.10');
    try {
      for (const forged of ['198.51.100.1', '198.51.100.2']) {
        expect((await stt(wav(1), { 'x-forwarded-for': forged }, client.fetch)).status).toBe(200);
      }
      const limited = await stt(wav(1), { 'x-forwarded-for': '198.51.100.3' }, client.fetch);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await stt(wav(1), {}, other.fetch)).status).toBe(200);
    } finally {
      await Promise.all([client.close(), other.close()]);
    }
  });

  it('counts what the provider bills: the seconds in the file, rounded up, nothing for audio it refused', async () => {
    // A stack of its own: the day's spend is shared by every client of a project.
    const fresh = await startHarness({ functionEnv: env });
    const post = (body: Uint8Array<ArrayBuffer>, declared: string) =>
      fetch(`${fresh.url}/functions/v1/stt`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'audio/wav', 'x-audio-duration': declared },
        body,
      });
    // The seconds are settled after the answer (the visitor's words do not wait for it).
    const counted = async () => ((await fresh.service().rpc('usage_today')).data as { sttSeconds: number }).sttSeconds;
    try {
      // A tiny recording that declares a minute counts what it holds (rounded up to a second).
      for (let request = 0; request < 5; request += 1) expect((await post(wav(0.2), '60')).status).toBe(200);
      await expect.poll(counted).toBe(5);
      // Its bytes, not what it declares: 12.5 s and 9.3 s declared as 1 s.
      expect((await post(wav(12.5), '1')).status).toBe(200);
      expect((await post(wav(9.3), '1')).status).toBe(200);
      await expect.poll(counted).toBe(5 + 13 + 10);
      // Refused by the provider: not billed, not counted.
      openai.control.transcription.failure = 'http400';
      expect((await post(wav(20), '20')).status).toBe(502);
      await expect.poll(counted).toBe(28);
      expect(openai.transcriptions()).toHaveLength(8);
    } finally {
      await fresh.close();
    }
  });

  it('reserves the seconds the file holds and stops at the daily cap', async () => {
    const fresh = await startHarness({ functionEnv: { ...env, SPEND_CAP_STT_SECONDS: '100' } });
    const warnings = expectWarnings(SPEND_WARNINGS);
    const post = (body: Uint8Array<ArrayBuffer>) =>
      fetch(`${fresh.url}/functions/v1/stt`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'audio/wav' },
        body,
      });
    try {
      // Each reserves its 30 s: 30, 60 and 90 fit the cap of 100, 30 more do not.
      const counted = async () => ((await fresh.service().rpc('usage_today')).data as { sttSeconds: number }).sttSeconds;
      for (let request = 1; request <= 3; request += 1) {
        expect((await post(wav(30))).status).toBe(200);
        await expect.poll(counted).toBe(30 * request);
      }
      const capped = await post(wav(30));
      expect(capped.status).toBe(503);
      expect(((await capped.json()) as { error: { code: string } }).error.code).toBe('spend_cap_reached');
      // Ten seconds still fit.
      expect((await post(wav(10))).status).toBe(200);
      expect(openai.transcriptions()).toHaveLength(4);
      await expect.poll(counted).toBe(100);
    } finally {
      warnings.restore();
      await fresh.close();
    }
  });

  it('answers a page of another site with 403 before anything is read or spent, like the other functions', async () => {
    Object.assign(env, { ALLOWED_ORIGINS: 'https://www.example.de' });
    const foreign = await stt(wav(1), { origin: 'https://other-site.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${harness.url}/functions/v1/stt`, {
      method: 'OPTIONS',
      headers: { origin: 'https://other-site.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const own = await stt(wav(1), { origin: 'https://www.example.de' });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe('https://www.example.de');
    expect(openai.transcriptions()).toHaveLength(1);
  });

  it('refuses other methods and answers the preflight', async () => {
    const put = await fetch(`${harness.url}/functions/v1/stt`, { method: 'PUT', headers: { authorization: `Bearer ${LOCAL_ANON_KEY}` } });
    expect(put.status).toBe(405);
    const preflight = await fetch(`${harness.url}/functions/v1/stt`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-headers': 'authorization, content-type, x-audio-duration' },
    });
    expect(preflight.status).toBe(204);
    // Granted at once with the first preflight: the later segments' context header too.
    expect(preflight.headers.get('access-control-allow-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'x-audio-duration', 'x-previous-text']),
    );
  });
});
