import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { persona } from '../../config/persona';
import { holdOutput, releaseOutput, unlockAudio } from '../../services/audioOutput';
import { CoachCallError, preloadCoach, sendRating } from '../../services/coach';
import type { Utterance } from '../../services/speechToText';
import {
  isSpeechRecognitionSupported,
  SpeechRecognitionError,
  startRecognition,
  type RecognitionProblem,
  type RecognitionSession,
} from '../../services/speechRecognition';
import { sameUtterance } from '../../lib/utterance';
import { chatReducer, initialChatState, nextRequest, type ChatState } from './chatState';
import { useHandsFreePreference } from './handsFree';
import { coachTexts } from './texts';
import { useVoiceDetection } from './useVoiceDetection';
import { clickAction, initialVoiceState, voiceButtonReducer, type VoiceState } from './voiceButtonMachine';

const recognitionMessages: Record<RecognitionProblem, string> = {
  denied: coachTexts.errors.microphoneDenied,
  noSpeech: coachTexts.errors.noSpeech,
  unsupported: coachTexts.errors.unsupported,
  failed: coachTexts.errors.processing,
};

function recognitionMessage(error: unknown): string {
  return error instanceof SpeechRecognitionError ? recognitionMessages[error.problem] : coachTexts.errors.processing;
}

/**
 * Timing marks for `npm run bench:voice` (harmless elsewhere): from the visitor's final words to
 * the first speakable piece and to the first sound.
 */
function mark(name: 'transcript' | 'first-chunk' | 'first-audio'): void {
  performance.mark(`coach:${name}`);
}

/** Voice input by recording (loaded when first needed: the page's first download stays small). */
const voiceInput = () => Promise.all([import('../../services/microphone'), import('../../services/speechToText')]);

const canRecord = () => typeof window !== 'undefined' && typeof window.MediaRecorder === 'function';

function serverTranscriptionAvailable(): Promise<boolean> {
  return voiceInput().then(
    ([, speechToText]) => speechToText.serverTranscriptionAvailable(),
    () => false,
  );
}

/** How long the interim words must stay the same before the reply starts speculatively. */
const SPECULATION_DELAY_MS = 400;
/** With the microphone open, the voice detector must also have heard this much silence. */
const SPECULATION_SILENCE_MS = 300;
/** Recording without a single word for this long ends as 'Keine Sprache erkannt…' (speech-to-text path). */
const NO_SPEECH_MS = 8_000;
/**
 * The browser's recognition service is unreachable, switched off, or cannot capture (Chromium
 * without Google's speech service): record and transcribe instead.
 */
const SERVICE_FAILURES = new Set(['network', 'service-not-allowed', 'audio-capture', 'language-not-supported']);

/** A reply in progress; a speculative one waits for `confirm()` (or is dropped by `cancel()`). */
interface PendingReply {
  text: string;
  confirm(): void;
  cancel(): void;
}

let nextId = 0;
function newId(): string {
  nextId += 1;
  return `m${nextId}`;
}

/**
 * The live coach's behaviour: the voice button's state machine and the chat, with the effects that
 * drive them (recognition, the coach call, speech). The UI renders what this returns.
 */
