/**
 * The `stt` edge function on the real local stack over HTTP, with the fake OpenAI and ElevenLabs
 * servers as providers: which provider is asked and how (model, German, the file), the answer,
 * the limits (type, size, length), every failure, and that no key reaches an answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { adtsAac, fragmentedMp4Opus, mp3, mp4Aac, oggOpus, webmOpus } from '../fixtures/audio/containers';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { clientAt, startHarness, type Harness } from './harness';
import { emptyWav } from '../../src/lib/wav';

const OPENAI_KEY = 'sk-fake-openai-stt-key-0123456789';
const ELEVENLABS_KEY = 'sk_fake-elevenlabs-stt-key-0123456789';

let openai: FakeOpenAI;
let elevenLabs: FakeElevenLabs;
let harness: Harness;
/** The host hands the function this object's current contents on every request. */
const env: Record<string, string> = {};

/** A real (silent) 16-bit mono WAV of the given length. */
function wav(seconds: number, sampleRate = 16_000): Uint8Array<ArrayBuffer> {
  return emptyWav(Math.round(seconds * sampleRate), sampleRate).bytes;
}

function stt(body: BodyInit | null, headers: Record<string, string> = {}, from: typeof fetch = fetch): Promise<Response> {
  return from(`${harness.url}/functions/v1/stt`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, ...headers },
    body,
  });
}

