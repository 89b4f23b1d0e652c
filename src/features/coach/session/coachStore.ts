/**
 * The coach session's state and who hears of it: the snapshot the UI reads (the voice button's
 * state machine, the chat, hands-free), moved only through their reducers, and the subscribers
 * of the session's published events (events.ts). `reduce` says how each event moves the voice
 * button and the chat; what else follows from an event is the session's. Every change runs `effects` (the session's
 * reaction: the microphone's opening and closing, hands-free listening) and then publishes
 * `changed`. A change made while the effects run makes them look again until there is none; the
 * changes made inside `batch` react once, at its end.
 */
import { coachTexts } from '../texts';
import { chatReducer, initialChatState, type ChatEvent, type ChatState } from './chatState';
import type { CoachEvent, CoachEventListener } from './events';
import { initialVoiceState, voiceButtonReducer, type VoiceEvent, type VoiceState } from './voiceButtonMachine';

export interface CoachSnapshot {
  voice: VoiceState;
  chat: ChatState;
  handsFree: boolean;
}

/** What the prerendered page shows (and hydrates with): idle, no chat, hands-free off. */
export const initialSnapshot: CoachSnapshot = { voice: initialVoiceState, chat: initialChatState, handsFree: false };

export class CoachStore {
  private snapshot: CoachSnapshot;
  private readonly listeners = new Set<CoachEventListener>();
  private reacting = false;
  /** Changes made while reacting: the reaction looks again until there are none. */
  private changesWhileReacting = 0;
  private batchDepth = 0;
  private changedInBatch = false;

  constructor(
    handsFree: boolean,
    private readonly effects: () => void,
  ) {
    this.snapshot = { ...initialSnapshot, handsFree };
  }

  get = (): CoachSnapshot => this.snapshot;

  /** Hears every published event; returns the unsubscribe. */
  on = (listener: CoachEventListener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  publish(event: CoachEvent): void {
    this.listeners.forEach((listener) => listener(event));
  }

  voice(event: VoiceEvent): void {
    this.update({ voice: voiceButtonReducer(this.snapshot.voice, event) });
  }

  chat(event: ChatEvent): void {
    this.update({ chat: chatReducer(this.snapshot.chat, event) });
  }

  /** Moves the voice button and the chat as the event says (events that move neither are passed over). */
  reduce(event: CoachEvent): void {
    switch (event.type) {
      case 'greeting-problem':
      case 'reply-problem':
        this.voice({ type: 'NOTICE', message: event.message });
        return;
      case 'greeting-ended':
        if (!event.cut) this.voice({ type: 'DONE' });
        return;
      case 'reply-asked':
        this.chat({ type: 'USER', id: event.userId, text: event.text });
        this.chat({ type: 'REPLY_START', id: event.replyId });
        return;
      case 'reply-meta':
        this.chat({ type: 'META', conversationId: event.conversationId, mode: event.mode });
        return;
      case 'reply-text':
        this.chat({ type: 'REPLY_TEXT', id: event.replyId, text: event.text });
        return;
      case 'reply-sounding':
        this.voice({ type: 'SPEAKING' });
        return;
      case 'reply-finished':
        this.chat({ type: 'REPLY_END', id: event.replyId });
        if (event.outcome === 'empty') this.chat({ type: 'REPLY_ERROR', id: event.replyId, message: coachTexts.errors.noReply });
        this.voice(event.outcome === 'broken' ? { type: 'FAILED', message: coachTexts.errors.processing } : { type: 'DONE' });
        return;
      case 'reply-failed':
        this.chat({ type: 'REPLY_ERROR', id: event.replyId, message: event.message });
        this.voice({ type: 'DONE' });
        return;
      case 'reply-cut':
        // Cut short on purpose: keep what was shown, drop an empty bubble's cursor.
        if (event.shown) this.chat({ type: 'REPLY_END', id: event.replyId });
        return;
      case 'listening-started':
        this.voice({ type: 'LISTEN' });
        return;
      case 'listening-unsupported':
        // From speaking (a barge-in) the button first comes back to ready.
        this.voice({ type: 'DONE' });
        this.voice({ type: 'UNSUPPORTED' });
        return;
      case 'listening-interim':
        this.voice({ type: 'INTERIM', text: event.text });
        return;
      case 'listening-transcribing':
        this.voice({ type: 'TRANSCRIBING' });
        return;
      case 'listening-final':
        this.voice({ type: 'TRANSCRIPT', text: event.text });
        return;
      case 'listening-paused':
        this.voice({ type: 'PAUSE' });
        return;
      case 'listening-ended':
        this.voice({ type: 'LISTEN_END' });
        return;
      case 'listening-failed':
        this.voice({ type: 'LISTEN_ERROR', message: event.message });
        return;
      default:
        return;
    }
  }

  setHandsFree(handsFree: boolean): void {
    this.update({ handsFree });
  }

  /** Commands that change several things at once react only when all of them are done. */
  batch(change: () => void): void {
    this.batchDepth += 1;
    try {
      change();
    } finally {
      this.batchDepth -= 1;
      if (this.batchDepth === 0 && this.changedInBatch) {
        this.changedInBatch = false;
        this.changed();
      }
    }
  }

  /** Runs the effects (also when something they read outside the snapshot changed). */
  react(): void {
    if (this.reacting) {
      this.changesWhileReacting += 1;
      return;
    }
    this.reacting = true;
    try {
      let seen: number;
      do {
        seen = this.changesWhileReacting;
        this.effects();
      } while (this.changesWhileReacting !== seen);
    } finally {
      this.reacting = false;
    }
  }

  private update(change: Partial<CoachSnapshot>): void {
    const next = { ...this.snapshot, ...change };
    if (next.voice === this.snapshot.voice && next.chat === this.snapshot.chat && next.handsFree === this.snapshot.handsFree) return;
    this.snapshot = next;
    if (this.batchDepth > 0) this.changedInBatch = true;
    else this.changed();
  }

  private changed(): void {
    this.react();
    this.publish({ type: 'changed' });
  }
}
