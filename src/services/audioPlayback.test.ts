import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { speakWithBrowser } from './audioPlayback';

/** The part of speechSynthesis a test drives. */
class FakeSynthesis {
  spoken: SpeechSynthesisUtterance[] = [];
  cancelled = 0;
  voices = [
    { lang: 'en-US', name: 'English' },
    { lang: 'de-AT', name: 'Österreich' },
    { lang: 'de-DE', name: 'Deutsch' },
  ] as unknown as SpeechSynthesisVoice[];
  getVoices() {
    return this.voices;
  }
  speak(utterance: SpeechSynthesisUtterance) {
    this.spoken.push(utterance);
  }
  cancel() {
    this.cancelled += 1;
  }
}

class FakeUtterance {
  lang = '';
  rate = 1;
  pitch = 1;
  voice: SpeechSynthesisVoice | null = null;
  onstart: (() => void) | null = null;
  onend: (() => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  constructor(readonly text: string) {}
}

describe('speakWithBrowser (no voice provider configured)', () => {
  let synthesis: FakeSynthesis;
  beforeEach(() => {
    synthesis = new FakeSynthesis();
    vi.stubGlobal('speechSynthesis', synthesis);
    vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const utterance = () => synthesis.spoken[0] as unknown as FakeUtterance;

  it('speaks German with a de-DE voice at the given rate and pitch', async () => {
    const onStart = vi.fn();
    const done = speakWithBrowser('Hallo Welt', { rate: 1.3, pitch: 0.7 }, { onStart });
    expect(utterance()).toMatchObject({ text: 'Hallo Welt', lang: 'de-DE', rate: 1.3, pitch: 0.7 });
    expect(utterance().voice).toMatchObject({ lang: 'de-DE' });
    utterance().onstart?.();
    expect(onStart).toHaveBeenCalledOnce();
    utterance().onend?.();
    await expect(done).resolves.toBeUndefined();
  });

  it('cancels on abort and resolves', async () => {
    const controller = new AbortController();
    const done = speakWithBrowser('Hallo', { rate: 1, pitch: 1 }, { signal: controller.signal });
    controller.abort();
    await expect(done).resolves.toBeUndefined();
    expect(synthesis.cancelled).toBe(1);
  });

  it('maps errors: interrupted is no error, not-allowed is blocked, others failed', async () => {
    const interrupted = speakWithBrowser('a', { rate: 1, pitch: 1 });
    utterance().onerror?.({ error: 'interrupted' });
    await expect(interrupted).resolves.toBeUndefined();

    const blocked = speakWithBrowser('b', { rate: 1, pitch: 1 });
    (synthesis.spoken[1] as unknown as FakeUtterance).onerror?.({ error: 'not-allowed' });
    await expect(blocked).rejects.toMatchObject({ reason: 'blocked' });

    const failed = speakWithBrowser('c', { rate: 1, pitch: 1 });
    (synthesis.spoken[2] as unknown as FakeUtterance).onerror?.({ error: 'synthesis-failed' });
    await expect(failed).rejects.toMatchObject({ reason: 'failed' });
  });

  it('gives up when the browser never starts speaking', async () => {
    vi.useFakeTimers();
    const done = speakWithBrowser('Hallo', { rate: 1, pitch: 1 });
    const expectation = expect(done).rejects.toMatchObject({ reason: 'failed' });
    await vi.advanceTimersByTimeAsync(5_000);
    await expectation;
  });
});
