import { describe, expect, it } from 'vitest';
import { concat, frames, mix, noise, quiet, SIGNAL_RATE as RATE, voice } from '../services/testing/signals';
import { createVoiceActivityDetector, type VoiceActivityEvent } from './voiceActivity';

/** Runs a signal through a detector; returns each event with the time (ms) it happened. */
function detect(signal: Float32Array, playbackRms = 0): { event: VoiceActivityEvent; at: number }[] {
  const detector = createVoiceActivityDetector({ sampleRate: RATE });
  const events: { event: VoiceActivityEvent; at: number }[] = [];
  frames(signal).forEach((frame, index) => {
    for (const event of detector.push(frame, playbackRms)) events.push({ event, at: (index + 1) * 20 });
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

  it('the coach’s own voice coming back at a lower level is not the visitor, the visitor over it is', () => {
    const playback = 0.1;
    // Echo: the coach's voice at a third of its playback level reaches the microphone.
    expect(detect(concat(quiet(0.3), voice(2, playback / 3)), playback)).toEqual([]);
    // The visitor speaks over it, louder than any echo.
    const overlap = mix(voice(2, playback / 3), concat(quiet(0.5), voice(1.5, playback)));
    const events = detect(concat(quiet(0.3), overlap), playback);
    expect(events.map(({ event }) => event)).toEqual(['speech-maybe', 'speech-start']);
    expect(events[1]?.at).toBeGreaterThanOrEqual(300 + 500 + 250);
  });

  it('the echo guard holds the playback level for 100 ms: a late echo is ignored, a quiet visitor after the coach is heard', () => {
    // Syllables of 150 ms with pauses of 100 ms between them.
    const played = concat(...Array.from({ length: 8 }, () => concat(voice(0.15, 0.1), quiet(0.1))));
    // The page reads the level of what is played now; its echo reaches the microphone 80 ms later.
    const levels = frames(played).map((frame) => Math.sqrt(frame.reduce((sum, value) => sum + value * value, 0) / frame.length));
    const lateEcho = concat(quiet(0.08), played.map((value) => value / 3), quiet(1));
    const heard = (signal: Float32Array) => {
      const detector = createVoiceActivityDetector({ sampleRate: RATE });
      return frames(signal).flatMap((frame, index) => detector.push(frame, levels[index] ?? 0));
    };
    expect(heard(lateEcho)).toEqual([]);
    // Half a second after the coach stopped, the visitor speaking quieter than the coach played is heard.
    expect(heard(concat(quiet(2.5), voice(1, 0.1 / 3)))).toEqual(['speech-maybe', 'speech-start']);
  });

  it('counts the silence since the last speech, for an early start', () => {
    const detector = createVoiceActivityDetector({ sampleRate: RATE });
    for (const frame of frames(concat(voice(0.6, 0.05), quiet(0.4)))) detector.push(frame);
    expect(detector.speaking).toBe(true);
    expect(detector.silenceMs).toBeGreaterThanOrEqual(360);
    expect(detector.silenceMs).toBeLessThanOrEqual(420);
  });
});
