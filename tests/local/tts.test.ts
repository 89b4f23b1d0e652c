/**
 * The `tts` edge function on the real local stack over HTTP, with the fake ElevenLabs server as
 * the provider (ELEVENLABS_BASE_URL points at it): the provider request, the voice settings and
 * who may override them, the audio passing through, every catalogue message, the greeting cache
 * and its clearing, and the per-client rate limit.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { persona } from '../../supabase/functions/_shared/persona';
import { TTS_CACHE_MAX_ENTRIES } from '../../supabase/functions/_shared/ttsCachePolicy';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { audioFor, startFakeElevenLabs, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { ADMIN, clientAt, startHarness, type Harness } from './harness';

const VOICE_ID = 'voice-Mia_01';
const API_KEY = 'sk_fake-elevenlabs-key-0123456789abcdef';
const DEFAULT_VOICE = { stability: 0.25, similarity_boost: 0.75, style: 0.45, use_speaker_boost: true, speed: 1, pitch: 1 };
const MESSAGES = {
  invalidText: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.',
  notConfigured: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.',
  emptyAudio: 'Die API hat keine Audio-Daten zurückgegeben.',
  rateLimited: 'Zu viele Anfragen. Bitte warte einen Moment.',
};

let fake: FakeElevenLabs;
let harness: Harness;
/**
 * A stack without provider secrets and with two requests a minute per client. The host hands the
 * function this object's current contents on every request, so a test can set a secret on it, as
 * `supabase secrets set` does for a deployed function (one stack start saved).
 */
const unconfiguredEnv: Record<string, string> = { TTS_RATE_LIMIT: '2' };
let unconfigured: Harness;
let adminToken: string;
let memberToken: string;

async function accessToken(client: Awaited<ReturnType<Harness['signedIn']>>): Promise<string> {
  const { data } = await client.auth.getSession();
  return data.session?.access_token ?? '';
}

interface CallOptions {
  token?: string;
  /** The client's own address (127.0.0.x), as the functions see it. */
  from?: typeof fetch;
  target?: Harness;
}

