import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { env } from '../config/env';
import { recordUtterance, serverTranscriptionAvailable } from './speechToText';
import { FakeMediaRecorder, installFetch, installMediaRecorder, jsonResponse } from './testing/browserFakes';

const stream = {} as MediaStream;
const sttUrl = `${env.VITE_SUPABASE_URL}/functions/v1/stt`;

beforeEach(() => {
  installMediaRecorder();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('recordUtterance', () => {
  it('records with a type the browser supports and sends it to the stt function on stop', async () => {
    const requests = installFetch(() => jsonResponse(200, { text: ' Ich bin gestresst. ' }));
    const clock = vi.spyOn(performance, 'now').mockReturnValue(10_000);
    const utterance = recordUtterance(stream);
    const [recorder] = FakeMediaRecorder.instances;
    expect(recorder?.mimeType).toBe('audio/webm;codecs=opus');
    expect(recorder?.state).toBe('recording');
    // 1.5 s of recording.
    clock.mockReturnValue(11_500);
    utterance.stop();
    await expect(utterance.transcript).resolves.toBe('Ich bin gestresst.');
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe(sttUrl);
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('authorization')).toBe(`Bearer ${env.VITE_SUPABASE_ANON_KEY}`);
    expect(request?.headers.get('content-type')).toBe('audio/webm;codecs=opus');
    expect(request?.headers.get('x-audio-duration')).toBe('1.5');
    expect(request?.body.length).toBeGreaterThan(0);
  });

  it.each([
    [503, 'not_configured', 'unsupported'],
    [400, 'empty_audio', 'noSpeech'],
    [502, 'provider_error', 'failed'],
    [429, 'rate_limited', 'failed'],
  ] as const)('maps a %s %s to the recognition problem %s', async (status, code, problem) => {
    installFetch(() => jsonResponse(status, { error: { message: 'x', code } }));
    const utterance = recordUtterance(stream);
    utterance.stop();
    await expect(utterance.transcript).rejects.toMatchObject({ name: 'SpeechRecognitionError', problem });
  });

  it('an aborted recording is never uploaded', async () => {
    const requests = installFetch(() => jsonResponse(200, { text: 'nie' }));
    const utterance = recordUtterance(stream);
    utterance.abort();
    await expect(utterance.transcript).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toEqual([]);
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
