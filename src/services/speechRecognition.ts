/**
 * The browser's speech recognition (Web Speech API), German, one utterance with interim results.
 * The constructor is looked up on every call, never at module load: the end-to-end tests define a
 * fake `window.SpeechRecognition` before the app starts, and a browser may gain it later.
 */

/** The part of the Web Speech API used here (TypeScript's DOM library does not declare it). */
interface RecognitionAlternative {
  readonly transcript: string;
}
interface RecognitionResult {
  readonly isFinal: boolean;
  readonly length: number;
  readonly [index: number]: RecognitionAlternative | undefined;
}
interface RecognitionResultList {
  readonly length: number;
  readonly [index: number]: RecognitionResult | undefined;
}
export interface RecognitionResultEvent {
  readonly resultIndex: number;
  readonly results: RecognitionResultList;
}
export interface RecognitionErrorEvent {
  readonly error: string;
}
export interface BrowserSpeechRecognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: RecognitionResultEvent) => void) | null;
  onerror: ((event: RecognitionErrorEvent) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
export type BrowserSpeechRecognitionConstructor = new () => BrowserSpeechRecognition;

declare global {
  interface Window {
    SpeechRecognition?: BrowserSpeechRecognitionConstructor;
    webkitSpeechRecognition?: BrowserSpeechRecognitionConstructor;
  }
}

/** The catalogue messages the recognition can end with (texts live with the coach feature). */
export type RecognitionProblem = 'denied' | 'noSpeech' | 'unsupported' | 'failed';

export class SpeechRecognitionError extends Error {
  constructor(readonly problem: RecognitionProblem, readonly code: string) {
    super(`speech recognition: ${code}`);
    this.name = 'SpeechRecognitionError';
  }
}

function recognitionConstructor(): BrowserSpeechRecognitionConstructor | null {
  if (typeof window === 'undefined') return null;
  return window.SpeechRecognition ?? window.webkitSpeechRecognition ?? null;
}

export function isSpeechRecognitionSupported(): boolean {
  return recognitionConstructor() !== null;
}

export interface RecognitionHandlers {
  /** The words heard so far (interim and final parts together), for the live caption. */
  onInterim(text: string): void;
  /** The final transcript, trimmed; may be empty. Called at most once. */
  onFinal(text: string): void;
  onError(error: SpeechRecognitionError): void;
  /** Recognition is over; called once, after onFinal or onError if they came. */
  onEnd(): void;
}

export interface RecognitionSession {
  /** Ends recording; what was said so far still arrives as the final transcript. */
  stop(): void;
  /** Ends recording and drops what was said; no more callbacks. */
  abort(): void;
}

function mapError(code: string): RecognitionProblem {
  if (code === 'not-allowed' || code === 'service-not-allowed') return 'denied';
  if (code === 'no-speech') return 'noSpeech';
  return 'failed';
}

/**
 * Starts listening. Throws SpeechRecognitionError('unsupported') when the browser has no speech
 * recognition; every later outcome arrives through the handlers.
 */
export function startRecognition(handlers: RecognitionHandlers): RecognitionSession {
  const Recognition = recognitionConstructor();
  if (!Recognition) throw new SpeechRecognitionError('unsupported', 'unsupported');
  const recognition = new Recognition();
  recognition.lang = 'de-DE';
  recognition.continuous = false;
  recognition.interimResults = true;
  recognition.maxAlternatives = 1;

  let finished = false;
  let finalSent = false;
  let finalText = '';

  const sendFinal = () => {
    if (finalSent || finished) return;
    finalSent = true;
    handlers.onFinal(finalText.trim());
  };

  recognition.onresult = (event) => {
    if (finished) return;
    let heard = '';
    let final = '';
    let allFinal = event.results.length > 0;
    for (let index = 0; index < event.results.length; index += 1) {
      const result = event.results[index];
      const transcript = result?.[0]?.transcript ?? '';
      heard += transcript;
      if (result?.isFinal) final += transcript;
      else allFinal = false;
    }
    finalText = final;
    handlers.onInterim(heard.trim());
    // One utterance: once every result is final, the transcript is complete; send it at once
    // rather than waiting for the recogniser's end event.
    if (allFinal) sendFinal();
  };
  recognition.onerror = (event) => {
    if (finished) return;
    // 'aborted' is our own abort(); nothing to report.
    if (event.error === 'aborted') return;
    finalSent = true;
    handlers.onError(new SpeechRecognitionError(mapError(event.error), event.error));
  };
  recognition.onend = () => {
    if (finished) return;
    sendFinal();
    finished = true;
    handlers.onEnd();
  };

  try {
    recognition.start();
  } catch (error) {
    finished = true;
    throw new SpeechRecognitionError('failed', error instanceof Error ? error.message : 'start failed');
  }

  return {
    stop: () => {
      if (!finished) recognition.stop();
    },
    abort: () => {
      if (finished) return;
      finished = true;
      recognition.abort();
    },
  };
}
