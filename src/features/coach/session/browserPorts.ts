/**
 * The coach session's ports in the browser. The audio output, the recogniser and the coach call
 * are small and come with the page (the click must unlock audio synchronously); the speech queue,
 * the microphone and the recorder load when first needed, so the coach page's first download stays
 * small.
 */
import { holdOutput, playbackLevel, releaseOutput, unlockAudio } from '../../../services/audioOutput';
import { preloadCoach, sendRating, startCoachReply } from '../../../services/coach';
import { isSpeechRecognitionSupported, startRecognition } from '../../../services/speechRecognition';
import { handsFreePreference } from './handsFree';
import type { CoachPorts, MicrophoneFeed } from './ports';

const voiceInput = () =>
  Promise.all([import('../../../services/microphone'), import('../../../services/microphoneFrames'), import('../../../services/speechToText')]);

async function openMicrophone(onFrame: (frame: Float32Array) => void): Promise<MicrophoneFeed> {
  const [microphone, microphoneFrames, speechToText] = await voiceInput();
  const stream = await microphone.openMicrophone();
  try {
    const frames = await microphoneFrames.listenToFrames(stream, onFrame);
    return {
      sampleRate: frames.sampleRate,
      record: () => speechToText.recordUtterance(stream),
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
      canRecord: () => typeof window !== 'undefined' && typeof window.MediaRecorder === 'function',
    },
    audio: { unlock: unlockAudio, hold: holdOutput, release: releaseOutput, level: playbackLevel },
    speech: () => import('../../../services/speechQueue').then(({ createSpeechQueue }) => ({ createQueue: createSpeechQueue })),
    coach: {
      preload: preloadCoach,
      startReply: (history, options) => startCoachReply(history, options),
      rate: sendRating,
    },
    handsFree: handsFreePreference,
    onPageHide(listener) {
      window.addEventListener('pagehide', listener);
      return () => window.removeEventListener('pagehide', listener);
    },
  };
}
