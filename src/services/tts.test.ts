import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../config/env';
import { fetchSpeech, speak, TtsError } from './tts';
import { audioResponse, installAudio, installFetch, jsonResponse } from './testing/browserFakes';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ttsUrl = `${env.VITE_SUPABASE_URL}/functions/v1/tts`;

describe('fetchSpeech', () => {
  it('posts the text to the tts function with the anon key and reads tempo and pitch', async () => {
    const requests = installFetch(() => audioResponse({ 'x-playback-rate': '1.25', 'x-pitch': '0.8' }));
    const audio = await fetchSpeech('Hallo.', { cache: true });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe(ttsUrl);
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
    expect(JSON.parse(request?.body ?? '')).toEqual({ text: 'Hallo.', cache: true });
    expect(audio).toMatchObject({ kind: 'audio', playbackRate: 1.25, pitch: 0.8 });
    expect(audio.kind === 'audio' && audio.blob.size).toBeGreaterThan(0);
  });

  it('sends unsaved settings with the admin’s token, in the function’s field names', async () => {
    const requests = installFetch(() => audioResponse());
    await fetchSpeech('Probe', {
      accessToken: 'admin-token',
      voiceSettings: { stability: 0.3, similarityBoost: 0.7, style: 0.2, useSpeakerBoost: false, speed: 1.5, pitch: 1.2 },
    });
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer admin-token');
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual({
      text: 'Probe',
      voiceSettings: { stability: 0.3, similarity_boost: 0.7, style: 0.2, use_speaker_boost: false, speed: 1.5, pitch: 1.2 },
    });
  });

  it('defaults tempo and pitch to 1 when the headers are missing or nonsense', async () => {
    installFetch(() => audioResponse({ 'x-playback-rate': 'schnell' }));
    expect(await fetchSpeech('Hallo')).toMatchObject({ playbackRate: 1, pitch: 1 });
  });

  it('falls back to the browser voice when no provider is configured', async () => {
    installFetch(() =>
      jsonResponse(503, { error: { message: 'API-Konfiguration fehlt. Bitte kontaktieren Sie den Support.', code: 'not_configured' } }),
    );
    expect(
      await fetchSpeech('Hallo', {
        voiceSettings: { stability: 0.25, similarityBoost: 0.75, style: 0.45, useSpeakerBoost: true, speed: 1.4, pitch: 0.9 },
      }),
    ).toEqual({ kind: 'browser', rate: 1.4, pitch: 0.9 });
  });

  it('rejects with the function’s catalogue message', async () => {
    installFetch(() =>
      jsonResponse(400, { error: { message: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.', code: 'invalid_text' } }),
    );
    await expect(fetchSpeech('')).rejects.toEqual(
      expect.objectContaining({ message: 'Der Text ist zu lang oder ungültig für die Sprachausgabe.', code: 'invalid_text', status: 400 }),
    );
  });

  it('rejects with "API-Fehler: {status}" when the body says nothing', async () => {
    installFetch(() => new Response('kaputt', { status: 500 }));
    await expect(fetchSpeech('Hallo')).rejects.toThrow(new TtsError('API-Fehler: 500', 'error', 500));
  });

  it('rejects empty audio', async () => {
    installFetch(() => new Response(new Uint8Array(0), { status: 200, headers: { 'content-type': 'audio/mpeg' } }));
    await expect(fetchSpeech('Hallo')).rejects.toThrow('Die API hat keine Audio-Daten zurückgegeben.');
  });
});

describe('speak', () => {
  it('fetches and plays, resolving when the audio has ended', async () => {
    const audio = installAudio();
    audio.autoEnd = true;
    installFetch(() => audioResponse({ 'x-playback-rate': '1.5' }));
    try {
      await speak('Hallo');
      expect(audio.played).toHaveLength(1);
      expect(audio.played[0]?.playbackRate).toBe(1.5);
      expect(audio.played[0]?.preservesPitch).toBe(true);
    } finally {
      audio.restore();
    }
  });
});
