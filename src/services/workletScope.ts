/**
 * The AudioWorkletGlobalScope's names the worklets use (not in TypeScript's DOM library), read off
 * the global object instead of declaring globals that would leak into every other file. Imported
 * only by the worklet files, each bundled on its own.
 */
interface ProcessorBase {
  readonly port: MessagePort;
}

interface WorkletScope {
  AudioWorkletProcessor: new () => ProcessorBase;
  registerProcessor(name: string, processor: new () => ProcessorBase): void;
  sampleRate: number;
}

export const scope = globalThis as unknown as WorkletScope;
