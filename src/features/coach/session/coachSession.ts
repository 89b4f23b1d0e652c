/**
 * The live coach's conversation as a plain object (no React). It owns the store (coachStore.ts:
 * the voice button's state machine, the chat, hands-free, and the subscribers) and reduces into it
 * what its parts report: the greeting (greeting.ts), each reply (reply.ts), the visitor's turn
 * (listening.ts: the listening path, the early start of a reply) and the visitor's voice over the
 * coach (bargeIn.ts), all heard through the ear on the microphone (hearing.ts). It publishes one
 * event union (events.ts): the hook subscribes (`subscribe` / `getSnapshot`, for
 * useSyncExternalStore, or `on` for every event) and calls the commands (`press`, `click`,
 * `sendText`, `endConversation`, `rate`, `setHandsFree`); it orchestrates nothing itself.
 *
 * The conversation moves through these phases (the voice button's states in brackets):
 * idle → greeting (speaking) → ready → listening → replying (processing) → speaking → ready …
 * With hands-free on, the session goes from ready to listening by itself, the visitor's voice
 * interrupts the coach (barge-in), and a long quiet spell pauses listening (paused) until the
 * visitor's voice or a click. A part's late event is dropped when its step is no longer the
 * current one; the reducers ignore events that do not fit the current state.
 */
import { persona } from '../../../config/persona';
import { nextRequest } from './chatState';
import { BargeIn } from './bargeIn';
import { CoachStore, type CoachSnapshot } from './coachStore';
import type { CoachEvent, CoachEventListener } from './events';
import { Greeter, type GreetingTurn } from './greeting';
import { SessionEar, type HeardVoice } from './hearing';
import { Listening, recognitionMessage } from './listening';
import type { CoachPorts } from './ports';
import { startReply, type ReplyTurn } from './reply';
import { clickAction } from './voiceButtonMachine';

export { initialSnapshot, type CoachSnapshot } from './coachStore';

export class CoachSession {
  private readonly store: CoachStore;
  /** The microphone, its echo decision and voice detector, while they run (hands-free, or recording). */
  private readonly ear: SessionEar;
  /** The visitor's voice while the coach speaks or waits: holding the coach, barge-in. */
  private readonly bargeIn: BargeIn;
  private readonly greeter: Greeter;
  /** The visitor's turn: the listening path, the quiet spell, the early start of a reply. */
  private readonly listening: Listening;
  /** What the coach is saying or fetching right now (the greeting or a reply). */
  private speech: GreetingTurn | ReplyTurn | null = null;
  /** The visitor stopped listening with a click: hands-free waits until the visitor starts again. */
  private pausedByVisitor = false;
  /**
   * The coach's current turn (the greeting, an answer) has started to sound. Before that there is
   * nothing to hold, and a noise at the microphone's start must not use up the turn's one hold.
   */
  private audible = false;
  /** Off the page (not attached), or the page was left (closed, put in the back-forward cache): no microphone until a click. */
  private page: 'detached' | 'shown' | 'hidden' = 'detached';
  /** The hands-free inputs the last reaction saw: listening starts by itself only when they change. */
  private handsFreeInputs = '';

  constructor(private readonly ports: CoachPorts) {
    this.store = new CoachStore(this.storedHandsFree(), () => this.react());
    this.ear = new SessionEar(
      ports.microphone,
      (heard) => this.heard(heard),
      (error) => this.microphoneRefused(error),
      () => this.listening.current,
    );
    const view = {
      status: () => this.snapshot.voice.status,
      handsFree: () => this.snapshot.handsFree,
      handsFreeActive: () => this.handsFreeActive(),
      listensToVoice: () => this.snapshot.handsFree && !this.pausedByVisitor,
      audible: () => this.audible,
      silenceMs: () => this.ear.silenceMs,
      replyEarly: (text: string) => this.reply(text, { speculative: true }),
    };
    const handle = (event: CoachEvent) => this.handle(event);
    this.bargeIn = new BargeIn(ports.audio, () => this.ear.raiseEcho(), view, handle);
    this.greeter = new Greeter(ports, handle);
    this.listening = new Listening(ports, view, handle);
  }

