/**
 * The live coach's conversation as a plain object (no React): it owns the voice button's state
 * machine and the chat, and everything that moves them: recognition or recording, the early
 * (speculative) start of a reply, the reply itself and its speech, hands-free listening and
 * barge-in. The UI subscribes (`subscribe` / `getSnapshot`, for useSyncExternalStore) and calls the
 * commands (`click`, `sendText`, `endConversation`, `rate`, `setHandsFree`); it orchestrates
 * nothing itself.
 *
 * The conversation moves through these phases (the voice button's states in brackets):
 * idle → greeting (speaking) → ready → listening → replying (processing) → speaking → ready …
 * With hands-free on, the session goes from ready to listening by itself, the visitor's voice
 * interrupts the coach (barge-in), and a long quiet spell pauses listening (paused) until the
 * visitor's voice or a click. Every effect's late callback checks that its step is still the
 * current one; the reducers ignore events that do not fit the current state.
 */
import { persona } from '../../../config/persona';
import { sameUtterance } from '../../../lib/utterance';
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';
import { CoachCallError, type CoachMessage } from '../../../services/coach';
import { runReply } from '../../../services/replyPipeline';
import { coachPlaybackMessage } from '../../../services/speechErrors';
import { SpeechRecognitionError, type RecognitionProblem, type RecognitionSession } from '../../../services/speechRecognition';
import { coachTexts } from '../texts';
import { chatReducer, initialChatState, nextRequest, type ChatEvent, type ChatState } from './chatState';
import { SessionEar, type HeardFrame, type Hearing } from './hearing';
import type { CoachPorts } from './ports';
import { QuietCount } from './quietCount';
import { RecordedTurn } from './recordedTurn';
import { clickAction, initialVoiceState, voiceButtonReducer, type VoiceEvent, type VoiceState } from './voiceButtonMachine';
import { VoiceHold } from './voiceHold';

export interface CoachSnapshot {
  voice: VoiceState;
  chat: ChatState;
  handsFree: boolean;
}

/** What the prerendered page shows (and hydrates with): idle, no chat, hands-free off. */
export const initialSnapshot: CoachSnapshot = { voice: initialVoiceState, chat: initialChatState, handsFree: false };

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
 * Timing marks for `npm run bench:voice` (harmless elsewhere): a recorded segment sent and its words
 * back, the early (speculative) start of a reply, the visitor's final words, the first speakable
 * piece and the first sound.
 */
function mark(name: 'segment-sent' | 'segment-words' | 'early-start' | 'transcript' | 'first-chunk' | 'first-audio'): void {
  globalThis.performance.mark(`coach:${name}`);
}

/**
 * How long the interim words must stay the same before the reply starts speculatively: longer than
 * the recogniser's pace between words while the visitor speaks, shorter than the pause it waits
 * for before calling the words final (most of a second in Chrome).
 */
const SPECULATION_DELAY_MS = 250;
/** With the microphone open, the voice detector must also have heard this much silence. */
const SPECULATION_SILENCE_MS = 200;
/** While the detector still hears the visitor, the interim words are looked at again this often. */
const SPECULATION_RECHECK_MS = 50;
/**
 * Listening without a word for this long: hands-free pauses (visibly); on the recording path
 * without hands-free it ends as 'Keine Sprache erkannt…'.
 */
const QUIET_MS = 8_000;
/**
 * How long a greeting started at the press of a mouse button (see `press`) waits for the click that
 * opens the chat: longer than any deliberate click, short enough that a press dragged away and
 * released elsewhere does not keep a synthesis open.
 */
const PRESS_CLICK_MS = 1_500;
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

/** The greeting being fetched and spoken; a speculative one sounds and shows nothing until `confirm()`. */
interface Greeting {
  controller: AbortController;
  confirm(): void;
}

/** A greeting started at the press of the button, waiting for its click until `timer` drops it. */
interface PressedGreeting extends Greeting {
  timer: ReturnType<typeof setTimeout>;
}