function tts(body: unknown, { token = LOCAL_ANON_KEY, from = fetch, target = harness }: CallOptions = {}): Promise<Response> {
  return from(`${target.url}/functions/v1/tts`, {
    method: 'POST',
    headers: {
      apikey: LOCAL_ANON_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function expectError(response: Response, status: number, message: string, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(await response.json()).toEqual({ error: { message, code } });
}

const bytes = async (response: Response) => new Uint8Array(await response.arrayBuffer());

async function setActiveVoice(settings: Partial<typeof DEFAULT_VOICE>): Promise<void> {
  const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
  const { error } = await admin.from('voice_configs').update(settings).eq('is_active', true);
  expect(error).toBeNull();
}

function clearCache(): Promise<Response> {
  return fetch(`${harness.url}/functions/v1/system-settings/clear-tts-cache`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${adminToken}` },
  });
}

beforeAll(async () => {
  fake = await startFakeElevenLabs({ apiKey: API_KEY });
  // The tests of this file all come from one address; the per-client budget is guard.test.ts's subject.
  const provider = { ELEVENLABS_API_KEY: API_KEY, ELEVENLABS_VOICE_ID: VOICE_ID, ELEVENLABS_BASE_URL: fake.url, CLIENT_BUDGET_PERCENT: '100' };
  harness = await startHarness({ functionEnv: provider });
  unconfigured = await startHarness({ functionEnv: unconfiguredEnv });
  adminToken = await accessToken(await harness.signedIn(ADMIN.email, ADMIN.password));
  memberToken = await accessToken(await harness.user('member@example.com'));
});

afterAll(async () => {
  await Promise.all([harness.close(), unconfigured.close()]);
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

describe('the provider request and the audio', () => {
  it('asks ElevenLabs for streamed MP3 with the active voice settings and passes the audio through', async () => {
    const text = 'Hallo, schön, dass du da bist.';
    const response = await tts({ text: `  ${text}\n` });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('x-playback-rate')).toBe('1');
    expect(response.headers.get('x-pitch')).toBe('1');
    expect(response.headers.get('x-tts-cache')).toBeNull();
    expect(response.headers.get('access-control-expose-headers')).toContain('x-playback-rate');
    const audio = await bytes(response);
    expect(audio).toEqual(audioFor(text));
    expect([...audio.subarray(0, 4)]).toEqual([0xff, 0xfb, 0x90, 0x64]);

    expect(fake.requests()).toEqual([
      {
        method: 'POST',
        path: `/v1/text-to-speech/${VOICE_ID}/stream`,
        voiceId: VOICE_ID,
        streaming: true,
        query: { output_format: 'mp3_44100_128' },
        accept: 'audio/mpeg',
        contentType: 'application/json',
        hasApiKey: true,
        apiKeyMatches: true,
        body: {
          text,
          model_id: 'eleven_multilingual_v2',
          voice_settings: { stability: 0.25, similarity_boost: 0.75, style: 0.45, use_speaker_boost: true, speed: 1 },
        },
      },
    ]);
  });

  it('streams raw 24 kHz PCM for the live coach, in pieces as it arrives', async () => {
    const text = 'Atme ruhig ein, und dann langsam wieder aus.';
    const response = await tts({ text, format: 'pcm' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    expect(response.headers.get('x-sample-rate')).toBe('24000');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-sample-rate');
    const reader = response.body?.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      chunks.push(next.value);
    }
    // A paced provider stream passes through as it arrives, not as one piece at the end.
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(audioFor(text, { durationSeconds: null }, 'pcm_24000')));
    expect(fake.requests()[0]).toMatchObject({ query: { output_format: 'pcm_24000' }, accept: 'audio/pcm' });
  });

  it('sends the text spoken before as previous_text, so the pieces of an answer sound as one', async () => {
    const previousText = 'Das klingt nach einem vollen Tag,';
    const response = await tts({ text: 'und das ist ganz normal.', format: 'pcm', previousText, cache: true });
    expect(response.status).toBe(200);
    // A piece of an answer is never served from or put into the cache.
    expect(response.headers.get('x-tts-cache')).toBeNull();
    expect(fake.requests()[0]?.body).toEqual({
      text: 'und das ist ganz normal.',
      model_id: 'eleven_multilingual_v2',
      voice_settings: { stability: 0.25, similarity_boost: 0.75, style: 0.45, use_speaker_boost: true, speed: 1 },
      previous_text: previousText,
    });
  });

  it('asks for German (language_code) only with a model that enforces a language', async () => {
    // The stack hands its functions the environment as it is at each request.
    const env = harness.stack.config.functionEnv;
    env.ELEVENLABS_MODEL = 'eleven_flash_v2_5';
    try {
      const response = await tts({ text: 'Am 3.10. um 14:30 Uhr.' });
      expect(response.status).toBe(200);
      expect(fake.requests()[0]?.body).toMatchObject({ model_id: 'eleven_flash_v2_5', language_code: 'de' });
    } finally {
      Reflect.deleteProperty(env, 'ELEVENLABS_MODEL');
    }
    // The default model would refuse the parameter (as ElevenLabs does), so it is not sent.
    await tts({ text: 'Am 3.10. um 14:30 Uhr.' });
    expect(fake.requests()[1]?.body).not.toHaveProperty('language_code');
  });

  it('tells the page once whether a voice provider is configured', async () => {
    const get = (target: Harness) =>
      fetch(`${target.url}/functions/v1/tts`, { headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` } });
    const configured = await get(harness);
    expect(configured.status).toBe(200);
    expect(await configured.json()).toEqual({ available: true });
    expect(await (await get(unconfigured)).json()).toEqual({ available: false });
    expect(fake.requests()).toEqual([]);
  });

  it('never puts the provider key into an answer', async () => {
    const response = await tts({ text: 'Kurz.' });
    expect([...response.headers.values()].join('\n')).not.toContain(API_KEY);
    fake.control.failure = 'http401';
    vi.mocked(console.error).mockImplementationOnce(() => undefined);
    const failed = await tts({ text: 'Kurz.' });
    expect(await failed.text()).not.toContain(API_KEY);
  });
});