  // ————— what the UI subscribes to —————

  /**
   * Hears every event the session publishes: a part's report as it comes (before the session
   * reduces it), `changed` once the snapshot has changed. Returns the unsubscribe.
   */
  on = (listener: CoachEventListener): (() => void) => this.store.on(listener);

  /** For useSyncExternalStore: `listener` runs whenever the snapshot changed. */
  subscribe = (listener: () => void): (() => void) =>
    this.on((event) => {
      if (event.type === 'changed') listener();
    });

  getSnapshot = (): CoachSnapshot => this.store.get();

  /**
   * Starts following the hands-free preference and the page's lifetime; the returned function
   * stops everything (the component went away) and leaves the session usable for a new attach.
   */
  attach = (): (() => void) => {
    this.page = 'shown';
    const stopWarmUp = this.ports.warmUp();
    const unsubscribe = this.ports.handsFree.subscribe(() => this.store.setHandsFree(this.storedHandsFree()));
    const detachPage = this.ports.onPageHide(() => {
      this.page = 'hidden';
      this.closeMicrophone();
    });
    this.store.setHandsFree(this.storedHandsFree());
    return () => {
      this.page = 'detached';
      stopWarmUp();
      unsubscribe();
      detachPage();
      this.greeter.dropPressed();
      this.silence();
      this.stopListening();
      this.closeMicrophone();
    };
  };

  // ————— commands —————

  /**
   * The mouse button went down on the voice button; its click follows when it comes up. Before the
   * conversation is open that press already starts the greeting (greeting.ts).
   */
  press = (): void => {
    if (clickAction(this.snapshot.voice.status) === 'open') this.greeter.press();
  };