let nextId = 0;
function newId(): string {
  nextId += 1;
  return `m${nextId}`;
}

/** What a start holds back until it is confirmed (see `heldUntilConfirmed`). */
interface Held {
  /** Opens at `confirm()`: the speech queue plays nothing before. */
  gate: Promise<void>;
  /** Does `action` now when confirmed, else at `confirm()`, in order. */
  run: (action: () => void) => void;
  confirmed: () => boolean;
  confirm: () => void;
}

/**
 * A start that may be speculative (an early reply, the greeting from the press of the button):
 * until `confirm()` its chat updates and voice events wait, and its audio is gated. A start that
 * is not speculative is confirmed from the outset.
 */
function heldUntilConfirmed(speculative: boolean): Held {
  let confirmed = !speculative;
  const held: (() => void)[] = [];
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  if (confirmed) openGate();
  return {
    gate,
    run: (action) => {
      if (confirmed) action();
      else held.push(action);
    },
    confirmed: () => confirmed,
    confirm: () => {
      if (confirmed) return;
      confirmed = true;
      held.splice(0).forEach((action) => action());
      openGate();
    },
  };
}

export class CoachSession {
  private snapshot: CoachSnapshot;
  private readonly listeners = new Set<() => void>();

  /** The browser's recogniser while it listens. */
  private recognition: RecognitionSession | null = null;
  /** What the coach is saying or fetching right now (the greeting or a reply). */
  private speech: AbortController | null = null;
  /** The visitor's turn being recorded for the stt function (browsers without their own recognition). */
  private turn: RecordedTurn | null = null;
  private recording = false;
  /** Listening without a word, counted in the microphone's frames: QUIET_MS pauses hands-free. */
  private readonly quiet = new QuietCount(QUIET_MS);
  /** The browser's recognition service failed (e.g. Chromium without Google's service): record instead. */
  private recognitionBroken = false;
  /** Whether the stt function has a provider; null until asked (when the chat opens). */
  private serverTranscription: boolean | null = null;
  /** The visitor stopped listening with a click: hands-free waits until the visitor starts again. */
  private pausedByVisitor = false;
  private speculation: PendingReply | null = null;
  /** The greeting fetched since the mouse button went down on the idle button, waiting for the click. */
  private pressed: PressedGreeting | null = null;
  private speculationTimer: ReturnType<typeof setTimeout> | null = null;

  /** The microphone, its echo decision and voice detector, while they run (hands-free, or recording). */
  private readonly ear: SessionEar;
  /** The page was left (closed, or put in the back-forward cache): the microphone stays closed until a click. */
  private pageHidden = false;
  /** The microphone could not be opened for the voice detector: not asked again until it is no longer wanted. */
  private microphoneRefused = false;
  /** The coach held while the detector decides whether the visitor speaks over it. */
  private readonly hold: VoiceHold;
  /**
   * The coach's current turn (the greeting, an answer) has started to sound. Before that there is
   * nothing to hold, and a noise at the microphone's start must not use up the turn's one hold.
   */
  private audible = false;

  private attached = false;
  private detachPage: (() => void) | null = null;
  private reacting = false;
  /** Changes made while reacting: the reaction looks again until there are none. */
  private changesWhileReacting = 0;
  /** Commands that change several things at once react only when all of them are done. */
  private batchDepth = 0;
  private changedInBatch = false;
  /** The hands-free inputs the last reaction saw: listening starts by itself only when they change. */
  private handsFreeInputs = '';

  constructor(private readonly ports: CoachPorts) {
    this.snapshot = { ...initialSnapshot, handsFree: this.storedHandsFree() };
    this.ear = new SessionEar(
      ports.microphone,
      (frame) => this.onFrame(frame),
      (error) => {
        this.microphoneRefused = true;
        this.dispatchVoice({ type: 'NOTICE', message: recognitionMessage(error) });
      },
    );
    this.hold = new VoiceHold(ports.audio, () => this.ear.raiseEcho());
  }

