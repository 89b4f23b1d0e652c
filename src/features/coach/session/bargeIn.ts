/**
 * The visitor's voice at the open microphone, hands-free: while the coach speaks, it is held at
 * the detector's first doubt (voiceHold.ts: silent, keeping its place), goes on after a false
 * start (a cough, a click, its own echo), and is interrupted when the detector is sure it is the
 * visitor (barge-in); while the coach waits (ready, paused), the voice starts listening.
 */
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';
import type { AudioPort } from './ports';
import type { VoiceStatus } from './voiceButtonMachine';
import { VoiceHold } from './voiceHold';

export type BargeInEvent =
  /** The visitor speaks over the coach: it stops, and the visitor is listened to. */
  | { type: 'visitor-interrupts' }
  /** The visitor speaks while the coach waits: it listens. */
  | { type: 'visitor-speaks' };

/** What the reaction reads of the session. */
export interface BargeInContext {
  /** Hands-free is on and the visitor did not stop it with a click. */
  listensToVoice: () => boolean;
  status: () => VoiceStatus;
  /** The coach's current turn has started to sound (before that there is nothing to hold). */
  audible: () => boolean;
}

export class BargeIn {
  private readonly hold: VoiceHold;

  /** `raiseEcho` runs after a false start: the coach's echo is expected louder from now on. */
  constructor(
    private readonly audio: Pick<AudioPort, 'hold' | 'release'>,
    raiseEcho: () => void,
    private readonly context: BargeInContext,
    private readonly emit: (event: BargeInEvent) => void,
  ) {
    this.hold = new VoiceHold(audio, raiseEcho);
  }

  /** The coach starts a turn of its own (a greeting, an answer): it may be held once in it. */
  newTurn(): void {
    this.hold.newTurn();
  }

  /** Lets a held coach go on (the microphone closes while it is held). */
  release(): void {
    this.hold.release();
  }

  /** One frame's decision of the detector. */
  heard(frameMs: number, events: readonly VoiceActivityEvent[]): void {
    for (const change of events) this.onVoice(change);
    this.hold.frame(frameMs, events);
  }

  private onVoice(change: VoiceActivityEvent): void {
    switch (change) {
      case 'speech-maybe':
        // Probably the visitor: the coach goes quiet at once, keeping its place while it is decided.
        this.hold.maybe(this.context.listensToVoice() && this.context.status() === 'speaking' && this.context.audible());
        return;
      case 'speech-dropped':
        // …and goes on if it was a cough, a click or the coach's own echo.
        this.hold.falseStart();
        return;
      case 'speech-start': {
        const held = this.hold.decided();
        this.onSpeechStart();
        // Not a barge-in after all (hands-free switched off meanwhile): the coach goes on.
        if (held && this.context.status() === 'speaking') this.audio.release();
        return;
      }
      case 'speech-end':
        return;
    }
  }

  private onSpeechStart(): void {
    if (!this.context.listensToVoice()) return;
    const status = this.context.status();
    // Barge-in by voice: the visitor's own voice stops the coach and is listened to.
    if (status === 'speaking') this.emit({ type: 'visitor-interrupts' });
    else if (status === 'ready' || status === 'paused') this.emit({ type: 'visitor-speaks' });
  }
}
