/**
 * The page's one microphone stream, shared by the voice activity detector and the recorder of the
 * speech-to-text path. Opened with echo cancellation, noise suppression and automatic gain, so the
 * coach's own voice from the speakers is mostly removed before anything listens. `release()` stops
 * every track: the browser's recording indicator goes out when the chat closes or the page is left.
 */
import { SpeechRecognitionError } from './speechRecognition';

let stream: MediaStream | null = null;
let opening: Promise<MediaStream> | null = null;

function problemOf(error: unknown): SpeechRecognitionError {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return new SpeechRecognitionError('denied', name);
  return new SpeechRecognitionError('failed', name || 'getUserMedia failed');
}

/** The open stream (opened on first use). Rejects with SpeechRecognitionError: 'denied' or 'failed'. */
export function openMicrophone(): Promise<MediaStream> {
  if (stream?.active) return Promise.resolve(stream);
  if (opening) return opening;
  // Insecure pages (plain http on another host) have no mediaDevices at all.
  if (typeof navigator === 'undefined' || !('mediaDevices' in navigator)) {
    return Promise.reject(new SpeechRecognitionError('unsupported', 'getUserMedia unsupported'));
  }
  const request = navigator.mediaDevices
    .getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } })
    .then(
      (opened) => {
        // Released while the browser was still asking: give the device back at once.
        if (opening !== request) {
          opened.getTracks().forEach((track) => track.stop());
          throw new SpeechRecognitionError('failed', 'released');
        }
        stream = opened;
        opening = null;
        return opened;
      },
      (error: unknown) => {
        if (opening === request) opening = null;
        throw problemOf(error);
      },
    );
  opening = request;
  return request;
}

/** Whether the microphone is open right now. */
export function microphoneOpen(): boolean {
  return stream?.active === true;
}

/** Stops every track of the stream (and drops one still being opened). */
export function releaseMicrophone(): void {
  stream?.getTracks().forEach((track) => track.stop());
  stream = null;
  opening = null;
}
