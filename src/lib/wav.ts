/**
 * Recorded speech as a WAV file for the `stt` function: mono 16-bit PCM at 16 kHz, the rate
 * speech recognition works at. WAV (rather than the browser's compressed recording) because the
 * session cuts the audio itself, at the visitor's voice onset (with a short pre-roll) and at
 * pauses, and because a WAV's length is exact: the function bills the seconds it declares.
 */

export const WAV_SAMPLE_RATE = 16_000;

/** Half the length of the anti-aliasing filter (31 taps). */
const HALF_TAPS = 15;

/** A 31-tap Hann-windowed sinc low-pass, normalised to unit gain; `cutoff` as a fraction of the sample rate. */
function lowPassTaps(cutoff: number): Float64Array {
  const taps = new Float64Array(2 * HALF_TAPS + 1);
  let sum = 0;
  for (let k = -HALF_TAPS; k <= HALF_TAPS; k += 1) {
    const sinc = k === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * k) / (Math.PI * k);
    const tap = sinc * (0.5 + 0.5 * Math.cos((Math.PI * k) / (HALF_TAPS + 1)));
    taps[k + HALF_TAPS] = tap;
    sum += tap;
  }
  for (let index = 0; index < taps.length; index += 1) taps[index] = (taps[index] ?? 0) / sum;
  return taps;
}

/** Samples in 16 kHz out, as the input arrives. */
export interface Resampler {
  /**
   * The 16 kHz samples that `frame` completes. The filter looks HALF_TAPS input samples ahead, so
   * the last fraction of a millisecond comes with the next frame (or `flush`).
   */
  push(frame: Float32Array): Float32Array;
  /** The rest, with silence after the last input sample; the resampler starts over afterwards. */
  flush(): Float32Array;
}

/**
 * Resamples to 16 kHz as the audio arrives: a windowed-sinc low-pass below the new Nyquist
 * frequency, then linear interpolation. Speech keeps its band (up to ~7 kHz); aliasing from higher
 * frequencies is removed. The filter is evaluated only at the input samples an output sample is
 * made of (every third one from 48 kHz). Fed frame by frame while the visitor speaks, a recording
 * is ready to send the moment it is cut; the result is the same as resampling it whole.
 */
export function createResampler(sampleRate: number): Resampler {
  const taps = sampleRate > WAV_SAMPLE_RATE ? lowPassTaps((0.45 * WAV_SAMPLE_RATE) / sampleRate) : null;
  const step = sampleRate / WAV_SAMPLE_RATE;
  /** Input samples from the absolute index `first` on; before index 0 the input is silence. */
  let kept = new Float32Array(0);
  let first = 0;
  /** Input samples received, and output samples made. */
  let received = 0;
  let made = 0;

  const input = (index: number): number => (index < 0 || index >= received ? 0 : (kept[index - first] ?? 0));
  const filteredAt = (center: number): number => {
    if (!taps) return input(center);
    let acc = 0;
    for (let k = 0; k < taps.length; k += 1) acc += input(center - HALF_TAPS + k) * (taps[k] ?? 0);
    return acc;
  };
  /** Output samples `made` … `until` − 1; a base beyond the last input sample reads the last one. */
  const make = (until: number): Float32Array => {
    const out = new Float32Array(Math.max(0, until - made));
    const last = received - 1;
    for (let index = 0; index < out.length; index += 1) {
      const position = (made + index) * step;
      const base = Math.floor(position);
      const fraction = position - base;
      const a = filteredAt(Math.min(base, last));
      out[index] = fraction === 0 ? a : a + (filteredAt(Math.min(base + 1, last)) - a) * fraction;
    }
    made += out.length;
    // Only what the next output sample's filter reaches back to is kept.
    const from = Math.max(first, Math.floor(made * step) - HALF_TAPS);
    kept = kept.slice(from - first);
    first = from;
    return out;
  };

  return {
    push(frame) {
      if (sampleRate === WAV_SAMPLE_RATE) return frame.slice();
      const joined = new Float32Array(kept.length + frame.length);
      joined.set(kept);
      joined.set(frame, kept.length);
      kept = joined;
      received += frame.length;
      // Output j needs the input up to ⌊j·step⌋ + 1 + HALF_TAPS (the linear step's second point).
      const reach = (taps ? HALF_TAPS : 0) + 1;
      const ready = Math.max(0, Math.floor((received - 1 - reach) / step) + 1);
      return make(Math.min(ready, Math.floor((received * WAV_SAMPLE_RATE) / sampleRate)));
    },
    flush() {
      const rest = sampleRate === WAV_SAMPLE_RATE ? new Float32Array(0) : make(Math.floor((received * WAV_SAMPLE_RATE) / sampleRate));
      kept = new Float32Array(0);
      first = 0;
      received = 0;
      made = 0;
      return rest;
    },
  };
}

/** `samples` resampled to 16 kHz in one go (see createResampler). */
export function resampleTo16k(samples: Float32Array, sampleRate: number): Float32Array {
  if (sampleRate === WAV_SAMPLE_RATE) return samples;
  const resampler = createResampler(sampleRate);
  const head = resampler.push(samples);
  const tail = resampler.flush();
  const out = new Float32Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/**
 * A mono 16-bit PCM WAV file of `samples` samples at `sampleRate`: its 44-byte header written, the
 * samples left silent for the caller to fill in.
 */
export function emptyWav(samples: number, sampleRate: number): { bytes: Uint8Array<ArrayBuffer>; view: DataView } {
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let index = 0; index < value.length; index += 1) view.setUint8(offset + index, value.charCodeAt(index));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples * 2, true);
  return { bytes, view };
}

/** The samples (−1…1, any rate) as a 16 kHz mono 16-bit WAV file. */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const pcm = resampleTo16k(samples, sampleRate);
  const { bytes, view } = emptyWav(pcm.length, WAV_SAMPLE_RATE);
  for (let index = 0; index < pcm.length; index += 1) {
    const value = Math.max(-1, Math.min(1, pcm[index] ?? 0));
    view.setInt16(44 + index * 2, Math.round(value * 32_767), true);
  }
  return bytes;
}

/** The length in seconds of a WAV made by `encodeWav`. */
export function wavSeconds(wav: Uint8Array): number {
  return Math.max(0, wav.length - 44) / 2 / WAV_SAMPLE_RATE;
}
