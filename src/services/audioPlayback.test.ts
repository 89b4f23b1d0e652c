import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlaybackError, playAudio, playSpeech, speakWithBrowser } from './audioPlayback';
import { installAudio, type FakeAudio } from './testing/browserFakes';

const mp3 = () => new Blob([new Uint8Array([0xff, 0xfb, 0x90, 0x64])], { type: 'audio/mpeg' });

describe('playAudio', () => {
  let audio: FakeAudio;
  beforeEach(() => {
    audio = installAudio();
  });
  afterEach(() => audio.restore());

  it('plays at the given tempo with the pitch preserved and resolves at the end', async () => {
    const onStart = vi.fn();
    const done = playAudio(mp3(), { playbackRate: 0.8, pitch: 1 }, { onStart });
    await vi.waitFor(() => expect(onStart).toHaveBeenCalledOnce());
    const [element] = audio.played;
    expect(element?.playbackRate).toBe(0.8);
    expect(element?.defaultPlaybackRate).toBe(0.8);
    expect(element?.preservesPitch).toBe(true);
    audio.finishNext();
    await expect(done).resolves.toBeUndefined();
    expect(audio.revoked).toEqual(['blob:fake']);
  });

  it('stops at once when the signal aborts (barge-in) and resolves', async () => {
    const controller = new AbortController();
    const done = playAudio(mp3(), { playbackRate: 1, pitch: 1 }, { signal: controller.signal });
    await vi.waitFor(() => expect(audio.played).toHaveLength(1));
    const pause = vi.spyOn(audio.played[0] as HTMLMediaElement, 'pause');
    controller.abort();
    await expect(done).resolves.toBeUndefined();
    expect(pause).toHaveBeenCalled();
  });

  it('does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await playAudio(mp3(), { playbackRate: 1, pitch: 1 }, { signal: controller.signal });
    expect(audio.played).toHaveLength(0);
  });

  it('reports a blocked autoplay (NotAllowedError) as "blocked"', async () => {
    audio.rejectWith = new DOMException('play() failed because the user didn’t interact', 'NotAllowedError');
    await expect(playAudio(mp3(), { playbackRate: 1, pitch: 1 })).rejects.toMatchObject({ reason: 'blocked' });
  });

  it('reports any other refusal and a media error as "failed"', async () => {
    audio.rejectWith = new DOMException('no supported source', 'NotSupportedError');
    await expect(playAudio(mp3(), { playbackRate: 1, pitch: 1 })).rejects.toMatchObject({ reason: 'failed' });
    audio.rejectWith = null;
    const done = playAudio(mp3(), { playbackRate: 1, pitch: 1 });
    await vi.waitFor(() => expect(audio.played).toHaveLength(1));
    audio.played[0]?.dispatchEvent(new Event('error'));
    await expect(done).rejects.toBeInstanceOf(PlaybackError);
  });
});

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
    const done = playSpeech({ kind: 'browser', rate: 1.3, pitch: 0.7 }, 'Hallo Welt', { onStart });
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
