/**
 * The coach session's ports in the browser. The audio output, the recogniser, the coach call and
 * the stream to the `stt-stream` function are small and come with the page (the click must unlock
 * audio synchronously); the speech queue, the microphone and the recorder load when first needed,
 * so the coach page's first download stays small.
 */
import { audioOutput, holdOutput, releaseOutput, unlockAudio } from '../../../services/audioOutput';
import { preloadCoach, sendRating, startCoachReply, warmUpCoach } from '../../../services/coach';
import { isSpeechRecognitionSupported, startRecognition } from '../../../services/speechRecognition';
import { openSpeechStream, speechStreamCapability } from '../../../services/speechStream';
import { handsFreePreference } from './handsFree';
import type { CoachPorts, FrameListener, MicrophoneFeed } from './ports';

const voiceInput = () =>
  Promise.all([import('../../../services/microphone'), import('../../../services/microphoneFrames'), import('../../../services/speechToText')]);

async function openMicrophone(onFrame: FrameListener): Promise<MicrophoneFeed> {
  const [microphone, microphoneFrames] = await voiceInput();
  const stream = await microphone.openMicrophone();
  try {
    const frames = await microphoneFrames.listenToFrames(stream, ({ microphone: samples, reference }) => onFrame(samples, reference));
    return {
      sampleRate: frames.sampleRate,
      close() {
        frames.stop();
        microphone.releaseMicrophone();
      },
    };
  } catch (error) {
    microphone.releaseMicrophone();
    throw error;
  }
}

/** What shows that a visitor is about to use the page. */
export const INTENT_EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/** Runs `load` once, at the visitor's first sign of intent on `target`; returns what stops waiting for it. */
export function onFirstIntent(target: EventTarget, load: () => void): () => void {
  const stop = () => {
    for (const type of INTENT_EVENTS) target.removeEventListener(type, run, true);
  };
  const run = () => {
    stop();
    load();
  };
  for (const type of INTENT_EVENTS) target.addEventListener(type, run, { capture: true, passive: true });
  return stop;
}

const loadSpeech = () => import('../../../services/speechQueue').then(({ createSpeechQueue }) => ({ createQueue: createSpeechQueue }));

export function browserPorts(): CoachPorts {
  return {
    recognition: { supported: isSpeechRecognitionSupported, start: startRecognition },
    microphone: { open: openMicrophone },
    transcription: {
      available: () =>
        voiceInput().then(
          ([, , speechToText]) => speechToText.serverTranscriptionAvailable(),
          () => false,
        ),
      canRecord: () => typeof window !== 'undefined' && typeof window.AudioWorkletNode === 'function',
      transcribe: (samples, sampleRate, options) =>
        voiceInput().then(([, , speechToText]) => speechToText.transcribeSpeech(samples, sampleRate, options)),
    },
    streaming: {
      capability: speechStreamCapability,
      canStream: () => typeof window !== 'undefined' && typeof window.AudioWorkletNode === 'function' && typeof window.WebSocket === 'function',
      open: (handlers) => openSpeechStream(handlers),
    },
    audio: {
      unlock: unlockAudio,
      // A failure here is reported by the first piece that needs the output.
      prepare: () => void audioOutput().catch(() => undefined),
      hold: holdOutput,
      release: releaseOutput,
    },
    speech: loadSpeech,
    coach: {
      preload: () => void preloadCoach(),
      warmUp: () => void warmUpCoach(),
      startReply: (history, options) => startCoachReply(history, options),
      rate: sendRating,
    },
    handsFree: handsFreePreference,
    // The visitor's first pointer movement, touch, key or focus: before the click that opens the
    // conversation, but after the page has loaded (a load that also fetched and ran the speech
    // code would compete with the page's own first work).
    warmUp: () =>
      onFirstIntent(window, () => {
        void loadSpeech();
        void import('../../../services/tts').then(({ voiceProviderAvailable }) => voiceProviderAvailable());
        // Which service may hear the visitor's voice, known before the first turn.
        void speechStreamCapability();
      }),
    onPageHide(listener) {
      window.addEventListener('pagehide', listener);
      return () => window.removeEventListener('pagehide', listener);
    },
  };
}
