import { describe, expect, it } from 'vitest';
import { concat, frames, mix, noise, quiet, SIGNAL_RATE as RATE, voice } from '../../tests/support/browser/signals';
import { createVoiceActivityDetector, type VoiceActivityEvent } from './voiceActivity';

/** Runs a signal through a detector; returns each event with the time (ms) it happened. */
function detect(signal: Float32Array): { event: VoiceActivityEvent; at: number }[] {
  const detector = createVoiceActivityDetector({ sampleRate: RATE });
  const events: { event: VoiceActivityEvent; at: number }[] = [];
  frames(signal).forEach((frame, index) => {
    for (const event of detector.push(frame)) events.push({ event, at: (index + 1) * 20 });
  });
  return events;
}

describe('voice activity detector', () => {
  it('hears speech after a quarter of a second, and its end after 700 ms of silence', () => {
    const events = detect(concat(quiet(0.5), voice(1.5, 0.05), quiet(1.2)));
    expect(events.map(({ event }) => event)).toEqual(['speech-maybe', 'speech-start', 'speech-end']);
    const [maybe, start, end] = events;
    // Probably the visitor after a tenth of a second: the coach can go quiet while it is decided.
    expect(maybe?.at).toBeLessThanOrEqual(500 + 120);
    expect(start?.at).toBeGreaterThanOrEqual(500 + 250);
    expect(start?.at).toBeLessThanOrEqual(500 + 300);
    expect(end?.at).toBeGreaterThanOrEqual(2_000 + 700);
    expect(end?.at).toBeLessThanOrEqual(2_000 + 760);
  });

  it('hears nothing in silence or in steady background noise', () => {
    expect(detect(quiet(3))).toEqual([]);
    expect(detect(concat(quiet(0.5), noise(3, 0.03)))).toEqual([]);
  });

  it('hears speech over steady background noise', () => {
    const background = noise(3, 0.005, 3);
    expect(detect(mix(background, concat(quiet(1), voice(1.2, 0.05), quiet(0.8)))).map(({ event }) => event)).toEqual([
      'speech-maybe',
      'speech-start',
      'speech-end',
    ]);
  });

  it('unvoiced sounds after a voiced start (“Ich” → “ch”) keep the run going, so speech starts after 250 ms', () => {
    const ich = concat(voice(0.1, 0.05), noise(0.3, 0.05, 11), voice(0.4, 0.05));
    const start = detect(concat(quiet(0.5), ich, quiet(1))).find(({ event }) => event === 'speech-start');
    expect(start?.at).toBeLessThanOrEqual(500 + 280);
  });

  it('a cough-like burst does not count: too short, or no speech in it', () => {
    // A short voiced sound (150 ms) may silence the coach for a moment, and then lets it go on …
    expect(detect(concat(quiet(0.5), voice(0.15, 0.08), quiet(1))).map(({ event }) => event)).toEqual(['speech-maybe', 'speech-dropped']);
    // … and a loud broadband burst of half a second.
    expect(detect(concat(quiet(0.5), noise(0.5, 0.1), quiet(1)))).toEqual([]);
  });

  it('decides on levels measured elsewhere: what remains once the coach’s echo is taken out', () => {
    const detector = createVoiceActivityDetector({ sampleRate: RATE });
    const levels = (rms: number, share: number) => ({ rms, floorRms: 0.001, speechBandShare: share, samples: 480 });
    // 300 ms of a voice's level in the speech band: speech; the same level outside it: nothing.
    const voiced = Array.from({ length: 15 }, () => detector.pushLevels(levels(0.05, 0.8))).flat();
    expect(voiced).toEqual(['speech-maybe', 'speech-start']);
    const other = createVoiceActivityDetector({ sampleRate: RATE });
    expect(Array.from({ length: 15 }, () => other.pushLevels(levels(0.05, 0.1))).flat()).toEqual([]);
  });

  it('counts the silence since the last speech, for an early start', () => {
    const detector = createVoiceActivityDetector({ sampleRate: RATE });
    for (const frame of frames(concat(voice(0.6, 0.05), quiet(0.4)))) detector.push(frame);
    expect(detector.speaking).toBe(true);
    expect(detector.silenceMs).toBeGreaterThanOrEqual(360);
    expect(detector.silenceMs).toBeLessThanOrEqual(420);
  });
});
