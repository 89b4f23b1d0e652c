/**
 * The voice activity detector on real German speech: espeak-ng's voice, made at set-up time by the
 * same fixture the fake microphone of the end-to-end tests plays. The synthetic signals of the unit
 * tests are regular; these words have real onsets, fricatives and pauses.
 */
import { describe, expect, it } from 'vitest';
import { createEchoDecision } from '../../src/features/coach/session/echo';
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

/**
 * Runs the microphone's signal through a detector; with `played` (what the page played, frame by
 * frame aligned with the microphone), through the coach's echo decision first, as the session does.
 */
function detect(microphone: Float32Array, sampleRate: number, played?: Float32Array): Heard[] {
  const detector = createVoiceActivityDetector({ sampleRate });
  const echo = createEchoDecision({ sampleRate, frameLength: (sampleRate * FRAME_MS) / 1000 });
  const reference = played ? framesOf(played, sampleRate) : [];
  const heard: Heard[] = [];
  framesOf(microphone, sampleRate).forEach((frame, index) => {
    const levels = played ? echo.push(frame, reference[index] ?? null) : null;
    for (const event of levels ? detector.pushLevels(levels) : detector.push(frame)) heard.push({ event, atMs: (index + 1) * FRAME_MS });
  });
  return heard;
}

/** The coach's words followed by `seconds` of silence (time for the visitor's words after them). */
function padded(samples: Float32Array, sampleRate: number, seconds: number): Float32Array {
  return new Float32Array([...samples, ...new Float32Array(Math.round(seconds * sampleRate))]);
}

/** What the microphone hears of `played`, `delayMs` late. */
function late(played: Float32Array, sampleRate: number, delayMs: number): Float32Array {
  return new Float32Array([...new Float32Array(Math.round((delayMs / 1000) * sampleRate)), ...played]).slice(0, played.length);
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

  it.each([0, -9.5])("ignores the coach's spoken answer coming back at %s dB, and hears the visitor speaking over it", (gainDb) => {
    const rate = coach.sampleRate;
    expect(visitor.sampleRate).toBe(rate);
    const played = padded(coach.samples, rate, 3);
    const echo = late(scaled(played, 10 ** (gainDb / 20)), rate, 60);
    expect(detect(echo, rate, played)).toEqual([]);
    // The same echo without the decision would be taken for the visitor: the decision is what stops it.
    expect(detect(echo, rate).map(({ event }) => event)).toContain('speech-start');

    // The visitor starts one second into the answer, as loud at the microphone as the coach is played.
    const bargeIn = mix(echo, new Float32Array([...new Float32Array(rate), ...scaled(visitor.samples, rms(coach.samples) / rms(visitor.samples))]));
    const start = detect(bargeIn, rate, played).find(({ event }) => event === 'speech-start');
    expect(start?.atMs).toBeGreaterThanOrEqual(1_000 + 500 + 250);
    expect(start?.atMs).toBeLessThanOrEqual(1_000 + 500 + 700);
  });

  it.each([20, 60, 100, 250])('also when the echo arrives %i ms late', (delayMs) => {
    const rate = coach.sampleRate;
    const played = padded(coach.samples, rate, 3);
    const echo = late(played, rate, delayMs);
    expect(detect(echo, rate, played)).toEqual([]);
    const bargeIn = mix(echo, new Float32Array([...new Float32Array(rate), ...scaled(visitor.samples, rms(coach.samples) / rms(visitor.samples))]));
    const start = detect(bargeIn, rate, played).find(({ event }) => event === 'speech-start');
    expect(start?.atMs).toBeLessThanOrEqual(1_000 + 500 + 700);
  });
});
