/**
 * The `stt` edge function on the real local stack over HTTP, with the fake OpenAI and ElevenLabs
 * servers as providers: which provider is asked and how (model, German, the file), the answer,
 * the limits (type, size, length), every failure, and that no key reaches an answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { startFakeElevenLabs, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { clientAt, startHarness, type Harness } from './harness';

const OPENAI_KEY = 'sk-fake-openai-stt-key-0123456789';
const ELEVENLABS_KEY = 'sk_fake-elevenlabs-stt-key-0123456789';

let openai: FakeOpenAI;
let elevenLabs: FakeElevenLabs;
let harness: Harness;
/** The host hands the function this object's current contents on every request. */
const env: Record<string, string> = {};

/** A real (silent) 16-bit mono WAV of the given length. */
function wav(seconds: number, sampleRate = 16_000): Uint8Array<ArrayBuffer> {
  const samples = Math.round(seconds * sampleRate);
  const view = new DataView(new ArrayBuffer(44 + samples * 2));
  const ascii = (offset: number, text: string) => {
    for (let index = 0; index < text.length; index += 1) view.setUint8(offset + index, text.charCodeAt(index));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples * 2, true);
  return new Uint8Array(view.buffer);
}

function stt(body: BodyInit | null, headers: Record<string, string> = {}, from: typeof fetch = fetch): Promise<Response> {
  return from(`${harness.url}/functions/v1/stt`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, ...headers },
    body,
  });
}

/** A body that begins as its format does (the function checks the signature), padded to `bytes`. */
function file(start: readonly number[] | string, bytes: number): Uint8Array<ArrayBuffer> {
  const audio = new Uint8Array(bytes).fill(7);
  audio.set(typeof start === 'string' ? Uint8Array.from(Buffer.from(start, 'latin1')) : start);
  return audio;
}
/** WebM (EBML header), as Chrome's and Firefox's MediaRecorder write it. */
const webm = (bytes = 2048) => file([0x1a, 0x45, 0xdf, 0xa3], bytes);
const ogg = (bytes = 2048) => file('OggS', bytes);
/** MP4 (an `ftyp` box first), as Safari's MediaRecorder writes it. */
const mp4 = (bytes = 2048) => file('\0\0\0\x18ftypM4A ', bytes);

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
  Object.assign(env, { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url, STT_RATE_LIMIT: '1000' });
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
        fileBytes: 2048,
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
      [await stt(webm(10 * 1024 * 1024 + 1), { 'content-type': 'audio/webm' }), 413, 'too_large'],
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
    // Opus at its highest rate (512 kbit/s) for 60 s, with container overhead.
    const opus = webm(Math.ceil(((60 * 512_000) / 8) * 1.1) + 64 * 1024);
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
    const bigOpus = await stt(webm(5 * 1024 * 1024), { 'content-type': 'audio/webm', 'x-audio-duration': '10' });
    expect(bigOpus.status).toBe(413);
    expect(await bigOpus.json()).toEqual(tooLong);
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

  it('counts the seconds transcribed against the daily cap, and stops at it', async () => {
    // A stack of its own: the day's spend is shared by every client of a project.
    const fresh = await startHarness({ functionEnv: { ...env, SPEND_CAP_STT_SECONDS: '45' } });
    const post = (body: Uint8Array<ArrayBuffer>) =>
      fetch(`${fresh.url}/functions/v1/stt`, {
        method: 'POST',
        headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}`, 'content-type': 'audio/wav' },
        body,
      });
    try {
      // 30 s, then 30 s more (the cap is checked before, counted after), then refused.
      expect((await post(wav(30))).status).toBe(200);
      expect((await post(wav(30))).status).toBe(200);
      const capped = await post(wav(1));
      expect(capped.status).toBe(503);
      expect(((await capped.json()) as { error: { code: string } }).error.code).toBe('spend_cap_reached');
      expect(openai.transcriptions()).toHaveLength(2);
    } finally {
      await fresh.close();
    }
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
