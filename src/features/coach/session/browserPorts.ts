/**
 * The coach session's ports in the browser. The audio output, the recogniser and the coach call
 * are small and come with the page (the click must unlock audio synchronously); the speech queue,
 * the microphone and the recorder load when first needed, so the coach page's first download stays
 * small.
 */
import { audioOutput, holdOutput, releaseOutput, unlockAudio } from '../../../services/audioOutput';
import { preloadCoach, sendRating, startCoachReply } from '../../../services/coach';
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
      startReply: (history, options) => startCoachReply(history, options),
      rate: sendRating,
    },
    handsFree: handsFreePreference,
    warmUp() {
      const load = () => {
        void loadSpeech();
        void import('../../../services/tts').then(({ voiceProviderAvailable }) => voiceProviderAvailable());
      };
      if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(load, { timeout: 3_000 });
      else setTimeout(load, 1_000);
    },
    onPageHide(listener) {
      window.addEventListener('pagehide', listener);
      return () => window.removeEventListener('pagehide', listener);
    },
  };
}
