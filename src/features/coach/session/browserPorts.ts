/**
 * The coach session's ports in the browser. The audio output, the recogniser and the coach call
 * are small and come with the page (the click must unlock audio synchronously); the speech queue,
 * the microphone and the recorder load when first needed, so the coach page's first download stays
 * small.
 */
import { audioOutput, holdOutput, releaseOutput, unlockAudio } from '../../../services/audioOutput';
import { preloadCoach, sendRating, startCoachReply, warmUpCoach } from '../../../services/coach';
import { isSpeechRecognitionSupported, startRecognition } from '../../../services/speechRecognition';
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
const INTENT_EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

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
    audio: {
      unlock: unlockAudio,
      // A failure here is reported by the first piece that needs the output.
      prepare: () => void audioOutput().catch(() => undefined),
      hold: holdOutput,
      release: releaseOutput,
    },
    speech: loadSpeech,
    coach: {
      preload: preloadCoach,
      warmUp: warmUpCoach,
      startReply: (history, options) => startCoachReply(history, options),
      rate: sendRating,
    },
    handsFree: handsFreePreference,
    warmUp() {
      // The visitor's first pointer movement, touch, key or focus: before the click that opens the
      // conversation, but after the page has loaded (a load that also fetched and ran the speech
      // code would compete with the page's own first work).
      const load = () => {
        stop();
        void loadSpeech();
        void import('../../../services/tts').then(({ voiceProviderAvailable }) => voiceProviderAvailable());
      };
      const stop = () => {
        for (const type of INTENT_EVENTS) window.removeEventListener(type, load, true);
      };
      for (const type of INTENT_EVENTS) window.addEventListener(type, load, { capture: true, passive: true });
      return stop;
    },
    onPageHide(listener) {
      window.addEventListener('pagehide', listener);
      return () => window.removeEventListener('pagehide', listener);
    },
  };
}
