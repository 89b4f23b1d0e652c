/**
 * An AudioWorklet that cuts the microphone's samples into frames of 20 ms and posts each to the main
 * thread, together with the samples the page played at the same moment (its second input, the
 * page's own output): the coach's session compares the two to tell the visitor from the coach's
 * echo, and runs its voice activity detector (src/lib/voiceActivity.ts) on what remains. Both
 * inputs are in the same audio graph, so their samples line up exactly. Loaded as a file of its
 * own (`?worker&url`): the CSP allows no inline code.
 */

import { scope } from './workletScope';

const FRAME_SECONDS = 0.02;

/** One posted frame: the microphone's samples and what was played meanwhile (zeros when nothing). */
export interface MicrophoneFrame {
  microphone: Float32Array;
  reference: Float32Array;
}

class MicFrames extends scope.AudioWorkletProcessor {
  private readonly size = Math.round(scope.sampleRate * FRAME_SECONDS);
  private microphone = new Float32Array(this.size);
  private reference = new Float32Array(this.size);
  private filled = 0;

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    if (!input) return true;
    // Nothing connected to the second input (no output yet) reads as silence.
    const played = inputs[1]?.[0];
    for (let index = 0; index < input.length; index += 1) {
      this.microphone[this.filled] = input[index] ?? 0;
      this.reference[this.filled] = played?.[index] ?? 0;
      this.filled += 1;
      if (this.filled === this.size) {
        // The frames' buffers move to the main thread (no copy); new ones are filled from here on.
        const frame: MicrophoneFrame = { microphone: this.microphone, reference: this.reference };
        this.port.postMessage(frame, [this.microphone.buffer, this.reference.buffer]);
        this.microphone = new Float32Array(this.size);
        this.reference = new Float32Array(this.size);
        this.filled = 0;
      }
    }
    return true;
  }
}

scope.registerProcessor('mic-frames', MicFrames);
