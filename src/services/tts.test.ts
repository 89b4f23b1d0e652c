import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../config/env';
import { speak } from './speechPlayback';
import { installFetch, installWebAudio, jsonResponse, pcmResponse } from '../../tests/support/browser/browserFakes';
import { openSpeech, TtsError } from './tts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ttsUrl = `${env.VITE_SUPABASE_URL}/functions/v1/tts`;
const available = () => jsonResponse(200, { available: true });

describe('openSpeech', () => {
  it('asks once whether a voice provider exists, then posts the text for PCM with the anon key', async () => {
    const requests = installFetch((request) => (request.method === 'GET' ? available() : pcmResponse({ 'x-playback-rate': '1.25', 'x-pitch': '0.8' })));
    const first = await openSpeech('Hallo,', { cache: true });
    await openSpeech('wie geht es dir?', { previousText: 'Hallo,' });
    expect(requests.map((request) => request.method)).toEqual(['GET', 'POST', 'POST']);
    const [, request, second] = requests;
    expect(request?.url).toBe(ttsUrl);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
    expect(JSON.parse(request?.body ?? '')).toEqual({ text: 'Hallo,', format: 'pcm', cache: true });
    expect(JSON.parse(second?.body ?? '')).toEqual({ text: 'wie geht es dir?', format: 'pcm', previousText: 'Hallo,' });
    expect(first).toMatchObject({ kind: 'pcm', sampleRate: 24_000, playbackRate: 1.25, pitch: 0.8 });
  });

  it('sends unsaved settings with the admin’s token, in the function’s field names', async () => {
    const requests = installFetch(() => pcmResponse());
    await openSpeech('Probe', {
      accessToken: 'admin-token',
      voiceSettings: { stability: 0.3, similarityBoost: 0.7, style: 0.2, useSpeakerBoost: false, speed: 1.5, pitch: 1.2 },
    });
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer admin-token');
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({
      text: 'Probe',
      format: 'pcm',
      voiceSettings: { stability: 0.3, similarity_boost: 0.7, style: 0.2, use_speaker_boost: false, speed: 1.5, pitch: 1.2 },
    });
  });

  it('defaults tempo and pitch to 1 when the headers are missing or nonsense', async () => {
    installFetch(() => pcmResponse({ 'x-playback-rate': 'schnell' }));
    expect(await openSpeech('Hallo')).toMatchObject({ playbackRate: 1, pitch: 1 });
  });

  it('rejects with the function’s catalogue message', async () => {
    installFetch(() =>
      jsonResponse(400, { error: { message: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.', code: 'invalid_text' } }),
    );
    await expect(openSpeech('')).rejects.toEqual(
      expect.objectContaining({ message: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.', code: 'invalid_text', status: 400 }),
    );
  });

  it("speaks with the browser's voice when the day's spend does not cover the text, and asks again next time", async () => {
    const paused = 'Der Live-Test ist für heute pausiert. Bitte versuche es morgen wieder.';
    let post = 0;
    const requests = installFetch((request) => {
      if (request.method === 'GET') return available();
      post += 1;
      if (post === 1) return jsonResponse(429, { error: { message: paused, code: 'budget_exhausted' } });
      if (post === 2) return jsonResponse(503, { error: { message: paused, code: 'spend_cap_reached' } });
      return pcmResponse();
    });
    const settings = { stability: 0.25, similarityBoost: 0.75, style: 0.45, useSpeakerBoost: true, speed: 1.2, pitch: 1.1 };
    expect(await openSpeech('Eins', { voiceSettings: settings })).toEqual({ kind: 'browser', rate: 1.2, pitch: 1.1 });
    expect(await openSpeech('Zwei', { voiceSettings: settings })).toEqual({ kind: 'browser', rate: 1.2, pitch: 1.1 });
    expect(await openSpeech('Drei', { voiceSettings: settings })).toMatchObject({ kind: 'pcm' });
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(3);
  });

  it('rejects with "API-Fehler: {status}" when the body says nothing', async () => {
    installFetch(() => new Response('kaputt', { status: 500 }));
    await expect(openSpeech('Hallo')).rejects.toThrow(new TtsError('API-Fehler: 500', 'error', 500));
  });
});

describe('speak', () => {
  it('plays the stream from its first bytes and resolves when it has been played out', async () => {
    const audio = installWebAudio();
    installFetch(() => pcmResponse({ 'x-playback-rate': '1.5' }, 480));
    const done = speak('Hallo');
    await vi.waitFor(() => expect(audio.pieces[0]?.complete).toBe(true));
    expect(audio.pieces[0]?.samples).toBe(480);
    expect(audio.tempos.at(-1)).toBe(1.5);
    audio.playNext();
    await expect(done).resolves.toBeUndefined();
  });

  it('rejects empty audio with the catalogue message', async () => {
    installWebAudio();
    installFetch(() => new Response(new Uint8Array(0), { status: 200, headers: { 'content-type': 'audio/pcm' } }));
    await expect(speak('Hallo')).rejects.toThrow('Die API hat keine Audio-Daten zurückgegeben.');
  });

  it('says the browser blocked the audio when the context does not start', async () => {
    const audio = installWebAudio();
    audio.suspended = true;
    installFetch(() => pcmResponse());
    await expect(speak('Hallo')).rejects.toMatchObject({ name: 'PlaybackError', reason: 'blocked' });
  });
});

// Last: once the page has learnt that no provider exists, it stops asking for the rest of the visit.
describe('without a voice provider', () => {
  it('uses the browser voice, and asks the function only once', async () => {
    const requests = installFetch((request) =>
      request.method === 'GET'
        ? jsonResponse(200, { available: false })
        : jsonResponse(503, { error: { message: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.', code: 'not_configured' } }),
    );
    const settings = { stability: 0.25, similarityBoost: 0.75, style: 0.45, useSpeakerBoost: true, speed: 1.4, pitch: 0.9 };
    // The first answer of this visit still reaches the function (the question is memoised per page view).
    expect(await openSpeech('Hallo', { voiceSettings: settings })).toEqual({ kind: 'browser', rate: 1.4, pitch: 0.9 });
    expect(await openSpeech('Noch einmal', { voiceSettings: settings })).toEqual({ kind: 'browser', rate: 1.4, pitch: 0.9 });
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
