/**
 * Listens to the microphone stream for the visitor's voice: the microphone's samples go through an
 * AudioWorklet (micFrames.worklet.ts) in frames of 20 ms to the detector in src/lib/voiceActivity.ts,
 * together with the loudness of what the coach plays at that moment (its echo guard). Used by the
 * hands-free mode (barge-in by voice, the end of an utterance on the speech-to-text path) and for
 * the early start of a reply.
 */
import { createVoiceActivityDetector } from '../lib/voiceActivity';
import { pageAudioContext } from './audioOutput';

export interface VoiceActivityHandlers {
  /** Probably the visitor (100 ms of voice); not decided yet. */
  onSpeechMaybe(): void;
  /** It was not the visitor after all (a cough, a click). */
  onSpeechDropped(): void;
  /** The visitor started speaking (at least 250 ms of speech). */
  onSpeechStart(): void;
  /** The visitor stopped speaking (700 ms of silence after speech). */
  onSpeechEnd(): void;
  /** The loudness (RMS) of what the coach plays right now; 0 when silent. */
  playbackLevel(): number;
}

export interface VoiceActivityWatch {
  /** Milliseconds since the last speech frame. */
  silenceMs(): number;
  /** Forgets what was heard (a new utterance starts). */
  reset(): void;
  /** Stops listening (the stream itself stays open; the microphone module releases it). */
  stop(): void;
}

let moduleLoaded: Promise<void> | null = null;

export async function watchVoiceActivity(stream: MediaStream, handlers: VoiceActivityHandlers): Promise<VoiceActivityWatch> {
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

  const detector = createVoiceActivityDetector({ sampleRate: context.sampleRate });
  let stopped = false;
  frames.port.onmessage = (event: MessageEvent<Float32Array>) => {
    if (stopped) return;
    for (const change of detector.push(event.data, handlers.playbackLevel())) {
      if (change === 'speech-maybe') handlers.onSpeechMaybe();
      else if (change === 'speech-dropped') handlers.onSpeechDropped();
      else if (change === 'speech-start') handlers.onSpeechStart();
      else handlers.onSpeechEnd();
    }
  };
  return {
    silenceMs: () => detector.silenceMs,
    reset: () => detector.reset(),
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