  // ————— the store the UI subscribes to —————

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): CoachSnapshot => this.snapshot;

  /**
   * Starts following the hands-free preference and the page's lifetime; the returned function
   * stops everything (the component went away) and leaves the session usable for a new attach.
   */
  attach = (): (() => void) => {
    this.attached = true;
    const stopWarmUp = this.ports.warmUp();
    const unsubscribe = this.ports.handsFree.subscribe(() => this.update({ handsFree: this.storedHandsFree() }));
    this.detachPage = this.ports.onPageHide(() => {
      this.pageHidden = true;
      this.closeMicrophone();
    });
    this.update({ handsFree: this.storedHandsFree() });
    return () => {
      this.attached = false;
      stopWarmUp();
      unsubscribe();
      this.detachPage?.();
      this.detachPage = null;
      this.dropPressedGreeting();
      this.silence();
      this.stopListening();
      this.closeMicrophone();
    };
  };

  // ————— commands —————

  /**
   * The mouse button went down on the voice button; its click follows when it comes up. Before the
   * conversation is open that press already starts the greeting's audio output and synthesis
   * (a mouse press is a user activation, so the browser lets it start audio), so the visitor's
   * click, a tenth of a second later, finds them under way. Nothing sounds or shows before the
   * click; a press that never becomes a click drops it again after PRESS_CLICK_MS.
   */
  press = (): void => {
    if (this.pressed !== null || clickAction(this.snapshot.voice.status) !== 'open') return;
    this.ports.audio.unlock();
    const greeting = this.startGreeting({ speculative: true });
    this.pressed = { ...greeting, timer: setTimeout(() => this.dropPressedGreeting(), PRESS_CLICK_MS) };
  };

  click = (): void => {
    // Inside the click: browsers (iOS above all) only let a gesture start audio.
    this.ports.audio.unlock();
    this.pageHidden = false;
    switch (clickAction(this.snapshot.voice.status)) {
      case 'open':
        this.greet();
        return;
      case 'listen':
        this.listen();
        return;
      case 'stop':
        // What was said so far still arrives as the final transcript and is sent.
        this.pausedByVisitor = true;
        this.recognition?.stop();
        this.turn?.end();
        return;
      case 'bargeIn':
        this.bargeIn();
        return;
      case 'none':
        return;
    }
  };

  sendText = (text: string): boolean => {
    const trimmed = text.trim();
    const { status } = this.snapshot.voice;
    if (trimmed === '' || status === 'processing' || status === 'idle') return false;
    this.ports.audio.unlock();
    this.stopListening();
    this.dispatchVoice({ type: 'SEND_TEXT' });
    this.startReply(trimmed);
    return true;
  };

  endConversation = (): void => {
    this.batch(() => {
      this.silence();
      this.stopListening();
      this.dispatchVoice({ type: 'CANCEL' });
      this.dispatchChat({ type: 'END' });
    });
  };

  rate = (value: number): void => {
    const { conversationId } = this.snapshot.chat;
    if (!conversationId) return;
    this.dispatchChat({ type: 'RATING', status: 'sending', value });
    this.ports.coach.rate(conversationId, value).then(
      () => this.dispatchChat({ type: 'RATING', status: 'sent', value }),
      () => this.dispatchChat({ type: 'RATING', status: 'failed', value }),
    );
  };

  setHandsFree = (on: boolean): void => {
    this.ports.handsFree.set(on ? 'on' : 'off');
  };

  // ————— state —————

  private storedHandsFree(): boolean {
    return this.ports.handsFree.get() === 'on';
  }

  private dispatchVoice(event: VoiceEvent): void {
    const voice = voiceButtonReducer(this.snapshot.voice, event);
    if (voice !== this.snapshot.voice) this.update({ voice });
  }

  private dispatchChat(event: ChatEvent): void {
    const chat = chatReducer(this.snapshot.chat, event);
    if (chat !== this.snapshot.chat) this.update({ chat });
  }

  private update(change: Partial<CoachSnapshot>): void {
    const next = { ...this.snapshot, ...change };
    if (next.voice === this.snapshot.voice && next.chat === this.snapshot.chat && next.handsFree === this.snapshot.handsFree) return;
    this.snapshot = next;
    if (this.batchDepth > 0) {
      this.changedInBatch = true;
      return;
    }
    this.react();
    this.listeners.forEach((listener) => listener());
  }

  private batch(change: () => void): void {
    this.batchDepth += 1;
    try {
      change();
    } finally {
      this.batchDepth -= 1;
      if (this.batchDepth === 0 && this.changedInBatch) {
        this.changedInBatch = false;
        this.react();
        this.listeners.forEach((listener) => listener());
      }
    }
  }

  /** What follows from the state by itself: the microphone's opening and closing, hands-free listening. */
  private react(): void {
    if (this.reacting) {
      this.changesWhileReacting += 1;
      return;
    }
    this.reacting = true;
    try {
      let seen: number;
      do {
        seen = this.changesWhileReacting;
        this.syncMicrophone();
        const { voice, chat, handsFree } = this.snapshot;
        const inputs = [handsFree, chat.open, chat.ended, voice.status, voice.hint].join('|');
        if (inputs === this.handsFreeInputs) continue;
        this.handsFreeInputs = inputs;
        // Hands-free: once the coach has spoken (or on switching it on while ready), listen again by
        // itself; not with a refused microphone (its message stays until the visitor clicks).
        const listensByItself = handsFree && chat.open && !chat.ended && !this.pausedByVisitor && !this.microphoneRefused;
        if (listensByItself && voice.status === 'ready' && voice.hint === 'ready') this.listen();
      } while (this.changesWhileReacting !== seen);
    } finally {
      this.reacting = false;
    }
  }

  // ————— greeting and replies —————

  /** Stops whatever the coach is saying or fetching right now. */
  private silence(): void {
    this.audible = false;
    this.speech?.abort();
    this.speech = null;
  }

  /** The pressed greeting (if any), no longer waiting for its click. */
  private takePressedGreeting(): Greeting | null {
    const pressed = this.pressed;
    this.pressed = null;
    if (pressed) clearTimeout(pressed.timer);
    return pressed;
  }

  private dropPressedGreeting(): void {
    this.takePressedGreeting()?.controller.abort();
  }

  private greet(): void {
    this.audible = false;
    this.hold.newTurn();
    const greeting = this.takePressedGreeting() ?? this.startGreeting({ speculative: false });
    this.speech = greeting.controller;
    this.dispatchVoice({ type: 'OPEN' });
    this.dispatchChat({ type: 'OPEN', greeting: persona.greeting });
    this.ports.coach.preload();
    void this.ports.transcription.available().then((available) => {
      this.serverTranscription = available;
    });
    greeting.confirm();
  }

  /**
   * Fetches and speaks the greeting. A speculative one (started at the press, before the click)
   * is fetched at once but plays, reports and finishes nothing until `confirm()`.
   */
  private startGreeting({ speculative }: { speculative: boolean }): Greeting {
    // The player's set-up runs while the greeting is fetched, not after.
    this.ports.audio.prepare();
    const controller = new AbortController();
    const { gate, run, confirm } = heldUntilConfirmed(speculative);
    this.ports
      .speech()
      .then(({ createQueue }) => {
        const queue = createQueue({
          signal: controller.signal,
          gate,
          onStart: () => {
            this.audible = true;
            // Not before: at the click the greeting's own requests come first.
            this.ports.coach.warmUp();
          },
          onProblem: (error) => run(() => this.dispatchVoice({ type: 'NOTICE', message: coachPlaybackMessage(error) })),
        });
        // The same text every time: the function serves it from its cache.
        queue.enqueue(persona.greeting, { cache: true });
        return queue.finished();
      })
      .catch(() => {
        // The code could not be loaded (connection lost): the greeting stays readable.
        run(() => this.dispatchVoice({ type: 'NOTICE', message: coachTexts.errors.playback }));
      })
      .finally(() => {
        run(() => {
          // A greeting that never sounded still leaves the way warmed up for the first question.
          this.ports.coach.warmUp();
          if (controller.signal.aborted) return;
          if (this.speech === controller) this.speech = null;
          this.dispatchVoice({ type: 'DONE' });
        });
      });
    return { controller, confirm };
  }

  /**
   * Starts the coach's reply to `text`. A speculative reply (started on a stable interim result
   * while the recogniser still waits for the end of speech) runs the same way, but shows and plays
   * nothing until `confirm()`: its chat updates and voice events are held, its audio is gated.
   */
  private startReply(text: string, { speculative = false }: { speculative?: boolean } = {}): PendingReply {
    this.silence();
    const controller = new AbortController();
    this.speech = controller;
    const { gate, run, confirmed, confirm } = heldUntilConfirmed(speculative);

    const { history, conversationId } = nextRequest(this.snapshot.chat, text);
    const replyId = newId();
    run(() => {
      this.dispatchChat({ type: 'USER', id: newId(), text });
      this.dispatchChat({ type: 'REPLY_START', id: replyId });
    });
    void this.replyTo(history, conversationId, { controller, gate, replyId, run, confirmed });
    return {
      text,
      cancel: () => {
        if (confirmed()) return;
        controller.abort();
        if (this.speech === controller) this.speech = null;
      },
      confirm,
    };
  }

  private async replyTo(
    history: CoachMessage[],
    conversationId: string | null,
    step: { controller: AbortController; gate: Promise<void>; replyId: string; run: (action: () => void) => void; confirmed: () => boolean },
  ): Promise<void> {
    const { controller, gate, replyId, run } = step;
    try {
      // The answer's machinery loads with the first click (the greeting), not with the page.
      const { createQueue } = await this.ports.speech();
      const outcome = await runReply(history, {
        conversationId,
        signal: controller.signal,
        gate,
        startReply: this.ports.coach.startReply,
        createQueue,
        onMeta: ({ conversationId: id, mode }) => run(() => this.dispatchChat({ type: 'META', conversationId: id, mode })),
        onText: (reply) => run(() => this.dispatchChat({ type: 'REPLY_TEXT', id: replyId, text: reply })),
        onFirstChunk: () => mark('first-chunk'),
        onSpeaking: () => {
          mark('first-audio');
          this.audible = true;
          this.hold.newTurn();
          this.dispatchVoice({ type: 'SPEAKING' });
        },
        onPlaybackProblem: (error) => run(() => this.dispatchVoice({ type: 'NOTICE', message: coachPlaybackMessage(error) })),
      });
      run(() => {
        this.dispatchChat({ type: 'REPLY_END', id: replyId });
        if (outcome.kind === 'empty') this.dispatchChat({ type: 'REPLY_ERROR', id: replyId, message: coachTexts.errors.noReply });
        if (outcome.kind === 'broken') this.dispatchVoice({ type: 'FAILED', message: coachTexts.errors.processing });
        else this.dispatchVoice({ type: 'DONE' });
      });
    } catch (error) {
      if (controller.signal.aborted) {
        // Cut short on purpose: keep what was shown, drop an empty bubble's cursor.
        if (step.confirmed()) this.dispatchChat({ type: 'REPLY_END', id: replyId });
        return;
      }
      // The catalogue messages appear as the coach's answer; they are not spoken, because the
      // voice usually fails for the same reason the call did.
      const message = error instanceof CoachCallError ? coachTexts.errors.callFailed : coachTexts.errors.processing;
      run(() => {
        this.dispatchChat({ type: 'REPLY_ERROR', id: replyId, message });
        this.dispatchVoice({ type: 'DONE' });
      });
    } finally {
      if (this.speech === controller && controller.signal.aborted) this.speech = null;
    }
  }

  // ————— listening —————

  /** Starts listening (from ready, from paused, or from speaking as a barge-in) with whatever this browser has. */
  private listen(): void {
    this.pausedByVisitor = false;
    if (this.ports.recognition.supported() && !this.recognitionBroken) {
      this.dispatchVoice({ type: 'LISTEN' });
      this.listenWithRecogniser();
      return;
    }
    const start = (available: boolean) => {
      this.serverTranscription = available;
      if (available && this.ports.transcription.canRecord()) {
        this.dispatchVoice({ type: 'LISTEN' });
        this.listenByRecording();
      } else {
        // From speaking (a barge-in) the button first comes back to ready.
        this.dispatchVoice({ type: 'DONE' });
        this.dispatchVoice({ type: 'UNSUPPORTED' });
      }
    };
    if (this.serverTranscription !== null) start(this.serverTranscription);
    else void this.ports.transcription.available().then(start);
  }

  private bargeIn(): void {
    this.silence();
    this.listen();
  }

  /** Stops whatever listens: the recogniser, the recorded turn, the quiet count, an early reply. */
  private stopListening(): void {
    this.recognition?.abort();
    this.recognition = null;
    this.turn?.abort();
    this.turn = null;
    this.stopQuietCount();
    this.setRecording(false);
    this.cancelSpeculation();
  }

  private setRecording(recording: boolean): void {
    this.recording = recording;
    this.react();
  }

  /** Ends a listening session that failed or heard nothing. */
  private listenFailed(error: unknown): void {
    this.stopListening();
    this.dispatchVoice({ type: 'LISTEN_ERROR', message: recognitionMessage(error) });
  }

  /** Hands-free stays on through silence: listening pauses, visibly, until the visitor's voice or a click. */
  private pauseListening(): void {
    if (this.snapshot.voice.status !== 'listening') return;
    this.stopListening();
    this.dispatchVoice({ type: 'PAUSE' });
  }

  /** Whether the visitor has hands-free on and did not stop it with a click. */
  private handsFreeActive(): boolean {
    const { handsFree, chat } = this.snapshot;
    return handsFree && chat.open && !chat.ended && !this.pausedByVisitor;
  }

  /**
   * Listening without a word for a long time (QUIET_MS of the microphone's frames): hands-free
   * pauses (visibly); otherwise `onQuiet` (the recording path ends as 'Keine Sprache erkannt…').
   * Without an open microphone nothing is counted: the browser's recogniser keeps its own time.
   */
  private startQuietCount(onQuiet: () => void): void {
    this.quiet.start(() => {
      if (this.handsFreeActive()) this.pauseListening();
      else onQuiet();
    });
  }

  private stopQuietCount(): void {
    this.quiet.stop();
  }

  /** The visitor's final words: confirm the early reply if it guessed them, else ask. */
  private heardWords(text: string): void {
    const started = this.speculation;
    this.speculation = null;
    this.clearSpeculationTimer();
    this.stopQuietCount();
    this.dispatchVoice({ type: 'TRANSCRIPT', text });
    if (text === '') {
      started?.cancel();
      return;
    }
    mark('transcript');
    if (started && sameUtterance(started.text, text)) started.confirm();
    else {
      started?.cancel();
      this.startReply(text);
    }
  }

  /** The browser's own recogniser (Chrome, Safari). */
  private listenWithRecogniser(): void {
    /** The recogniser failed and recording took over: its end is not the end of listening. */
    let replaced = false;
    /** The recogniser stopped by itself without a word (its own silence limit). */
    let heardNothing = false;
    // Hands-free: a quiet spell pauses listening (the browser's recogniser may never end by itself).
    if (this.snapshot.handsFree) this.startQuietCount(() => undefined);
    try {
      this.recognition = this.ports.recognition.start({
        onInterim: (text) => {
          this.stopQuietCount();
          this.dispatchVoice({ type: 'INTERIM', text });
          this.considerSpeculation(text);
        },
        onFinal: (text) => {
          this.recognition = null;
          this.heardWords(text);
        },
        onError: (error) => {
          if (SERVICE_FAILURES.has(error.code) && this.serverTranscription !== false && this.ports.transcription.canRecord()) {
            // The recogniser's service is not there: go on listening by recording, once the stt
            // function is known to have a provider (a visitor who clicks at once may be faster
            // than that answer).
            replaced = true;
            this.recognition = null;
            this.cancelSpeculation();
            const recordInstead = (available: boolean) => {
              this.serverTranscription = available;
              if (this.snapshot.voice.status !== 'listening' || this.recognition || this.recording) return;
              if (!available) {
                this.listenFailed(error);
                return;
              }
              this.recognitionBroken = true;
              this.listenByRecording();
            };
            if (this.serverTranscription === true) recordInstead(true);
            else void this.ports.transcription.available().then(recordInstead);
            return;
          }
          if (error.problem === 'noSpeech' && this.handsFreeActive()) {
            heardNothing = true;
            return;
          }
          this.listenFailed(error);
        },
        onEnd: () => {
          if (replaced) return;
          this.recognition = null;
          this.cancelSpeculation();
          // Hands-free never drops back to click mode by itself: it pauses, visibly.
          if ((heardNothing || !this.pausedByVisitor) && this.handsFreeActive() && this.snapshot.voice.status === 'listening') {
            this.pauseListening();
            return;
          }
          this.stopQuietCount();
          this.dispatchVoice({ type: 'LISTEN_END' });
        },
      });
    } catch (error) {
      this.listenFailed(error);
    }
  }

  /**
   * Records the visitor's turn from the voice onset and has the stt function transcribe it in
   * segments while the visitor still speaks (recordedTurn.ts); no recogniser in this browser.
   */
  private listenByRecording(): void {
    this.setRecording(true);
    const begin = (hearing: Hearing) => {
      if (this.snapshot.voice.status !== 'listening' || !this.recording || this.turn) return;
      this.turn = this.recordedTurn(hearing);
      this.startQuietCount(() => this.turn?.end());
    };
    // With the microphone already open (hands-free) the turn starts at once, so the voice that
    // triggered it (a barge-in, the end of a pause) is recorded from its onset.
    const open = this.ear.current;
    if (open) begin(open);
    else {
      this.ear.ready().then(begin, (error: unknown) => {
        if (this.snapshot.voice.status === 'listening' && this.recording) this.listenFailed(error);
      });
    }
  }

  private recordedTurn(hearing: Hearing): RecordedTurn {
    const transcriber = {
      transcribe: (samples: Float32Array, options: { previousText: string; signal: AbortSignal }) => {
        mark('segment-sent');
        return this.ports.transcription.transcribe(samples, hearing.capture.sampleRate, options).then((text) => {
          mark('segment-words');
          return text;
        });
      },
    };
    const turn: RecordedTurn = new RecordedTurn(hearing.capture, transcriber, {
      onPause: (text) => {
        if (this.turn !== turn) return;
        this.speculateOnRecording(text);
      },
      onResume: () => {
        if (this.turn !== turn) return;
        this.cancelSpeculation();
      },
      onTranscribing: () => {
        if (this.turn === turn) this.dispatchVoice({ type: 'TRANSCRIBING' });
      },
      onWords: (text) => {
        if (this.turn !== turn) return;
        this.turn = null;
        this.setRecording(false);
        if (text === '') this.listenFailed(new SpeechRecognitionError('noSpeech', 'nothing heard'));
        else this.heardWords(text);
      },
      onError: (error) => {
        if (this.turn === turn) this.listenFailed(error);
      },
    });
    return turn;
  }

  // ————— the early start of a reply —————

  private clearSpeculationTimer(): void {
    if (this.speculationTimer !== null) clearTimeout(this.speculationTimer);
    this.speculationTimer = null;
  }

  private cancelSpeculation(): void {
    this.clearSpeculationTimer();
    this.speculation?.cancel();
    this.speculation = null;
  }

  /** Whether the visitor has been silent long enough for a speculative start (the detector's say, when it runs). */
  private silentLongEnough(): boolean {
    return (this.ear.silenceMs ?? SPECULATION_SILENCE_MS) >= SPECULATION_SILENCE_MS;
  }

  /**
   * The recogniser waits for a long pause before it calls the words final. When the interim words
   * have not changed for a moment (and, with the microphone open, the voice detector hears
   * silence), the reply starts already; the final transcript then only confirms it.
   */
  private considerSpeculation(interim: string): void {
    if (this.speculation && !sameUtterance(this.speculation.text, interim)) this.cancelSpeculation();
    this.clearSpeculationTimer();
    if (this.speculation || interim.trim() === '') return;
    const check = (delay: number) => {
      this.speculationTimer = setTimeout(() => {
        this.speculationTimer = null;
        if (!this.recognition) return;
        // Still hearing the visitor: look again shortly.
        if (!this.silentLongEnough()) check(SPECULATION_RECHECK_MS);
        else {
          mark('early-start');
          this.speculation = this.startReply(interim, { speculative: true });
        }
      }, delay);
    };
    check(SPECULATION_DELAY_MS);
  }

  /** The recording path's words so far, during a pause: the reply starts on them, speculatively. */
  private speculateOnRecording(text: string): void {
    if (this.speculation && sameUtterance(this.speculation.text, text)) return;
    this.cancelSpeculation();
    mark('early-start');
    this.speculation = this.startReply(text, { speculative: true });
  }

  // ————— the microphone, the echo and the voice detector —————

  /** The microphone is open while the chat is, and hands-free is on or an utterance is recorded. */
  private syncMicrophone(): void {
    const { chat, handsFree } = this.snapshot;
    const wanted = this.attached && !this.pageHidden && chat.open && !chat.ended && (handsFree || this.recording);
    if (!wanted) this.microphoneRefused = false;
    if (wanted && !this.ear.active && !this.microphoneRefused) this.ear.open();
    else if (!wanted && this.ear.active) this.closeMicrophone();
  }

  private closeMicrophone(): void {
    this.hold.release();
    this.ear.close();
  }

  /** Whether the visitor's voice should interrupt the coach right now. */
  private interruptible(): boolean {
    return this.snapshot.handsFree && !this.pausedByVisitor && this.snapshot.voice.status === 'speaking' && this.audible;
  }

  /** One frame as the detector heard it: the session and the recorded turn follow. */
  private onFrame({ events, frameMs, detector }: HeardFrame): void {
    this.quiet.frame(frameMs, events);
    for (const change of events) this.onVoice(change);
    this.hold.frame(frameMs, events);
    // After the session's reaction: a barge-in or a resumed pause has started the turn by now.
    this.turn?.hear({ events, silenceMs: detector.silenceMs, runMs: detector.runMs, speaking: detector.speaking });
  }

  private onVoice(change: VoiceActivityEvent): void {
    switch (change) {
      case 'speech-maybe':
        // Probably the visitor: the coach goes quiet at once, keeping its place while it is decided.
        this.hold.maybe(this.interruptible());
        return;
      case 'speech-dropped':
        // …and goes on if it was a cough, a click or the coach's own echo.
        this.hold.falseStart();
        return;
      case 'speech-start': {
        const held = this.hold.decided();
        this.onSpeechStart();
        // Not a barge-in after all (hands-free switched off meanwhile): the coach goes on.
        if (held && this.snapshot.voice.status === 'speaking') this.ports.audio.release();
        return;
      }
      case 'speech-end':
        return;
    }
  }

  private onSpeechStart(): void {
    if (!this.snapshot.handsFree || this.pausedByVisitor) return;
    const { status } = this.snapshot.voice;
    // Barge-in by voice: the visitor's own voice stops the coach and is listened to.
    if (status === 'speaking') this.bargeIn();
    else if (status === 'ready' || status === 'paused') this.listen();
  }
}

export function createCoachSession(ports: CoachPorts): CoachSession {
  return new CoachSession(ports);
}