describe('voice settings', () => {
  afterEach(async () => {
    await setActiveVoice(DEFAULT_VOICE);
  });

  it('uses the saved settings; the speed ElevenLabs cannot do and the pitch go to the browser', async () => {
    await setActiveVoice({ stability: 0.6, similarity_boost: 0.8, style: 0.1, use_speaker_boost: false, speed: 1.5, pitch: 1.3 });
    const fast = await tts({ text: 'Schneller.' });
    expect(fast.status).toBe(200);
    expect(fake.requests()[0]?.body).toMatchObject({
      voice_settings: { stability: 0.6, similarity_boost: 0.8, style: 0.1, use_speaker_boost: false, speed: 1.2 },
    });
    expect(Number(fast.headers.get('x-playback-rate'))).toBeCloseTo(1.5 / 1.2, 4);
    expect(fast.headers.get('x-pitch')).toBe('1.3');

    await setActiveVoice({ speed: 0.5, pitch: 0.8 });
    const slow = await tts({ text: 'Langsamer.' });
    expect(fake.requests()[1]?.body).toMatchObject({ voice_settings: { speed: 0.7 } });
    expect(Number(slow.headers.get('x-playback-rate'))).toBeCloseTo(0.5 / 0.7, 4);
    expect(slow.headers.get('x-pitch')).toBe('0.8');

    await setActiveVoice({ speed: 0.9 });
    const within = await tts({ text: 'Normal.' });
    expect(fake.requests()[2]?.body).toMatchObject({ voice_settings: { speed: 0.9 } });
    expect(within.headers.get('x-playback-rate')).toBe('1');
  });

  const sample = { stability: 0.1, similarity_boost: 0.2, style: 0.3, use_speaker_boost: false, speed: 2, pitch: 0.5 };

  it("honours an admin's unsaved slider values (Probehören)", async () => {
    const response = await tts({ text: 'Probehören.', voiceSettings: sample }, { token: adminToken });
    expect(response.status).toBe(200);
    expect(fake.requests()[0]?.body).toMatchObject({
      voice_settings: { stability: 0.1, similarity_boost: 0.2, style: 0.3, use_speaker_boost: false, speed: 1.2 },
    });
    expect(Number(response.headers.get('x-playback-rate'))).toBeCloseTo(2 / 1.2, 4);
    expect(response.headers.get('x-pitch')).toBe('0.5');
  });

  it("ignores a visitor's or a non-admin's override, even one out of bounds", async () => {
    for (const [token, voiceSettings] of [
      [LOCAL_ANON_KEY, sample],
      [memberToken, sample],
      [LOCAL_ANON_KEY, { ...sample, stability: 7 }],
    ] as const) {
      fake.reset();
      const response = await tts({ text: 'Überschrieben?', voiceSettings }, { token });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-pitch')).toBe('1');
      expect(fake.requests()[0]?.body).toMatchObject({
        voice_settings: { stability: 0.25, similarity_boost: 0.75, style: 0.45, use_speaker_boost: true, speed: 1 },
      });
    }
  });

  it('refuses an admin override outside the slider bounds, without calling the provider', async () => {
    for (const voiceSettings of [
      { ...sample, stability: 1.5 },
      { ...sample, speed: 0.4 },
      { ...sample, pitch: 2.1 },
      { ...sample, use_speaker_boost: 'yes' },
      { stability: 0.5 },
    ]) {
      const response = await tts({ text: 'Ungültig.', voiceSettings }, { token: adminToken });
      await expectError(response, 400, 'Ungültige Stimmeinstellungen.', 'invalid_voice_settings');
    }
    expect(fake.requests()).toEqual([]);
  });
});

