import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../config/env';
import { serverTranscriptionAvailable, transcribeSpeech } from './speechToText';
import { installFetch, jsonResponse } from '../../tests/support/browser/browserFakes';

const sttUrl = `${env.VITE_SUPABASE_URL}/functions/v1/stt`;
/** 1.5 s at the page's 24 kHz. */
const segment = () => new Float32Array(36_000).map((_, index) => 0.1 * Math.sin(index / 10));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('transcribeSpeech', () => {
  it('sends the segment to the stt function as a 16 kHz WAV with its exact length and the words before it', async () => {
    const requests = installFetch(() => jsonResponse(200, { text: ' Ich bin gestresst. ' }));
    await expect(transcribeSpeech(segment(), 24_000, { previousText: 'Grüß dich, Mia.' })).resolves.toBe('Ich bin gestresst.');
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe(sttUrl);
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
    expect(request?.headers.get('content-type')).toBe('audio/wav');
    expect(request?.headers.get('x-audio-duration')).toBe('1.50');
    expect(decodeURIComponent(request?.headers.get('x-previous-text') ?? '')).toBe('Grüß dich, Mia.');
    // A WAV file (its length is read from its header by the function).
    expect(request?.body.slice(0, 4)).toBe('RIFF');
    expect(request?.body.slice(8, 12)).toBe('WAVE');
  });

  it('sends no context for the first segment', async () => {
    const requests = installFetch(() => jsonResponse(200, { text: 'Hallo' }));
    await transcribeSpeech(segment(), 24_000);
    expect(requests[0]?.headers.get('x-previous-text')).toBeNull();
  });

  it.each([
    [503, 'not_configured', 'unsupported'],
    [400, 'empty_audio', 'noSpeech'],
    [502, 'provider_error', 'failed'],
    [429, 'rate_limited', 'failed'],
  ] as const)('maps a %s %s to the recognition problem %s', async (status, code, problem) => {
    installFetch(() => jsonResponse(status, { error: { message: 'x', code } }));
    await expect(transcribeSpeech(segment(), 24_000)).rejects.toMatchObject({ name: 'SpeechRecognitionError', problem });
  });
});

describe('serverTranscriptionAvailable', () => {
  it('asks the function once per page view', async () => {
    const requests = installFetch(() => jsonResponse(200, { available: true }));
    expect(await serverTranscriptionAvailable()).toBe(true);
    expect(await serverTranscriptionAvailable()).toBe(true);
    expect(requests.map((request) => request.method)).toEqual(['GET']);
  });
});
