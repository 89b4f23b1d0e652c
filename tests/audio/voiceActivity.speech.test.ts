/**
 * The voice activity detector on real German speech: espeak-ng's voice, made at set-up time by the
 * same fixture the fake microphone of the end-to-end tests plays. The synthetic signals of the unit
 * tests are regular; these words have real onsets, fricatives and pauses.
 */
import { describe, expect, it } from 'vitest';
import { createVoiceActivityDetector, FRAME_MS, type VoiceActivityEvent } from '../../src/lib/voiceActivity';
import { silentWav, spokenWav } from '../fixtures/audio/fakeMicrophone';
import { readWav } from '../fixtures/audio/readWav';

interface Heard {
  event: VoiceActivityEvent;
  atMs: number;
}

function rms(samples: Float32Array): number {
  return Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / Math.max(1, samples.length));
}

/** Cuts a signal into the detector's 20 ms frames. */
function framesOf(samples: Float32Array, sampleRate: number): Float32Array[] {
  const size = (sampleRate * FRAME_MS) / 1000;
  const frames: Float32Array[] = [];
  for (let offset = 0; offset + size <= samples.length; offset += size) frames.push(samples.slice(offset, offset + size));
  return frames;
}

/** Runs the microphone's signal through a detector; `playback[i]` is the coach's level during frame i. */
function detect(microphone: Float32Array, sampleRate: number, playback: number[] = [], echoHoldMs?: number): Heard[] {
  const detector = createVoiceActivityDetector({ sampleRate, ...(echoHoldMs === undefined ? {} : { echoHoldMs }) });
  const heard: Heard[] = [];
  framesOf(microphone, sampleRate).forEach((frame, index) => {
    for (const event of detector.push(frame, playback[index] ?? 0)) heard.push({ event, atMs: (index + 1) * FRAME_MS });
  });
  return heard;
}

function scaled(samples: Float32Array, factor: number): Float32Array {
  return samples.map((value) => value * factor);
}

function mix(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(Math.max(a.length, b.length));
  out.set(a);
  b.forEach((value, index) => {
    out[index] = (out[index] ?? 0) + value;
  });
  return out;
}

/** The words and `tailSeconds` of the silence after them (the fixture's files end in a minute of silence). */
function words(wav: { sampleRate: number; samples: Float32Array }, tailSeconds: number) {
  const last = wav.samples.findLastIndex((value) => Math.abs(value) > 0.01);
  return { sampleRate: wav.sampleRate, samples: wav.samples.slice(0, last + 1 + Math.round(tailSeconds * wav.sampleRate)) };
}

const visitor = words(readWav(spokenWav('vad-visitor', 'Ich bin gestresst, was kann ich tun?', 0.5).path), 1.5);
const coach = words(readWav(spokenWav('vad-coach', 'Atme tief ein und zähle dabei langsam bis vier. Dann atme genauso langsam wieder aus.', 0.2).path), 0.5);

describe('voice activity on German speech (espeak-ng)', () => {
  it('starts once, about a quarter second after the first word, and ends after the last', () => {
    const heard = detect(visitor.samples, visitor.sampleRate);
    expect(heard.map(({ event }) => event)).toEqual(['speech-maybe', 'speech-start', 'speech-end']);
    const [maybe, start, end] = heard;
    expect(maybe?.atMs).toBeLessThan(start?.atMs ?? 0);
    expect(start?.atMs).toBeGreaterThanOrEqual(500 + 250);
    expect(start?.atMs).toBeLessThanOrEqual(500 + 400);
    const lastSoundMs = (visitor.samples.findLastIndex((value) => Math.abs(value) > 0.01) / visitor.sampleRate) * 1000;
    expect(end?.atMs).toBeGreaterThanOrEqual(lastSoundMs + 700 - FRAME_MS);
    expect(end?.atMs).toBeLessThanOrEqual(lastSoundMs + 900);
  });

  it('hears nothing in the silence file', () => {
    const silence = readWav(silentWav());
    expect(detect(silence.samples, silence.sampleRate)).toEqual([]);
  });

  it("ignores the coach's spoken answer coming back at a third of its level, and hears the visitor speaking over it", () => {
    const rate = coach.sampleRate;
    expect(visitor.sampleRate).toBe(rate);
    // What the coach plays, frame by frame, as the page's playback level reports it.
    const playback = framesOf(coach.samples, rate).map(rms);
    const echo = scaled(coach.samples, 1 / 3);
    expect(detect(echo, rate, playback)).toEqual([]);
    // The same echo without the playback level would be taken for the visitor: the guard is what stops it.
    expect(detect(echo, rate).map(({ event }) => event)).toContain('speech-start');

    // The visitor starts one second into the answer, as loud at the microphone as the coach is played.
    const bargeIn = mix(echo, new Float32Array([...new Float32Array(rate), ...scaled(visitor.samples, rms(coach.samples) / rms(visitor.samples))]));
    const heard = detect(bargeIn, rate, playback);
    const start = heard.find(({ event }) => event === 'speech-start');
    expect(start?.atMs).toBeGreaterThanOrEqual(1_000 + 500 + 250);
    expect(start?.atMs).toBeLessThanOrEqual(1_000 + 500 + 700);
  });

  it.each([20, 60, 100])('also when the echo arrives %i ms after the level was read', (delayMs) => {
    const rate = coach.sampleRate;
    const playback = framesOf(coach.samples, rate).map(rms);
    const delay = new Float32Array(Math.round((delayMs / 1000) * rate));
    const lateEcho = new Float32Array([...delay, ...scaled(coach.samples, 1 / 3)]);
    expect(detect(lateEcho, rate, playback)).toEqual([]);

    const bargeIn = mix(lateEcho, new Float32Array([...new Float32Array(rate), ...scaled(visitor.samples, rms(coach.samples) / rms(visitor.samples))]));
    const start = detect(bargeIn, rate, playback).find(({ event }) => event === 'speech-start');
    expect(start?.atMs).toBeLessThanOrEqual(1_000 + 500 + 700);
  });

  it.each([60, 100])('without the hold, an echo %i ms late would pass for the visitor (what the hold is for)', (delayMs) => {
    const rate = coach.sampleRate;
    const playback = framesOf(coach.samples, rate).map(rms);
    const lateEcho = new Float32Array([...new Float32Array(Math.round((delayMs / 1000) * rate)), ...scaled(coach.samples, 1 / 3)]);
    expect(detect(lateEcho, rate, playback, 0).map(({ event }) => event)).toContain('speech-start');
  });
});
