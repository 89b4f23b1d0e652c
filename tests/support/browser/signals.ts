/**
 * Synthetic microphone signals for the voice activity tests: a voiced, speech-like sound and noise,
 * cut into the 20 ms frames the detector takes. Only for tests.
 */
import { mulberry32 } from '../../../src/lib/random';

export const SIGNAL_RATE = 24_000;
export const FRAME_SAMPLES = (SIGNAL_RATE * 20) / 1000;

function scale(samples: Float32Array, rms: number): Float32Array {
  const current = Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);
  return samples.map((value) => (value / current) * rms);
}

/**
 * A 140 Hz fundamental (or another) with falling harmonics up to 3 kHz and formant bumps, its
 * loudness rising and falling four times a second (or at another rate) like syllables.
 */
export function voice(seconds: number, rms: number, { fundamental = 140, syllablesPerSecond = 4 } = {}): Float32Array {
  const samples = new Float32Array(Math.round(seconds * SIGNAL_RATE));
  for (let index = 0; index < samples.length; index += 1) {
    const time = index / SIGNAL_RATE;
    const syllable = 0.35 + 0.65 * Math.sin(Math.PI * ((time * syllablesPerSecond) % 1)) ** 2;
    let value = 0;
    for (let harmonic = 1; harmonic * fundamental < 3_000; harmonic += 1) {
      const frequency = harmonic * fundamental;
      const formant = frequency > 400 && frequency < 900 ? 2 : frequency > 1_100 && frequency < 1_800 ? 1.4 : 1;
      value += (formant / harmonic) * Math.sin(2 * Math.PI * frequency * time);
    }
    samples[index] = value * syllable;
  }
  return scale(samples, rms);
}

/** White noise (seeded, the same on every run). */
export function noise(seconds: number, rms: number, seed = 7): Float32Array {
  const random = mulberry32(seed);
  return scale(new Float32Array(Math.round(seconds * SIGNAL_RATE)).map(() => random() * 2 - 1), rms);
}

/** A quiet room. */
export const quiet = (seconds: number) => noise(seconds, 0.001);

export function concat(...parts: Float32Array[]): Float32Array {
  const joined = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

export function mix(a: Float32Array, b: Float32Array): Float32Array {
  return a.map((value, index) => value + (b[index] ?? 0));
}

/** What a microphone hears of `played`: `delayMs` later, `gainDb` louder (0 dB: as loud as played). */
export function echoOf(played: Float32Array, delayMs: number, gainDb: number): Float32Array {
  const delay = Math.round((delayMs / 1000) * SIGNAL_RATE);
  const gain = 10 ** (gainDb / 20);
  const heard = new Float32Array(played.length);
  for (let index = delay; index < played.length; index += 1) heard[index] = (played[index - delay] ?? 0) * gain;
  return heard;
}

/** The signal as 20 ms frames. */
export function frames(signal: Float32Array): Float32Array[] {
  const result: Float32Array[] = [];
  for (let offset = 0; offset + FRAME_SAMPLES <= signal.length; offset += FRAME_SAMPLES) {
    result.push(signal.slice(offset, offset + FRAME_SAMPLES));
  }
  return result;
}