/** A body that only begins as its format does (the signature), then junk, padded to `bytes`. */
function file(start: readonly number[] | string, bytes: number): Uint8Array<ArrayBuffer> {
  const audio = new Uint8Array(bytes).fill(7);
  audio.set(typeof start === 'string' ? Uint8Array.from(Buffer.from(start, 'latin1')) : start);
  return audio;
}
/** Real recordings of a known length (tests/fixtures/audio/containers.ts), as the browsers record them. */
const webm = (seconds = 1.5) => webmOpus({ seconds });
const ogg = (seconds = 1.5) => oggOpus({ seconds });
const mp4 = (seconds = 1.5) => mp4Aac({ seconds });
const junkWebm = (bytes: number) => file([0x1a, 0x45, 0xdf, 0xa3], bytes);

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
    const response = await stt(webm(), { 'content-type': 'audio/webm;codecs=opus', 'x-audio-duration': '2.5' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ text: 'Wie kann ich besser schlafen?' });
    expect(openai.transcriptions()).toEqual([
      {
        provider: 'openai',
        model: 'gpt-4o-mini-transcribe',
        language: 'de',
        fileName: 'utterance.webm',
        fileType: 'audio/webm',
        fileBytes: webm().length,
        wavSeconds: null,
        prompt: null,
        apiKeyMatches: true,
        receivedAt: expect.any(Number) as number,
      },
    ]);
  });

  it('passes the words said before a segment (x-previous-text, URI-encoded) to OpenAI as its prompt', async () => {
    const response = await stt(wav(1.5), { 'content-type': 'audio/wav', 'x-previous-text': encodeURIComponent('Ich bin müde,') });
    expect(response.status).toBe(200);
    expect(openai.transcriptions().at(-1)).toMatchObject({ prompt: 'Ich bin müde,', wavSeconds: 1.5 });
    // Unreadable context is left out rather than refused.
    await stt(wav(1), { 'content-type': 'audio/wav', 'x-previous-text': '%E0%A4%A' });
    expect(openai.transcriptions().at(-1)).toMatchObject({ prompt: null });
  });

  it('uses OPENAI_STT_MODEL and takes the usual formats (Safari records MP4, files may be WAV)', async () => {
    env.OPENAI_STT_MODEL = 'whisper-1';
    for (const [type, name] of [
      ['audio/mp4', 'utterance.mp4'],
      ['audio/ogg;codecs=opus', 'utterance.ogg'],
      ['audio/wav', 'utterance.wav'],
    ] as const) {
      const body = { 'audio/mp4': mp4(), 'audio/ogg;codecs=opus': ogg(), 'audio/wav': wav(1) }[type];
      const response = await stt(body, { 'content-type': type });
      expect(response.status).toBe(200);
      expect(openai.transcriptions().at(-1)).toMatchObject({ model: 'whisper-1', fileName: name });
    }
  });

  it('answers an empty text when nothing was understood', async () => {
    openai.control.transcription.failure = 'empty';
    const response = await stt(wav(1), { 'content-type': 'audio/wav' });
    expect(await response.json()).toEqual({ text: '' });
  });

  it.each(['http500', 'http401', 'http400', 'http503-plain'] as const)('answers a provider %s as a processing problem, without the key', async (failure) => {
    openai.control.transcription.failure = failure;
    const response = await stt(webm(), { 'content-type': 'audio/webm' });
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
    const response = await stt(webm(), { 'content-type': 'audio/webm' });
    expect(await response.json()).toEqual({ text: 'Ich bin müde.' });
    expect(elevenLabs.transcriptions()).toEqual([
      expect.objectContaining({ provider: 'elevenlabs', model: 'scribe_v1', language: 'de', fileType: 'audio/webm', apiKeyMatches: true }),
    ]);
    expect(openai.transcriptions()).toEqual([]);
  });

  it.each(['http500', 'http401', 'http400', 'http503-plain'] as const)('answers an ElevenLabs %s as a processing problem, without the key', async (failure) => {
    Object.assign(env, { OPENAI_API_KEY: '', ELEVENLABS_API_KEY: ELEVENLABS_KEY, ELEVENLABS_BASE_URL: elevenLabs.url });
    elevenLabs.control.transcription.failure = failure;
    const response = await stt(webm(), { 'content-type': 'audio/webm' });
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
    const response = await stt(webm(), { 'content-type': 'audio/webm' });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: { message: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.', code: 'not_configured' },
    });
  });

  it('refuses other types, empty audio, more than 10 MB and more than 60 s, without asking the provider', async () => {
    const refused = [
      [await stt(webm(), { 'content-type': 'text/plain' }), 415, 'unsupported_type'],
      [await stt(webm(), { 'content-type': 'video/webm' }), 415, 'unsupported_type'],
      [await stt(new Uint8Array(0), { 'content-type': 'audio/webm' }), 400, 'empty_audio'],
      [await stt(junkWebm(10 * 1024 * 1024 + 1), { 'content-type': 'audio/webm' }), 413, 'too_large'],
      [await stt(webm(), { 'content-type': 'audio/webm', 'x-audio-duration': '61' }), 413, 'too_large'],
    ] as const;
    for (const [response, status, code] of refused) {
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    expect(openai.transcriptions()).toEqual([]);
  });

  it('accepts up to 10 MB and 60 s', async () => {
    // 96 kHz mono WAV: 54 s are just under 10 MB.
    const large = wav(54, 96_000);
    expect(large.length).toBeGreaterThan(10_000_000);
    expect((await stt(large, { 'content-type': 'audio/wav' })).status).toBe(200);
    expect((await stt(wav(60), { 'content-type': 'audio/wav' })).status).toBe(200);
    // Opus at its highest rate (20 ms packets of 1,280 bytes: 512 kbit/s) for 60 s.
    const opus = webmOpus({ seconds: 60, packetBytes: 1280 });
    expect((await stt(opus, { 'content-type': 'audio/webm', 'x-audio-duration': '60' })).status).toBe(200);
    expect(openai.transcriptions().map(({ fileBytes }) => fileBytes)).toEqual([large.length, wav(60).length, opus.length]);
  });

  it('refuses a body that is not what its type says, without asking the provider', async () => {
    for (const [body, type] of [
      [ogg(), 'audio/webm'],
      [webm(), 'audio/ogg'],
      [webm(), 'audio/mp4'],
      [Uint8Array.from(Buffer.from('<html>Bad Gateway</html>')), 'audio/mpeg'],
      [webm(), 'audio/wav'],
      [file('RIFF\0\0\0\0WAVEjunk', 64), 'audio/wav'],
      // Right signature, nothing measurable after it: a length that cannot be bounded is refused.
      [junkWebm(4096), 'audio/webm'],
      [file('OggS', 4096), 'audio/ogg'],
      [file('\0\0\0\x18ftypM4A ', 4096), 'audio/mp4'],
      [file('ADIF', 4096), 'audio/aac'],
    ] as const) {
      const response = await stt(body, { 'content-type': type });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: { message: 'Dieses Audioformat wird nicht unterstützt.', code: 'unsupported_type' } });
    }
    expect(openai.transcriptions()).toEqual([]);
  });

  it('refuses more than 60 s however it is told: a WAV file by its own length, compressed audio by its size', async () => {
    const tooLong = { error: { message: 'Die Aufnahme ist zu lang. Bitte fasse dich kürzer (höchstens 60 Sekunden).', code: 'too_large' } };
    const longWav = await stt(wav(61), { 'content-type': 'audio/wav', 'x-audio-duration': '3' });
    expect(longWav.status).toBe(413);
    expect(await longWav.json()).toEqual(tooLong);
    // 5 MB of Opus is more than 60 s even at 512 kbit/s, whatever the browser declares.
    const bigOpus = await stt(junkWebm(5 * 1024 * 1024), { 'content-type': 'audio/webm', 'x-audio-duration': '10' });
    expect(bigOpus.status).toBe(413);
    expect(await bigOpus.json()).toEqual(tooLong);
    // Low-bit-rate audio is small however long it is: its own packets say how long it plays.
    for (const [body, type] of [
      [webmOpus({ seconds: 61, frameMs: 60, packetBytes: 45 }), 'audio/webm'],
      [webmOpus({ seconds: 600, frameMs: 60, packetBytes: 45 }), 'audio/webm'],
      [webmOpus({ seconds: 90, flatTimestamps: true, declaredSeconds: 5 }), 'audio/webm'],
      [oggOpus({ seconds: 61, frameMs: 60, packetBytes: 45 }), 'audio/ogg'],
      [mp4Aac({ seconds: 61, frameBytes: 40, declaredSeconds: 5 }), 'audio/mp4'],
      [fragmentedMp4Opus({ seconds: 61, packetBytes: 20 }), 'audio/mp4'],
      [adtsAac({ seconds: 61, frameBytes: 40 }), 'audio/aac'],
      [mp3({ seconds: 61, kbps: 32 }), 'audio/mpeg'],
    ] as const) {
      const response = await stt(body, { 'content-type': type, 'x-audio-duration': '5' });
      expect(response.status, `${type} of ${String(body.length)} bytes`).toBe(413);
      expect(await response.json()).toEqual(tooLong);
    }
    const silentWav = await stt(wav(0), { 'content-type': 'audio/wav' });
    expect(silentWav.status).toBe(400);
    expect(((await silentWav.json()) as { error: { code: string } }).error.code).toBe('empty_audio');
    expect(openai.transcriptions()).toEqual([]);
  });

  it('limits the requests per client (STT_RATE_LIMIT per minute), whatever X-Forwarded-For the client writes', async () => {
    env.STT_RATE_LIMIT = '2';
    const client = clientAt('127.0.0.9');
    const other = clientAt('127.0.0.10');
    try {
      for (const forged of ['198.51.100.1', '198.51.100.2']) {
        expect((await stt(webm(), { 'content-type': 'audio/webm', 'x-forwarded-for': forged }, client.fetch)).status).toBe(200);
      }
      const limited = await stt(webm(), { 'content-type': 'audio/webm', 'x-forwarded-for': '198.51.100.3' }, client.fetch);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await stt(webm(), { 'content-type': 'audio/webm' }, other.fetch)).status).toBe(200);
    } finally {
      await Promise.all([client.close(), other.close()]);
    }
  });

  it('counts what the provider bills: the measured seconds, nothing for audio it refused', async () => {
    // A stack of its own: the day's spend is shared by every client of a project.
    const fresh = await startHarness({ functionEnv: env });
    const post = (body: Uint8Array<ArrayBuffer>, type: string, declared: string) =>
      fetch(`${fresh.url}/functions/v1/stt`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': type, 'x-audio-duration': declared },
        body,
      });
    // The seconds are settled after the answer (the visitor's words do not wait for it).
    const counted = async () => ((await fresh.service().rpc('usage_today')).data as { sttSeconds: number }).sttSeconds;
    try {
      // A tiny recording that declares a minute counts what it holds (rounded up to a second).
      for (let request = 0; request < 5; request += 1) expect((await post(webm(0.2), 'audio/webm', '60')).status).toBe(200);
      await expect.poll(counted).toBe(5);
      // Measured, not declared: 12.5 s of Ogg/Opus and 9.3 s of MP4 declared as 1 s.
      expect((await post(ogg(12.5), 'audio/ogg', '1')).status).toBe(200);
      expect((await post(mp4(9.3), 'audio/mp4', '1')).status).toBe(200);
      await expect.poll(counted).toBe(5 + 13 + 10);
      // Refused by the provider: not billed, not counted.
      openai.control.transcription.failure = 'http400';
      expect((await post(webm(20), 'audio/webm', '20')).status).toBe(502);
      await expect.poll(counted).toBe(28);
      expect(openai.transcriptions()).toHaveLength(8);
    } finally {
      await fresh.close();
    }
  });

  it('reserves the longest utterance before reading it and stops at the daily cap', async () => {
    const fresh = await startHarness({ functionEnv: { ...env, SPEND_CAP_STT_SECONDS: '130' } });
    const post = (body: Uint8Array<ArrayBuffer>) =>
      fetch(`${fresh.url}/functions/v1/stt`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'audio/wav' },
        body,
      });
    try {
      // Each utterance reserves 61 s (60 s and the recorder's half second, rounded up) and settles
      // its 30 s, after its answer: 30 + 61, 60 + 61 and 90 + 61 > 130.
      const counted = async () => ((await fresh.service().rpc('usage_today')).data as { sttSeconds: number }).sttSeconds;
      for (let request = 1; request <= 3; request += 1) {
        expect((await post(wav(30))).status).toBe(200);
        await expect.poll(counted).toBe(30 * request);
      }
      const capped = await post(wav(1));
      expect(capped.status).toBe(503);
      expect(((await capped.json()) as { error: { code: string } }).error.code).toBe('spend_cap_reached');
      expect(openai.transcriptions()).toHaveLength(3);
      expect(await counted()).toBe(90);
    } finally {
      await fresh.close();
    }
  });

  it('answers a page of another site with 403 before anything is read or spent, like the other functions', async () => {
    Object.assign(env, { ALLOWED_ORIGINS: 'https://www.example.de' });
    const foreign = await stt(webm(), { 'content-type': 'audio/webm', origin: 'https://other-site.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${harness.url}/functions/v1/stt`, {
      method: 'OPTIONS',
      headers: { origin: 'https://other-site.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const own = await stt(webm(), { 'content-type': 'audio/webm', origin: 'https://www.example.de' });
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
