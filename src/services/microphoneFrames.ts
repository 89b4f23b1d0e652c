/**
 * The microphone's samples on the main thread: the stream goes through an AudioWorklet
 * (micFrames.worklet.ts) that cuts it into frames of 20 ms and posts each here, with the samples
 * the page played at the same moment (the coach's own voice, whose echo the microphone may hear).
 * The live coach's session decides on them what is the visitor.
 */
import { pageAudioContext, playbackReference } from './audioOutput';
import type { MicrophoneFrame } from './micFrames.worklet';

export type { MicrophoneFrame };

export interface MicrophoneFrames {
  /** The frames' sample rate (the page's audio context). */
  readonly sampleRate: number;
  /** Stops the frames (the stream itself stays open; the microphone module releases it). */
  stop(): void;
}

let moduleLoaded: Promise<void> | null = null;

export async function listenToFrames(stream: MediaStream, onFrame: (frame: MicrophoneFrame) => void): Promise<MicrophoneFrames> {
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
  const frames = new AudioWorkletNode(context, 'mic-frames', { numberOfInputs: 2, numberOfOutputs: 1, outputChannelCount: [1] });
  // A worklet is only processed while connected to the graph; a muted gain keeps it running silently.
  const mute = context.createGain();
  mute.gain.value = 0;
  source.connect(frames, 0, 0).connect(mute).connect(context.destination);
  const played = playbackReference();
  played?.connect(frames, 0, 1);

  let stopped = false;
  frames.port.onmessage = (event: MessageEvent<MicrophoneFrame>) => {
    if (!stopped) onFrame(event.data);
  };
  return {
    sampleRate: context.sampleRate,
    stop() {
      if (stopped) return;
      stopped = true;
      frames.port.onmessage = null;
      source.disconnect();
      played?.disconnect(frames);
      frames.disconnect();
      mute.disconnect();
    },
  };
}
