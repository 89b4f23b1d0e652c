/**
 * An AudioWorklet that cuts the microphone's samples into frames of 20 ms and posts each to the main
 * thread, where the voice activity detector (src/lib/voiceActivity.ts) decides. Loaded as a file of
 * its own (`?worker&url`): the CSP allows no inline code.
 */

import { scope } from './workletScope';

const FRAME_SECONDS = 0.02;

class MicFrames extends scope.AudioWorkletProcessor {
  private readonly size = Math.round(scope.sampleRate * FRAME_SECONDS);
  private frame = new Float32Array(this.size);
  private filled = 0;

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    if (!input) return true;
    for (const sample of input) {
      this.frame[this.filled] = sample;
      this.filled += 1;
      if (this.filled === this.size) {
        // The frame's buffer moves to the main thread (no copy); a new one is filled from here on.
        this.port.postMessage(this.frame, [this.frame.buffer]);
        this.frame = new Float32Array(this.size);
        this.filled = 0;
      }
    }
    return true;
  }
}

scope.registerProcessor('mic-frames', MicFrames);
