/**
 * The microphone frames worklet, run in a stand-in AudioWorkletGlobalScope: it must keep posting
 * frames of 20 ms, block after block, each a buffer of its own, with what the page played meanwhile.
 */
import type { MicrophoneFrame } from './micFrames.worklet';

type Processor = { process(inputs: Float32Array[][]): boolean };
type ProcessorClass = new () => Processor;

const posted: MicrophoneFrame[] = [];
let registered: ProcessorClass | null = null;

beforeAll(async () => {
  class AudioWorkletProcessor {
    readonly port = {
      postMessage: (frame: MicrophoneFrame, transfer: ArrayBuffer[] = []) => {
        posted.push({ microphone: frame.microphone.slice(), reference: frame.reference.slice() });
        // Transferring detaches the buffer, as in the browser.
        for (const buffer of transfer) structuredClone(buffer, { transfer: [buffer] });
      },
    };
  }
  Object.assign(globalThis, {
    AudioWorkletProcessor,
    sampleRate: 24_000,
    registerProcessor: (_name: string, processor: ProcessorClass) => {
      registered = processor;
    },
  });
  // The worklet is a script, not a module with exports: loaded for its registerProcessor call.
  const worklet = './micFrames.worklet';
  await import(/* @vite-ignore */ worklet);
});

afterAll(() => {
  for (const name of ['AudioWorkletProcessor', 'sampleRate', 'registerProcessor']) Reflect.deleteProperty(globalThis, name);
});

it('posts every 20 ms frame of the microphone, in order, with the page’s output of the same moment', () => {
  if (!registered) throw new Error('the worklet registered no processor');
  const processor = new registered();
  const blocks = 30; // 30 × 128 samples = 160 ms at 24 kHz: 8 frames of 480 samples.
  for (let block = 0; block < blocks; block += 1) {
    const samples = Float32Array.from({ length: 128 }, (_, index) => (block * 128 + index) / 10_000);
    const played = samples.map((value) => -value);
    // Until the page plays something, its output is not connected: no channels.
    expect(processor.process([[samples], block < 4 ? [] : [played]])).toBe(true);
  }
  expect(posted.map((frame) => frame.microphone.length)).toEqual(Array.from({ length: 8 }, () => 480));
  expect(posted[1]?.microphone[0]).toBeCloseTo(480 / 10_000, 6);
  expect(posted[7]?.microphone[479]).toBeCloseTo((8 * 480 - 1) / 10_000, 6);
  expect(posted[0]?.reference.every((value) => value === 0)).toBe(true);
  expect(posted[7]?.reference[479]).toBeCloseTo(-(8 * 480 - 1) / 10_000, 6);
});