describe('the error catalogue', () => {
  it('refuses empty, blank, missing and over-long text', async () => {
    for (const body of [{ text: '' }, { text: '   \n\t ' }, {}, { text: 42 }, 'not json', { text: 'a'.repeat(5001) }]) {
      await expectError(await tts(body), 400, MESSAGES.invalidText, 'invalid_text');
    }
    expect(fake.requests()).toEqual([]);
  });

  it('accepts exactly 5,000 characters', async () => {
    fake.control.durationSeconds = 0.5;
    const response = await tts({ text: 'a'.repeat(5000) });
    expect(response.status).toBe(200);
    expect((await bytes(response)).length).toBeGreaterThan(0);
  });

  it('says the configuration is missing without a key or without a voice id', async () => {
    const client = clientAt('127.0.0.6');
    const call = () => tts({ text: 'Hallo.' }, { target: unconfigured, from: client.fetch });
    await expectError(await call(), 503, MESSAGES.notConfigured, 'not_configured');
    Object.assign(unconfiguredEnv, { ELEVENLABS_API_KEY: API_KEY, ELEVENLABS_BASE_URL: fake.url });
    try {
      await expectError(await call(), 503, MESSAGES.notConfigured, 'not_configured');
    } finally {
      delete unconfiguredEnv.ELEVENLABS_API_KEY;
      delete unconfiguredEnv.ELEVENLABS_BASE_URL;
      await client.close();
    }
    expect(fake.requests()).toEqual([]);
  });

  it.each([
    ['http500', 500, 'Voice synthesis failed'],
    ['http401', 401, 'Invalid API key'],
    ['http422-detail-string', 422, 'Invalid voice settings'],
    ['http503-plain', 503, 'Service Unavailable'],
  ] as const)('answers a provider %s with the catalogue text only and logs what the provider said', async (failure, status, said) => {
    fake.control.failure = failure;
    const logged = vi.mocked(console.error).mockImplementationOnce(() => undefined);
    // What ElevenLabs says (its plan, the credits left) is for the operator's log, not for visitors.
    await expectError(await tts({ text: 'Fehler?' }), 502, `API-Fehler: ${String(status)}`, 'provider_error');
    expect(logged).toHaveBeenCalledWith(`[tts] ElevenLabs answered ${String(status)}: ${said}`);
  });

  it('answers a provider 200 without audio as empty audio', async () => {
    fake.control.failure = 'empty';
    await expectError(await tts({ text: 'Stille.' }), 502, MESSAGES.emptyAudio, 'empty_audio');
  });

  it('answers the preflight and refuses other methods', async () => {
    const preflight = await fetch(`${harness.url}/functions/v1/tts`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')?.split(', ')).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    const put = await fetch(`${harness.url}/functions/v1/tts`, {
      method: 'PUT',
      headers: { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` },
    });
    expect(put.status).toBe(405);
  });
});

describe('the greeting cache', () => {
  const greeting = persona.greeting;

  // A second of audio per synthesis (arriving over a third of a second): what is cached, not how
  // long it is, is tested here. fake.reset() puts the length back before every test.
  beforeEach(() => {
    fake.control.durationSeconds = 1;
  });

  async function cachedObjects(): Promise<string[]> {
    const { data, error } = await harness.service().storage.from('tts-cache').list();
    expect(error).toBeNull();
    return (data ?? []).map((entry) => entry.name);
  }

  it('synthesises once, then serves the stored audio; clearing the cache synthesises again', async () => {
    const first = await tts({ text: greeting, cache: true });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-tts-cache')).toBe('miss');
    const audio = await bytes(first);
    expect(audio).toEqual(audioFor(greeting, fake.control));
    expect(fake.requests()).toHaveLength(1);
    const stored = await cachedObjects();
    expect(stored).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.mp3$/) as string]);

    const second = await tts({ text: greeting, cache: true });
    expect(second.headers.get('x-tts-cache')).toBe('hit');
    expect(second.headers.get('content-type')).toBe('audio/mpeg');
    expect(second.headers.get('x-playback-rate')).toBe('1');
    expect(await bytes(second)).toEqual(audio);
    expect(fake.requests()).toHaveLength(1);

    // The bucket is private and has no policies: not even an admin reads it directly.
    const admin = await harness.signedIn(ADMIN.email, ADMIN.password);
    const direct = await admin.storage.from('tts-cache').download(stored[0] ?? '');
    expect(direct.data).toBeNull();

    const cleared = await clearCache();
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toEqual({ removed: 1 });
    expect(await cachedObjects()).toEqual([]);

    const third = await tts({ text: greeting, cache: true });
    expect(third.headers.get('x-tts-cache')).toBe('miss');
    expect(await bytes(third)).toEqual(audio);
    expect(fake.requests()).toHaveLength(2);
  });

  it('streams a greeting that is not cached yet while it is being stored, and stores it once complete', async () => {
    await clearCache();
    // Three seconds of audio, arriving over one second.
    fake.control.durationSeconds = 3;
    try {
      const response = await tts({ text: greeting, cache: true, format: 'pcm' });
      expect(response.headers.get('x-tts-cache')).toBe('miss');
      const reader = response.body?.getReader();
      const first = await reader?.read();
      expect(first?.value?.length).toBeGreaterThan(0);
      // The first bytes are here, the synthesis is not complete: nothing is stored yet.
      expect(await cachedObjects()).toEqual([]);
      let received = first?.value?.length ?? 0;
      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) break;
        received += next.value.length;
      }
      expect(received).toBe(audioFor(greeting, fake.control, 'pcm_24000').length);
      expect(await cachedObjects()).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.pcm$/) as string]);
      const hit = await tts({ text: greeting, cache: true, format: 'pcm' });
      expect(hit.headers.get('x-tts-cache')).toBe('hit');
      expect((await bytes(hit)).length).toBe(received);
    } finally {
      fake.control.durationSeconds = 1;
    }
  });

  it('stores the whole greeting, and no piece of it, when its listener went away after the first bytes', async () => {
    await clearCache();
    // Three seconds of audio, arriving over one second: the listener leaves long before the end.
    fake.control.durationSeconds = 3;
    try {
      const whole = audioFor(greeting, fake.control, 'pcm_24000').length;
      const response = await tts({ text: greeting, cache: true, format: 'pcm' });
      expect(response.headers.get('x-tts-cache')).toBe('miss');
      const reader = response.body?.getReader();
      expect((await reader?.read())?.value?.length).toBeGreaterThan(0);
      await reader?.cancel();
      // The take is paid for: the function reads the rest in the background and stores it whole.
      await vi.waitFor(
        async () => {
          const { data } = await harness.service().storage.from('tts-cache').list();
          expect((data ?? []).map((entry) => (entry.metadata as { size?: number } | null)?.size)).toEqual([whole]);
        },
        { timeout: 5_000, interval: 100 },
      );
      const next = await tts({ text: greeting, cache: true, format: 'pcm' });
      expect(next.headers.get('x-tts-cache')).toBe('hit');
      expect((await bytes(next)).length).toBe(whole);
      expect(fake.requests()).toHaveLength(1);
    } finally {
      fake.control.durationSeconds = 1;
    }
  });

  it('caches the PCM take of the greeting apart from the MP3 one', async () => {
    await clearCache();
    const first = await tts({ text: greeting, cache: true, format: 'pcm' });
    expect(first.headers.get('x-tts-cache')).toBe('miss');
    const audio = await bytes(first);
    const second = await tts({ text: greeting, cache: true, format: 'pcm' });
    expect(second.headers.get('x-tts-cache')).toBe('hit');
    expect(second.headers.get('content-type')).toBe('audio/pcm');
    expect(second.headers.get('x-sample-rate')).toBe('24000');
    expect(await bytes(second)).toEqual(audio);
    expect(await cachedObjects()).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.pcm$/) as string]);
    const mp3 = await tts({ text: greeting, cache: true });
    expect(mp3.headers.get('x-tts-cache')).toBe('miss');
    // A take is stored when its stream has been sent to the end.
    await bytes(mp3);
    expect(fake.requests()).toHaveLength(2);
  });

  it('keys the cache by the voice settings, never caches an admin sample or a failure', async () => {
    await clearCache();
    await setActiveVoice({ stability: 0.9 });
    try {
      const changed = await tts({ text: greeting, cache: true });
      expect(changed.headers.get('x-tts-cache')).toBe('miss');
      await bytes(changed);
    } finally {
      await setActiveVoice(DEFAULT_VOICE);
    }
    const sample = { ...DEFAULT_VOICE, pitch: 1.5 };
    const override = await tts({ text: greeting, cache: true, voiceSettings: sample }, { token: adminToken });
    expect(override.status).toBe(200);
    expect(override.headers.get('x-tts-cache')).toBeNull();

    fake.control.failure = 'http500';
    vi.mocked(console.error).mockImplementationOnce(() => undefined);
    const failed = await tts({ text: greeting, cache: true, format: 'pcm' });
    expect(failed.status).toBe(502);
    expect(await cachedObjects()).toHaveLength(1);
    expect(fake.requests()).toHaveLength(3);
  });

  it('stores no text but the greeting, whoever asks for caching', async () => {
    await clearCache();
    for (const text of ['Irgendein Text, den jemand speichern möchte.', `${greeting} Und noch etwas.`]) {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await tts({ text, cache: true });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-tts-cache')).toBeNull();
        await bytes(response);
      }
    }
    expect(fake.requests()).toHaveLength(4);
    expect(await cachedObjects()).toEqual([]);
  });

  it('keeps only the newest entries and none older than the retention period', async () => {
    await clearCache();
    const bucket = harness.service().storage.from('tts-cache');
    // Takes of earlier voices, as they pile up when the voice changes.
    const old = Array.from({ length: TTS_CACHE_MAX_ENTRIES + 5 }, (_, index) => `${String(index).padStart(64, '0')}.mp3`);
    for (const name of old) {
      const { error } = await bucket.upload(name, new Uint8Array([1, 2, 3]), { contentType: 'audio/mpeg' });
      expect(error).toBeNull();
    }
    // One of them written 31 days ago (the stack's own database holds the object rows).
    await harness.stack.db.query(`update storage.objects set created_at = now() - interval '31 days' where bucket_id = 'tts-cache' and name = $1`, [old.at(-1)]);

    const fresh = await tts({ text: greeting, cache: true });
    expect(fresh.headers.get('x-tts-cache')).toBe('miss');
    await bytes(fresh);
    const kept = await cachedObjects();
    expect(kept).toHaveLength(TTS_CACHE_MAX_ENTRIES);
    expect(kept).not.toContain(old.at(-1));
    // The oldest by creation go first; the greeting just stored stays.
    expect(kept).not.toContain(old[0]);
    const second = await tts({ text: greeting, cache: true });
    expect(second.headers.get('x-tts-cache')).toBe('hit');
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a client exceeds TTS_RATE_LIMIT per minute, per client', async () => {
    const client = clientAt('127.0.0.7');
    const other = clientAt('127.0.0.8');
    for (let request = 0; request < 2; request += 1) {
      expect((await tts({ text: 'Hallo.' }, { target: unconfigured, from: client.fetch })).status).toBe(503);
    }
    const limited = await tts({ text: 'Hallo.' }, { target: unconfigured, from: client.fetch });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(limited, 429, MESSAGES.rateLimited, 'rate_limited');

    const otherClient = await tts({ text: 'Hallo.' }, { target: unconfigured, from: other.fetch });
    expect(otherClient.status).toBe(503);
    await Promise.all([client.close(), other.close()]);
  });
});
