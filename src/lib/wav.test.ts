import { describe, expect, it } from 'vitest';
import { encodeWav, resampleTo16k, wavSeconds } from './wav';

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
