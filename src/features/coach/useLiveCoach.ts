import { useCallback, useEffect, useReducer, useRef } from 'react';
import { persona } from '../../config/persona';
import { unlockAudio } from '../../services/audioOutput';
import { CoachCallError, preloadCoach, sendRating } from '../../services/coach';
import {
  isSpeechRecognitionSupported,
  SpeechRecognitionError,
  startRecognition,
  type RecognitionProblem,
  type RecognitionSession,
} from '../../services/speechRecognition';
import { sameUtterance } from '../../lib/utterance';
import { chatReducer, initialChatState, nextRequest, type ChatState } from './chatState';
import { runReply } from './replyPipeline';
import { createSpeechQueue } from './speechQueue';
import { coachTexts } from './texts';
import { clickAction, initialVoiceState, voiceButtonReducer } from './voiceButtonMachine';

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

/** How long the interim words must stay the same before the reply starts speculatively. */
const SPECULATION_DELAY_MS = 400;

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
      speculationTimer.current = window.setTimeout(() => {
        speculationTimer.current = null;
        if (recognition.current && silentLongEnough.current()) speculation.current = startReply(interim, { speculative: true });
      }, SPECULATION_DELAY_MS);
    },
    [cancelSpeculation, startReply],
  );

  const listen = useCallback(() => {
    if (!isSpeechRecognitionSupported()) {
      dispatchVoice({ type: 'UNSUPPORTED' });
      return;
    }
    dispatchVoice({ type: 'LISTEN' });
    try {
      const session = startRecognition({
        onInterim: (text) => {
          dispatchVoice({ type: 'INTERIM', text });
          considerSpeculation(text);
        },
        onFinal: (text) => {
          recognition.current = null;
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
        onError: (error) => {
          recognition.current = null;
          cancelSpeculation();
          dispatchVoice({ type: 'LISTEN_ERROR', message: recognitionMessage(error) });
        },
        onEnd: () => {
          recognition.current = null;
          cancelSpeculation();
          dispatchVoice({ type: 'LISTEN_END' });
        },
      });
      recognition.current = session;
    } catch (error) {
      dispatchVoice({ type: 'LISTEN_ERROR', message: recognitionMessage(error) });
    }
  }, [ask, considerSpeculation, cancelSpeculation]);

  const greet = useCallback(() => {
    dispatchVoice({ type: 'OPEN' });
    dispatchChat({ type: 'OPEN', greeting: persona.greeting });
    preloadCoach();
    const controller = new AbortController();
    speech.current = controller;
    const queue = createSpeechQueue({
      signal: controller.signal,
      onStart: () => undefined,
      onProblem: (message) => dispatchVoice({ type: 'NOTICE', message }),
    });
    // The same text every time: the function serves it from its cache.
    queue.enqueue(persona.greeting, { cache: true });
    void queue.finished().then(() => {
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
        recognition.current?.stop();
        return;
      case 'bargeIn':
        silence();
        if (isSpeechRecognitionSupported()) listen();
        else {
          dispatchVoice({ type: 'DONE' });
          dispatchVoice({ type: 'UNSUPPORTED' });
        }
        return;
      case 'none':
        return;
    }
  }, [voice.status, greet, listen, silence]);

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

  return { voice, chat, click, sendText, endConversation, rate };
}
