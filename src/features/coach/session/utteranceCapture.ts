/**
 * The visitor's speech as the session records it for the `stt` function: every microphone frame
 * passes through here, the last second is kept, and an utterance starts at the voice onset with a
 * short pre-roll (so the first syllable, heard before the detector was sure, is not cut off). It is
 * handed over in segments (`cut()`), each the audio since the previous cut, so nothing is uploaded
 * twice and the billed seconds are the spoken ones. The frames are resampled to 16 kHz (the rate
 * the `stt` function is sent) as they come, so a segment is ready the moment it is cut, not
 * resampled then on the way to the visitor's words. Pure: frames in, samples out.
 */
import { createResampler, WAV_SAMPLE_RATE } from '../../../lib/wav';

/** Audio kept before the voice onset. */
export const PRE_ROLL_MS = 300;
/** Audio kept while nobody speaks: the pre-roll plus the detector's time to be sure (≤ 700 ms). */
const RING_MS = 1_000;

export interface UtteranceCapture {
  /** Every microphone frame, in order. */
  push(frame: Float32Array): void;
  /**
   * The visitor's voice began `voiceMs` ago: the utterance starts there, less the pre-roll (or as
   * far back as was kept).
   */
  start(voiceMs: number): void;
  readonly capturing: boolean;
  /** The audio since the last cut (or the start), or null when there is none. */
  cut(): Float32Array | null;
  /** Stops capturing and drops what was not cut. */
  stop(): void;
  /** Seconds handed over by `cut()` since `start()`. */
  readonly cutSeconds: number;
  /** The rate of the samples `cut()` hands over: 16 kHz, whatever the microphone's rate. */
  readonly sampleRate: number;
}

/** The samples of several chunks, one after the other, in one array. */
export function joinSamples(frames: readonly Float32Array[]): Float32Array {
  const joined = new Float32Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let offset = 0;
  for (const frame of frames) {
    joined.set(frame, offset);
    offset += frame.length;
  }
  return joined;
}

export function createUtteranceCapture({ sampleRate: inputRate }: { sampleRate: number }): UtteranceCapture {
  const resampler = createResampler(inputRate);
  const sampleRate = WAV_SAMPLE_RATE;
  /** The last second of frames (at 16 kHz), oldest first. */
  const ring: Float32Array[] = [];
  let ringSamples = 0;
  /** The frames of the utterance not handed over yet. */
  let pending: Float32Array[] = [];
  let capturing = false;
  let cutSamples = 0;
  const ringLimit = (RING_MS / 1000) * sampleRate;

  return {
    push(input) {
      const frame = resampler.push(input);
      if (frame.length === 0) return;
      if (capturing) pending.push(frame);
      ring.push(frame);
      ringSamples += frame.length;
      while (ring.length > 1 && ringSamples - (ring[0]?.length ?? 0) >= ringLimit) ringSamples -= ring.shift()?.length ?? 0;
    },
    start(voiceMs) {
      if (capturing) return;
      capturing = true;
      cutSamples = 0;
      const wanted = ((voiceMs + PRE_ROLL_MS) / 1000) * sampleRate;
      const kept: Float32Array[] = [];
      let samples = 0;
      for (let index = ring.length - 1; index >= 0 && samples < wanted; index -= 1) {
        const frame = ring[index];
        if (!frame) break;
        kept.unshift(frame);
        samples += frame.length;
      }
      pending = kept;
    },
    get capturing() {
      return capturing;
    },
    cut() {
      if (!capturing || pending.length === 0) return null;
      const segment = joinSamples(pending);
      pending = [];
      cutSamples += segment.length;
      return segment;
    },
    stop() {
      capturing = false;
      pending = [];
    },
    get cutSeconds() {
      return cutSamples / sampleRate;
    },
    sampleRate,
  };
}
