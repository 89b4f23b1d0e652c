import { describe, expect, it } from 'vitest';
import { mulberry32 } from './random';
import { createVoiceActivityDetector, FRAME_MS, type VoiceActivityEvent } from './voiceActivity';

const RATE = 24_000;
const FRAME = (RATE * FRAME_MS) / 1000;

/**
 * A voiced, speech-like signal: a 140 Hz fundamental with falling harmonics up to 3 kHz and formant
 * bumps, its loudness rising and falling four times a second like syllables.
 */
function voice(seconds: number, rms: number, phase = 0): Float32Array {
  const samples = new Float32Array(Math.round(seconds * RATE));
  for (let index = 0; index < samples.length; index += 1) {
    const time = index / RATE + phase;
    const syllable = 0.35 + 0.65 * Math.sin(Math.PI * ((time * 4) % 1)) ** 2;
    let value = 0;
    for (let harmonic = 1; harmonic * 140 < 3_000; harmonic += 1) {
      const frequency = harmonic * 140;
      const formant = frequency > 400 && frequency < 900 ? 2 : frequency > 1_100 && frequency < 1_800 ? 1.4 : 1;
      value += (formant / harmonic) * Math.sin(2 * Math.PI * frequency * time);
    }
    samples[index] = value * syllable;
  }
  return scale(samples, rms);
}

function noise(seconds: number, rms: number, seed = 7): Float32Array {
  const random = mulberry32(seed);
  const samples = new Float32Array(Math.round(seconds * RATE)).map(() => random() * 2 - 1);
  return scale(samples, rms);
}

function scale(samples: Float32Array, rms: number): Float32Array {
  const current = Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);
  return samples.map((value) => (value / current) * rms);
}

function concat(...parts: Float32Array[]): Float32Array {
  const joined = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

function mix(a: Float32Array, b: Float32Array): Float32Array {
  return a.map((value, index) => value + (b[index] ?? 0));
}

/** Runs a signal through a detector; returns each event with the time (ms) it happened. */
function detect(signal: Float32Array, playbackRms = 0): { event: VoiceActivityEvent; at: number }[] {
  const detector = createVoiceActivityDetector({ sampleRate: RATE });
  const events: { event: VoiceActivityEvent; at: number }[] = [];
  for (let offset = 0; offset + FRAME <= signal.length; offset += FRAME) {
    for (const event of detector.push(signal.subarray(offset, offset + FRAME), playbackRms)) {
      events.push({ event, at: ((offset + FRAME) / RATE) * 1000 });
    }
  }
  return events;
}

const quiet = (seconds: number) => noise(seconds, 0.001);

describe('voice activity detector', () => {
  it('hears speech after a quarter of a second, and its end after 700 ms of silence', () => {
    const events = detect(concat(quiet(0.5), voice(1.5, 0.05), quiet(1.2)));
    expect(events.map(({ event }) => event)).toEqual(['speech-start', 'speech-end']);
    const [start, end] = events;
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
      'speech-start',
      'speech-end',
    ]);
  });

  it('a cough-like burst does not count: too short, or no speech in it', () => {
    // A short voiced sound (150 ms) …
    expect(detect(concat(quiet(0.5), voice(0.15, 0.08), quiet(1)))).toEqual([]);
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
    expect(events.map(({ event }) => event)).toEqual(['speech-start']);
    expect(events[0]?.at).toBeGreaterThanOrEqual(300 + 500 + 250);
  });

  it('counts the silence since the last speech, for an early start', () => {
    const detector = createVoiceActivityDetector({ sampleRate: RATE });
    const signal = concat(voice(0.6, 0.05), quiet(0.4));
    for (let offset = 0; offset + FRAME <= signal.length; offset += FRAME) detector.push(signal.subarray(offset, offset + FRAME));
    expect(detector.speaking).toBe(true);
    expect(detector.silenceMs).toBeGreaterThanOrEqual(360);
    expect(detector.silenceMs).toBeLessThanOrEqual(420);
  });
});
