/**
 * The coach session's streamed listening path without React: which browsers stream (no recogniser
 * as in Firefox, a recogniser whose service fails, every browser when the operator says so), the
 * live caption, the early start on the partial words, and the fallback to recording when the
 * stream fails. The browser's parts are fakes (a microphone fed with synthetic frames, the
 * transcriber's stream played by the test); the session and its paths are real.
 */
import { describe, expect, it, vi } from 'vitest';
import { SpeechRecognitionError } from '../../../services/speechRecognition';
import { concat, frames, quiet, voice } from '../../../../tests/support/browser/signals';
import { settled } from '../../../../tests/support/browser/fakeCoachPorts';
import { coachSessionUnderTest } from '../../../../tests/support/browser/coachSessionUnderTest';

const { t, status, entries, greeted } = coachSessionUnderTest();
const caption = () => t.session.getSnapshot().voice.caption;
const speak = (seconds: number) => t.world.microphone.frames(frames(voice(seconds, 0.05)));
const pause = (seconds: number) => t.world.microphone.frames(frames(quiet(seconds)));

/** Ready, then a click: listening with the microphone open. */
async function clickToListen() {
  await greeted();
  t.session.click();
  await vi.waitFor(() => expect(status()).toBe('listening'));
  await vi.waitFor(() => expect(t.world.microphone.open).toBe(true));
}

describe('listening by streaming', () => {
  it('without a recogniser (Firefox): streams the turn, shows the partial words, and final words other than those the early reply had ask the coach', async () => {
    t.world.recogniser = false;
    t.world.streaming = { available: true, everyBrowser: false };
    await clickToListen();
    speak(1);
    const stream = t.world.latestStream();
    stream.partial('Ich bin gestresst');
    expect(caption()).toBe('Ich bin gestresst');
    pause(0.9);
    expect(stream.commits).toBe(1);
    expect(t.world.transcriptions).toHaveLength(0);
    // The pause started a reply on the partial words; the final words are others.
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    stream.final('Ich bin gestresst, was tun?');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(2));
    expect(t.world.calls[0]?.signal.aborted).toBe(true);
    expect(t.world.latestCall().history.at(-1)?.content).toBe('Ich bin gestresst, was tun?');
    expect(entries().slice(1)).toEqual(['user: Ich bin gestresst, was tun?', 'assistant: ']);
    expect(t.world.microphone.open).toBe(false);
  });

  it('starts the reply early on the partial words at a pause; the same final words confirm it, no second call', async () => {
    t.world.recogniser = false;
    t.world.streaming = { available: true, everyBrowser: false };
    await clickToListen();
    speak(1);
    const stream = t.world.latestStream();
    stream.partial('Was hilft bei Stress');
    pause(0.2);
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    expect(t.world.latestCall().history.at(-1)?.content).toBe('Was hilft bei Stress');
    pause(0.7);
    stream.final('Was hilft bei Stress?');
    await settled();
    expect(t.world.calls).toHaveLength(1);
    expect(t.world.latestCall().signal.aborted).toBe(false);
    expect(entries().slice(1, 2)).toEqual(['user: Was hilft bei Stress']);
  });

  it('with a recogniser, streams only when the operator sends every browser through the provider', async () => {
    t.world.streaming = { available: true, everyBrowser: false };
    await greeted();
    t.session.click();
    await vi.waitFor(() => expect(t.world.recognitions).toHaveLength(1));
    expect(t.world.streams).toHaveLength(0);
    expect(t.world.microphone.open).toBe(false);
  });

  it('every browser through the provider: the recogniser is never started, the turn is streamed', async () => {
    t.world.streaming = { available: true, everyBrowser: true };
    await clickToListen();
    speak(0.8);
    expect(t.world.recognitions).toHaveLength(0);
    expect(t.world.streams).toHaveLength(1);
  });

  it('a recogniser whose service fails is replaced by the stream', async () => {
    t.world.streaming = { available: true, everyBrowser: false };
    await greeted();
    t.session.click();
    await vi.waitFor(() => expect(t.world.recognitions).toHaveLength(1));
    t.world.latestRecognition().fail('network');
    await vi.waitFor(() => expect(t.world.microphone.open).toBe(true));
    expect(status()).toBe('listening');
    speak(0.8);
    expect(t.world.streams).toHaveLength(1);
  });

  it('a stream that fails mid-turn: recording takes over with all the audio so far, and the turn ends with the stt function’s words', async () => {
    t.world.recogniser = false;
    t.world.streaming = { available: true, everyBrowser: false };
    await clickToListen();
    speak(1);
    const stream = t.world.latestStream();
    const streamed = stream.seconds;
    stream.fail(new SpeechRecognitionError('failed', 'stream closed (1006)'));
    await vi.waitFor(() => expect(t.world.transcriptions).toHaveLength(1));
    // What the stream had was uploaded as the first segment.
    expect(t.world.transcriptions[0]?.seconds).toBeCloseTo(streamed, 2);
    expect(status()).toBe('listening');
    t.world.microphone.frames(frames(concat(voice(0.5, 0.05), quiet(0.9))));
    t.world.transcriptions[0]?.answer('Ich bin');
    await vi.waitFor(() => expect(t.world.transcriptions).toHaveLength(2));
    t.world.transcriptions[1]?.answer('gestresst');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    expect(t.world.latestCall().history.at(-1)?.content).toBe('Ich bin gestresst');
    // The next turn records straight away.
    await settled();
    expect(t.world.streams).toHaveLength(1);
  });

  it('a stream that fails after the end of speech: the whole turn is uploaded and answered', async () => {
    t.world.recogniser = false;
    t.world.streaming = { available: true, everyBrowser: false };
    await clickToListen();
    t.world.microphone.frames(frames(concat(voice(1, 0.05), quiet(0.9))));
    expect(status()).toBe('processing');
    t.world.latestStream().fail(new SpeechRecognitionError('failed', 'stream closed (4502)'));
    await vi.waitFor(() => expect(t.world.transcriptions).toHaveLength(1));
    expect(t.world.transcriptions[0]?.seconds).toBeGreaterThanOrEqual(1);
    t.world.transcriptions[0]?.answer('Hallo Mia');
    await vi.waitFor(() => expect(t.world.calls).toHaveLength(1));
    expect(t.world.latestCall().history.at(-1)?.content).toBe('Hallo Mia');
  });
});