  click = (): void => {
    // Inside the click: browsers (iOS above all) only let a gesture start audio.
    this.ports.audio.unlock();
    if (this.page === 'hidden') this.page = 'shown';
    switch (clickAction(this.snapshot.voice.status)) {
      case 'open':
        this.greet();
        return;
      case 'listen':
        this.listen();
        return;
      case 'stop':
        // What was said so far still arrives as the final words and is sent.
        this.pausedByVisitor = true;
        this.listening.stop();
        return;
      case 'bargeIn':
        this.silence();
        this.listen();
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
    this.store.voice({ type: 'SEND_TEXT' });
    this.reply(trimmed, { speculative: false });
    return true;
  };

  endConversation = (): void => {
    this.store.batch(() => {
      this.silence();
      this.stopListening();
      this.store.voice({ type: 'CANCEL' });
      this.store.chat({ type: 'END' });
    });
  };

  rate = (value: number): void => {
    const { conversationId } = this.snapshot.chat;
    if (!conversationId) return;
    this.store.chat({ type: 'RATING', status: 'sending', value });
    this.ports.coach.rate(conversationId, value).then(
      () => this.store.chat({ type: 'RATING', status: 'sent', value }),
      () => this.store.chat({ type: 'RATING', status: 'failed', value }),
    );
  };

  setHandsFree = (on: boolean): void => {
    this.ports.handsFree.set(on ? 'on' : 'off');
  };

  // ————— state —————

  private get snapshot(): CoachSnapshot {
    return this.store.get();
  }

  private storedHandsFree(): boolean {
    return this.ports.handsFree.get() === 'on';
  }

  /** Whether the visitor has hands-free on and did not stop it with a click. */
  private handsFreeActive(): boolean {
    const { handsFree, chat } = this.snapshot;
    return handsFree && chat.open && !chat.ended && !this.pausedByVisitor;
  }

  /** What follows from the state by itself: the microphone's opening and closing, hands-free listening. */
  private react(): void {
    const { voice, chat, handsFree } = this.snapshot;
    // The microphone is open while a turn is recorded, and while the conversation is open hands-free.
    const wanted = this.page === 'shown' && chat.open && (this.listening.needsMicrophone || (handsFree && !chat.ended));
    if (!wanted && this.ear.active) this.bargeIn.release();
    this.ear.want(wanted);
    const inputs = [handsFree, chat.open, chat.ended, voice.status, voice.hint].join('|');
    if (inputs === this.handsFreeInputs) return;
    this.handsFreeInputs = inputs;
    // Hands-free: once the coach has spoken (or on switching it on while ready), listen again by
    // itself; not with a refused microphone (its message stays until the visitor clicks).
    if (this.handsFreeActive() && !this.ear.refused && voice.status === 'ready' && voice.hint === 'ready') this.listen();
  }

  /** Publishes what a part reported, moves the state as it says (coachStore.ts), and does what follows. */
  private handle(event: CoachEvent): void {
    this.store.publish(event);
    this.store.reduce(event);
    switch (event.type) {
      case 'greeting-sounding':
        this.audible = true;
        // Not before: at the click the greeting's own requests come first.
        this.ports.coach.warmUp();
        return;
      case 'greeting-ended':
        // A greeting that never sounded still leaves the way warmed up for the first question.
        this.ports.coach.warmUp();
        if (!event.cut && this.speech === event.greeting) this.speech = null;
        return;
      case 'reply-sounding':
        this.audible = true;
        this.bargeIn.newTurn();
        return;
      case 'reply-cut':
        if (this.speech === event.reply) this.speech = null;
        return;
      case 'visitor-interrupts':
        this.silence();
        this.listen();
        return;
      case 'visitor-speaks':
        this.listen();
        return;
      case 'listening-final':
        // The visitor's final words: the early reply goes on if it guessed them, else the coach is asked.
        if (!this.listening.settle(event.text) && event.text !== '') this.reply(event.text, { speculative: false });
        this.store.react();
        return;
      case 'listening-started':
      case 'listening-recording':
      case 'listening-paused':
      case 'listening-ended':
      case 'listening-failed':
        // A path that came or went opens or closes the microphone.
        this.store.react();
        return;
      default:
        return;
    }
  }

  // ————— greeting and replies —————

  /** Stops whatever the coach is saying or fetching right now. */
  private silence(): void {
    this.audible = false;
    this.speech?.abort();
    this.speech = null;
  }

  private greet(): void {
    this.audible = false;
    this.bargeIn.newTurn();
    const greeting = this.greeter.open();
    this.speech = greeting.turn;
    this.store.voice({ type: 'OPEN' });
    this.store.chat({ type: 'OPEN', greeting: persona.greeting });
    this.ports.coach.preload();
    this.listening.askTranscription();
    // A greeting started at the press shows and sounds from now on: the chat is open for it.
    greeting.confirm();
  }

  /** Starts the coach's reply to `text`; a speculative one shows and plays nothing until confirmed. */
  private reply(text: string, { speculative }: { speculative: boolean }): ReplyTurn {
    this.silence();
    const reply = startReply({ text, speculative, ...nextRequest(this.snapshot.chat, text) }, this.ports, (event) => this.handle(event));
    this.speech = reply;
    return reply;
  }

  // ————— listening —————

  /** Starts listening (from ready, from paused, or from speaking as a barge-in). */
  private listen(): void {
    this.pausedByVisitor = false;
    this.listening.listen();
  }

  /** Stops whatever listens: the listening path, the quiet count, an early reply. */
  private stopListening(): void {
    this.listening.abort();
    this.store.react();
  }

  // ————— the microphone, the echo and the voice detector —————

  private closeMicrophone(): void {
    this.bargeIn.release();
    this.ear.close();
  }

  private microphoneRefused(error: unknown): void {
    this.store.voice({ type: 'NOTICE', message: recognitionMessage(error) });
    this.listening.microphoneRefused(error);
  }

  /** One frame's decision of the detector (the listening path hears the frame after this). */
  private heard({ events, frameMs }: HeardVoice): void {
    this.listening.countQuiet(frameMs, events);
    this.bargeIn.heard(frameMs, events);
  }
}

export function createCoachSession(ports: CoachPorts): CoachSession {
  return new CoachSession(ports);
}
