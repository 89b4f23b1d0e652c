import { describe, expect, it } from 'vitest';
import { concat } from '../../tests/support/browser/signals';
import { createResampler, encodeWav, resampleTo16k, wavSeconds } from './wav';

const tone = (hz: number, seconds: number, rate: number) =>
  Float32Array.from({ length: Math.round(seconds * rate) }, (_, index) => 0.5 * Math.sin((2 * Math.PI * hz * index) / rate));
const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);

describe('encodeWav', () => {
  it('writes a mono 16-bit 16 kHz WAV whose header says its length', () => {
    const wav = encodeWav(tone(440, 1.5, 24_000), 24_000);
    const view = new DataView(wav.buffer);
    const text = (offset: number) => String.fromCharCode(...wav.subarray(offset, offset + 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(1.5 * 16_000 * 2);
    expect(wavSeconds(wav)).toBe(1.5);
  });

  it('clips samples beyond full scale instead of wrapping them', () => {
    const wav = encodeWav(new Float32Array([2, -2]), 16_000);
    const view = new DataView(wav.buffer);
    expect([view.getInt16(44, true), view.getInt16(46, true)]).toEqual([32_767, -32_767]);
  });
});

describe('resampleTo16k', () => {
  it('keeps speech frequencies and removes what 16 kHz cannot carry', () => {
    const speech = resampleTo16k(tone(1_000, 1, 24_000), 24_000);
    const tooHigh = resampleTo16k(tone(11_000, 1, 24_000), 24_000);
    expect(speech.length).toBe(16_000);
    expect(rms(speech.subarray(100, -100))).toBeGreaterThan(0.3);
    expect(rms(tooHigh.subarray(100, -100))).toBeLessThan(0.05);
  });
});

describe('createResampler', () => {
  /** A signal with content across the band, so any slip in the filter or the positions shows. */
  const noise = (length: number) => {
    let seed = 7;
    return Float32Array.from({ length }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 1_073_741_824 - 1;
    });
  };
  /** What the whole input gives at once: the filter evaluated directly, with silence beyond both ends. */
  const direct = (samples: Float32Array, rate: number) => {
    const cutoff = (0.45 * 16_000) / rate;
    const taps = Array.from({ length: 31 }, (_, index) => {
      const k = index - 15;
      const sinc = k === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * k) / (Math.PI * k);
      return sinc * (0.5 + 0.5 * Math.cos((Math.PI * k) / 16));
    });
    const sum = taps.reduce((total, tap) => total + tap, 0);
    const at = (center: number) => taps.reduce((acc, tap, index) => acc + (samples[center - 15 + index] ?? 0) * (tap / sum), 0);
    const step = rate / 16_000;
    return Float32Array.from({ length: Math.floor((samples.length * 16_000) / rate) }, (_, index) => {
      const position = index * step;
      const base = Math.floor(position);
      const last = samples.length - 1;
      const a = at(Math.min(base, last));
      return position === base ? a : a + (at(Math.min(base + 1, last)) - a) * (position - base);
    });
  };

  it.each([48_000, 44_100, 24_000])('fed frame by frame at %i Hz, gives what the whole input gives', (rate) => {
    const input = noise(Math.round(rate * 0.37));
    const expected = direct(input, rate);
    for (const frameLength of [960, 128, 7]) {
      const resampler = createResampler(rate);
      const parts: Float32Array[] = [];
      for (let offset = 0; offset < input.length; offset += frameLength) parts.push(resampler.push(input.subarray(offset, offset + frameLength)));
      parts.push(resampler.flush());
      const streamed = concat(...parts);
      expect(streamed.length).toBe(expected.length);
      const worst = streamed.reduce((max, value, index) => Math.max(max, Math.abs(value - (expected[index] ?? 0))), 0);
      expect(worst).toBeLessThan(1e-6);
    }
    const whole = resampleTo16k(input, rate);
    expect(whole.length).toBe(expected.length);
    expect(whole.reduce((max, value, index) => Math.max(max, Math.abs(value - (expected[index] ?? 0))), 0)).toBeLessThan(1e-6);
  });

  it("hands over each frame's samples with at most the filter's reach held back", () => {
    const resampler = createResampler(48_000);
    const first = resampler.push(noise(960));
    // 20 ms at 48 kHz is 320 samples at 16 kHz; the filter's 15 samples ahead hold back 6 of them.
    expect(first.length).toBeGreaterThanOrEqual(314);
    expect(first.length).toBeLessThan(320);
    expect(first.length + resampler.push(noise(960)).length).toBeGreaterThanOrEqual(634);
  });

  it('passes 16 kHz through unchanged', () => {
    const input = noise(500);
    const resampler = createResampler(16_000);
    expect(resampler.push(input)).toEqual(input);
    expect(resampler.flush().length).toBe(0);
  });
});