export function useLiveCoach() {
  const [voice, dispatchVoice] = useReducer(voiceButtonReducer, initialVoiceState);
  const [chat, dispatchChat] = useReducer(chatReducer, initialChatState);

  // Effects read the latest chat through a ref: a transcript arrives in a callback that was set
  // up several renders earlier.
  const chatRef = useRef<ChatState>(chat);
  useEffect(() => {
    chatRef.current = chat;
  }, [chat]);
  const recognition = useRef<RecognitionSession | null>(null);
  const speech = useRef<AbortController | null>(null);
  const voiceRef = useRef<VoiceState>(voice);
  useEffect(() => {
    voiceRef.current = voice;
  }, [voice]);

  const [handsFree, setHandsFree] = useHandsFreePreference();
  /** The utterance being recorded for the stt function (browsers without their own recognition). */
  const utterance = useRef<Utterance | null>(null);
  const [recording, setRecording] = useState(false);
  /** The browser's recognition service failed (e.g. Chromium without Google's service): record instead. */
  const recognitionBroken = useRef(false);
  /** Whether the stt function has a provider; null until asked (when the chat opens). */
  const serverTranscription = useRef<boolean | null>(null);
  /** The visitor stopped listening with a click: hands-free waits for the next answer. */
  const pausedByVisitor = useRef(false);

  /** Stops whatever the coach is saying or fetching right now. */
  const silence = useCallback(() => {
    speech.current?.abort();
    speech.current = null;
  }, []);

  const speculation = useRef<PendingReply | null>(null);
  const speculationTimer = useRef<number | null>(null);
  /** Whether the visitor has been silent long enough for a speculative start (the voice detector's say, when it runs). */
  const silentLongEnough = useRef<() => boolean>(() => true);

  const stopListening = useCallback(() => {
    recognition.current?.abort();
    recognition.current = null;
    utterance.current?.abort();
    utterance.current = null;
    setRecording(false);
    if (speculationTimer.current !== null) clearTimeout(speculationTimer.current);
    speculationTimer.current = null;
    speculation.current?.cancel();
    speculation.current = null;
  }, []);

  useEffect(
    () => () => {
      silence();
      stopListening();
    },
    [silence, stopListening],
  );

  /**
   * Starts the coach's reply to `text`. A speculative reply (started on a stable interim result
   * while the recogniser still waits for the end of speech) runs the same way, but shows and plays
   * nothing until `confirm()`: its chat updates and voice events are held, its audio is gated.
   */
  const startReply = useCallback(
    (text: string, { speculative = false }: { speculative?: boolean } = {}): PendingReply => {
      silence();
      const controller = new AbortController();
      speech.current = controller;
      let confirmed = !speculative;
      const held: (() => void)[] = [];
      const run = (action: () => void) => {
        if (confirmed) action();
        else held.push(action);
      };
      let openGate: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      if (confirmed) openGate();

      const { history, conversationId } = nextRequest(chatRef.current, text);
      const replyId = newId();
      run(() => {
        dispatchChat({ type: 'USER', id: newId(), text });
        dispatchChat({ type: 'REPLY_START', id: replyId });
      });
      void (async () => {
        try {
          // The answer's machinery loads with the first click (the greeting), not with the page.
          const { runReply } = await import('./replyPipeline');
          const outcome = await runReply(history, {
            conversationId,
            signal: controller.signal,
            gate,
            onMeta: ({ conversationId: id, mode }) => run(() => dispatchChat({ type: 'META', conversationId: id, mode })),
            onText: (reply) => run(() => dispatchChat({ type: 'REPLY_TEXT', id: replyId, text: reply })),
            onFirstChunk: () => mark('first-chunk'),
            onSpeaking: () => {
              mark('first-audio');
              dispatchVoice({ type: 'SPEAKING' });
            },
            onPlaybackProblem: (message) => run(() => dispatchVoice({ type: 'NOTICE', message })),
          });
          run(() => {
            dispatchChat({ type: 'REPLY_END', id: replyId });
            if (outcome.kind === 'empty') dispatchChat({ type: 'REPLY_ERROR', id: replyId, message: coachTexts.errors.noReply });
            if (outcome.kind === 'broken') dispatchVoice({ type: 'FAILED', message: coachTexts.errors.processing });
            else dispatchVoice({ type: 'DONE' });
          });
        } catch (error) {
          if (controller.signal.aborted) {
            // Cut short on purpose: keep what was shown, drop an empty bubble's cursor.
            if (confirmed) dispatchChat({ type: 'REPLY_END', id: replyId });
            return;
          }
          // The catalogue messages appear as the coach's answer; they are not spoken, because the
          // voice usually fails for the same reason the call did.
          const message = error instanceof CoachCallError ? coachTexts.errors.callFailed : coachTexts.errors.processing;
          run(() => {
            dispatchChat({ type: 'REPLY_ERROR', id: replyId, message });
            dispatchVoice({ type: 'DONE' });
          });
        } finally {
          if (speech.current === controller && controller.signal.aborted) speech.current = null;
        }
      })();
      return {
        text,
        cancel: () => {
          if (confirmed) return;
          controller.abort();
          if (speech.current === controller) speech.current = null;
        },
        confirm: () => {
          if (confirmed) return;
          confirmed = true;
          held.splice(0).forEach((action) => action());
          openGate();
        },
      };
    },
    [silence],
  );

  const ask = useCallback((text: string) => void startReply(text), [startReply]);

  const cancelSpeculation = useCallback(() => {
    if (speculationTimer.current !== null) clearTimeout(speculationTimer.current);
    speculationTimer.current = null;
    speculation.current?.cancel();
    speculation.current = null;
  }, []);

  /**
   * The recogniser waits for a long pause before it calls the words final. When the interim words
   * have not changed for a moment (and, with the microphone open, the voice detector hears
   * silence), the reply starts already; the final transcript then only confirms it.
   */
  const considerSpeculation = useCallback(
    (interim: string) => {
      if (speculation.current && !sameUtterance(speculation.current.text, interim)) cancelSpeculation();
      if (speculationTimer.current !== null) clearTimeout(speculationTimer.current);
      speculationTimer.current = null;
      if (speculation.current || interim.trim() === '') return;
      const check = (delay: number) => {
        speculationTimer.current = window.setTimeout(() => {
          speculationTimer.current = null;
          if (!recognition.current) return;
          // Still hearing the visitor: look again shortly.
          if (!silentLongEnough.current()) check(100);
          else speculation.current = startReply(interim, { speculative: true });
        }, delay);
      };
      check(SPECULATION_DELAY_MS);
    },
    [cancelSpeculation, startReply],
  );

  /** Ends a listening session that failed or heard nothing. */
  const listenFailed = useCallback(
    (error: unknown) => {
      recognition.current = null;
      utterance.current = null;
      setRecording(false);
      cancelSpeculation();
      dispatchVoice({ type: 'LISTEN_ERROR', message: recognitionMessage(error) });
    },
    [cancelSpeculation],
  );

  /** The visitor's final words: confirm the early reply if it guessed them, else ask. */
  const heard = useCallback(
    (text: string) => {
      const started = speculation.current;
      speculation.current = null;
      if (speculationTimer.current !== null) clearTimeout(speculationTimer.current);
      speculationTimer.current = null;
      dispatchVoice({ type: 'TRANSCRIPT', text });
      if (text === '') {
        started?.cancel();
        return;
      }
      mark('transcript');
      if (started && sameUtterance(started.text, text)) started.confirm();
      else {
        started?.cancel();
        ask(text);
      }
    },
    [ask],
  );

  /** Whether the visitor's voice should interrupt the coach right now. */
  const interruptible = () => handsFree && !pausedByVisitor.current && voiceRef.current.status === 'speaking';
  const detection = useVoiceDetection(chat.open && !chat.ended && (handsFree || recording), {
    // Probably the visitor: the coach goes quiet at once, keeping its place while it is decided…
    onSpeechMaybe: () => {
      if (interruptible()) holdOutput();
    },
    // …and goes on if it was a cough.
    onSpeechDropped: () => {
      if (interruptible()) releaseOutput();
    },
    onSpeechStart: () => {
      if (!handsFree || pausedByVisitor.current) return;
      // Barge-in by voice: the visitor's own voice stops the coach and is listened to.
      if (voiceRef.current.status === 'speaking') bargeInRef.current();
      else if (voiceRef.current.status === 'ready') listenRef.current();
    },
    // The end of an utterance on the speech-to-text path.
    onSpeechEnd: () => utterance.current?.stop(),
    onProblem: (error) => dispatchVoice({ type: 'NOTICE', message: recognitionMessage(error) }),
  });
  useEffect(() => {
    silentLongEnough.current = () => (detection.silenceMs() ?? SPECULATION_SILENCE_MS) >= SPECULATION_SILENCE_MS;
  }, [detection]);

  /** Records an utterance and has the stt function transcribe it (no recogniser in this browser). */
  const listenByRecording = useCallback(() => {
    setRecording(true);
    voiceInput().then(async ([microphone, speechToText]) => {
      const stream = await microphone.openMicrophone();
      if (voiceRef.current.status !== 'listening') return;
      detection.resetHeard();
      const current = speechToText.recordUtterance(stream);
      utterance.current = current;
      const noSpeech = window.setTimeout(() => {
        if (!detection.heardSpeech()) current.stop();
      }, NO_SPEECH_MS);
      void current.recorded.then(() => {
        clearTimeout(noSpeech);
        if (utterance.current !== current) return;
        // The detector heard no word: nothing to send.
        if (detection.silenceMs() !== null && !detection.heardSpeech()) {
          current.abort();
          listenFailed(new SpeechRecognitionError('noSpeech', 'no speech'));
          return;
        }
        dispatchVoice({ type: 'TRANSCRIBING' });
      });
      current.transcript.then(
        (text) => {
          if (utterance.current !== current) return;
          utterance.current = null;
          setRecording(false);
          if (text === '') listenFailed(new SpeechRecognitionError('noSpeech', 'empty transcript'));
          else heard(text);
        },
        (error: unknown) => {
          if (utterance.current !== current) return;
          listenFailed(error);
        },
      );
    }).catch(listenFailed);
  }, [detection, heard, listenFailed]);

  /** The browser's own recogniser (Chrome, Safari). */
  const listenWithRecogniser = useCallback(() => {
    /** The recogniser failed and recording took over: its end is not the end of listening. */
    let replaced = false;
    try {
      recognition.current = startRecognition({
        onInterim: (text) => {
          dispatchVoice({ type: 'INTERIM', text });
          considerSpeculation(text);
        },
        onFinal: (text) => {
          recognition.current = null;
          heard(text);
        },
        onError: (error) => {
          if (SERVICE_FAILURES.has(error.code) && serverTranscription.current === true && canRecord()) {
            // The recogniser's service is not there: go on listening by recording.
            recognitionBroken.current = true;
            replaced = true;
            recognition.current = null;
            cancelSpeculation();
            listenByRecording();
            return;
          }
          listenFailed(error);
        },
        onEnd: () => {
          if (replaced) return;
          recognition.current = null;
          cancelSpeculation();
          dispatchVoice({ type: 'LISTEN_END' });
        },
      });
    } catch (error) {
      listenFailed(error);
    }
  }, [considerSpeculation, cancelSpeculation, heard, listenByRecording, listenFailed]);

  /** Starts listening (from ready, or from speaking as a barge-in) with whatever this browser has. */
  const listen = useCallback(() => {
    pausedByVisitor.current = false;
    if (isSpeechRecognitionSupported() && !recognitionBroken.current) {
      dispatchVoice({ type: 'LISTEN' });
      listenWithRecogniser();
      return;
    }
    const start = (available: boolean) => {
      serverTranscription.current = available;
      if (available && canRecord()) {
        dispatchVoice({ type: 'LISTEN' });
        listenByRecording();
      } else {
        // From speaking (a barge-in) the button first comes back to ready.
        dispatchVoice({ type: 'DONE' });
        dispatchVoice({ type: 'UNSUPPORTED' });
      }
    };
    if (serverTranscription.current !== null) start(serverTranscription.current);
    else void serverTranscriptionAvailable().then(start);
  }, [listenWithRecogniser, listenByRecording]);

  const bargeIn = useCallback(() => {
    silence();
    listen();
  }, [silence, listen]);
  const listenRef = useRef(listen);
  const bargeInRef = useRef(bargeIn);
  useEffect(() => {
    listenRef.current = listen;
    bargeInRef.current = bargeIn;
  }, [listen, bargeIn]);

  // Hands-free: once the coach has spoken (or on switching it on while ready), listen again by itself.
  useEffect(() => {
    if (!handsFree || !chat.open || chat.ended || pausedByVisitor.current) return;
    if (voice.status === 'ready' && voice.hint === 'ready') listen();
  }, [handsFree, chat.open, chat.ended, voice.status, voice.hint, listen]);

  const greet = useCallback(() => {
    dispatchVoice({ type: 'OPEN' });
    dispatchChat({ type: 'OPEN', greeting: persona.greeting });
    preloadCoach();
    void serverTranscriptionAvailable().then((available) => {
      serverTranscription.current = available;
    });
    const controller = new AbortController();
    speech.current = controller;
    import('./speechQueue')
      .then(({ createSpeechQueue }) => {
        const queue = createSpeechQueue({
          signal: controller.signal,
          onStart: () => undefined,
          onProblem: (message) => dispatchVoice({ type: 'NOTICE', message }),
        });
        // The same text every time: the function serves it from its cache.
        queue.enqueue(persona.greeting, { cache: true });
        return queue.finished();
      })
      .catch(() => {
        // The code could not be loaded (connection lost): the greeting stays readable.
        dispatchVoice({ type: 'NOTICE', message: coachTexts.errors.playback });
      })
      .finally(() => {
        if (controller.signal.aborted) return;
        speech.current = null;
        dispatchVoice({ type: 'DONE' });
      });
  }, []);

  const click = useCallback(() => {
    // Inside the click: browsers (iOS above all) only let a gesture start audio.
    unlockAudio();
    switch (clickAction(voice.status)) {
      case 'open':
        greet();
        return;
      case 'listen':
        listen();
        return;
      case 'stop':
        // What was said so far still arrives as the final transcript and is sent.
        pausedByVisitor.current = true;
        recognition.current?.stop();
        utterance.current?.stop();
        return;
      case 'bargeIn':
        bargeIn();
        return;
      case 'none':
        return;
    }
  }, [voice.status, greet, listen, bargeIn]);

  const sendText = useCallback(
    (text: string): boolean => {
      const trimmed = text.trim();
      if (trimmed === '' || voice.status === 'processing' || voice.status === 'idle') return false;
      unlockAudio();
      stopListening();
      dispatchVoice({ type: 'SEND_TEXT' });
      ask(trimmed);
      return true;
    },
    [voice.status, ask, stopListening],
  );

  const endConversation = useCallback(() => {
    silence();
    stopListening();
    dispatchVoice({ type: 'CANCEL' });
    dispatchChat({ type: 'END' });
  }, [silence, stopListening]);

  const rate = useCallback((value: number) => {
    const { conversationId } = chatRef.current;
    if (!conversationId) return;
    dispatchChat({ type: 'RATING', status: 'sending', value });
    sendRating(conversationId, value).then(
      () => dispatchChat({ type: 'RATING', status: 'sent', value }),
      () => dispatchChat({ type: 'RATING', status: 'failed', value }),
    );
  }, []);

  return { voice, chat, click, sendText, endConversation, rate, handsFree, setHandsFree };
}
