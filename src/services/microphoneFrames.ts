/**
 * The microphone's samples on the main thread: the stream goes through an AudioWorklet
 * (micFrames.worklet.ts) that cuts it into frames of 20 ms and posts each here. The live coach's
 * session runs its voice activity detector (src/lib/voiceActivity.ts) on them.
 */
import { pageAudioContext } from './audioOutput';

export interface MicrophoneFrames {
  /** The frames' sample rate (the page's audio context). */
  readonly sampleRate: number;
  /** Stops the frames (the stream itself stays open; the microphone module releases it). */
  stop(): void;
}

let moduleLoaded: Promise<void> | null = null;

export async function listenToFrames(stream: MediaStream, onFrame: (frame: Float32Array) => void): Promise<MicrophoneFrames> {
  const context = pageAudioContext();
  if (!context) throw new Error('Web Audio unsupported');
  moduleLoaded ??= import('./micFrames.worklet?worker&url').then(({ default: url }) => context.audioWorklet.addModule(url));
  try {
    await moduleLoaded;
  } catch (error) {
    moduleLoaded = null;
    throw error;
  }
  const source = context.createMediaStreamSource(stream);
  const frames = new AudioWorkletNode(context, 'mic-frames', { numberOfOutputs: 1, outputChannelCount: [1] });
  // A worklet is only processed while connected to the graph; a muted gain keeps it running silently.
  const mute = context.createGain();
  mute.gain.value = 0;
  source.connect(frames).connect(mute).connect(context.destination);

  let stopped = false;
  frames.port.onmessage = (event: MessageEvent<Float32Array>) => {
    if (!stopped) onFrame(event.data);
  };
  return {
    sampleRate: context.sampleRate,
    stop() {
      if (stopped) return;
      stopped = true;
      frames.port.onmessage = null;
      source.disconnect();
      frames.disconnect();
      mute.disconnect();
    },
  };
}
