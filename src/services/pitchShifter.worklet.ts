/**
 * An AudioWorklet that changes pitch without changing tempo (a two-tap delay-line shifter): two
 * read heads move through a short delay line at `pitch` times the write speed, half a window apart,
 * and cross-fade so each head is silent while it jumps back. Light enough for speech, no FFT.
 * Loaded by audioPlayback.ts as a file of its own (`?worker&url`): the CSP allows no inline code.
 */

// The AudioWorkletGlobalScope's names (not in TypeScript's DOM library), read off the global object
// instead of declaring globals that would leak into every other file.
interface ProcessorBase {
  readonly port: MessagePort;
}
interface WorkletScope {
  AudioWorkletProcessor: new () => ProcessorBase;
  registerProcessor(name: string, processor: new () => ProcessorBase): void;
  sampleRate: number;
}
const scope = globalThis as unknown as WorkletScope;

const windowSeconds = 0.05;

function nextPowerOfTwo(value: number): number {
  let size = 1;
  while (size < value) size *= 2;
  return size;
}

class PitchShifter extends scope.AudioWorkletProcessor {
  static get parameterDescriptors() {
    return [{ name: 'pitch', defaultValue: 1, minValue: 0.25, maxValue: 4, automationRate: 'k-rate' }];
  }

  private readonly window = Math.max(64, Math.round(windowSeconds * scope.sampleRate));
  private readonly size = nextPowerOfTwo(this.window * 2 + 4);
  private readonly lines: Float32Array[] = [];
  private writeIndex = 0;
  private phase = 0;
  private running = true;

  constructor() {
    super();
    // The player says when the sentence is over, so the node can be collected.
    this.port.onmessage = () => {
      this.running = false;
    };
  }

  private read(line: Float32Array, delay: number): number {
    let position = this.writeIndex - delay;
    if (position < 0) position += this.size;
    const index = Math.floor(position);
    const fraction = position - index;
    const a = line[index & (this.size - 1)] ?? 0;
    const b = line[(index + 1) & (this.size - 1)] ?? 0;
    return a + (b - a) * fraction;
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean {
    const input = inputs[0] ?? [];
    const output = outputs[0] ?? [];
    const pitch = parameters.pitch?.[0] ?? 1;
    while (this.lines.length < output.length) this.lines.push(new Float32Array(this.size));
    // The delay shrinks (pitch > 1) or grows (pitch < 1) by (1 - pitch) samples per sample.
    const step = (1 - pitch) / this.window;
    const frames = output[0]?.length ?? 0;
    for (let frame = 0; frame < frames; frame += 1) {
      const next = this.phase + step;
      this.phase = next - Math.floor(next);
      const first = this.phase;
      const second = (first + 0.5) % 1;
      const gain = Math.sin(Math.PI * first) ** 2;
      for (let channel = 0; channel < output.length; channel += 1) {
        const line = this.lines[channel];
        const out = output[channel];
        if (!line || !out) continue;
        // A mono source feeds both output channels.
        line[this.writeIndex] = input[channel]?.[frame] ?? input[0]?.[frame] ?? 0;
        out[frame] =
          gain * this.read(line, first * this.window + 1) + (1 - gain) * this.read(line, second * this.window + 1);
      }
      this.writeIndex = (this.writeIndex + 1) & (this.size - 1);
    }
    return this.running;
  }
}

scope.registerProcessor('pitch-shifter', PitchShifter);
