/**
 * The coach held while the voice detector decides whether the visitor is speaking over it: silent
 * at the detector's first doubt, keeping its place. At most once per turn of the coach (a
 * greeting, an answer), so its own echo can never make it stutter between hold and release. A hold
 * the detector does not confirm within MAX_HOLD_MS of the microphone's audio is a false start: the
 * coach goes on. Counted in the microphone's frames, not on the clock, so a page too busy to
 * deliver them on time never lets the coach talk over a visitor whose voice is still being decided.
 */
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';

/** How long a hold may wait for the detector (it is sure at 250 ms of voice, the hold starts at 140 ms). */
export const MAX_HOLD_MS = 130;

export interface HeldOutput {
  hold(): void;
  release(): void;
}

export class VoiceHold {
  private available = true;
  /** The microphone's audio since the hold (ms); null while not held. */
  private heldMs: number | null = null;

  /** `onFalseStart` runs after the output was released for a hold that was not the visitor. */
  constructor(
    private readonly output: HeldOutput,
    private readonly onFalseStart: () => void,
  ) {}

  /** The coach starts a turn of its own: it may be held once in it. */
  newTurn(): void {
    this.available = true;
  }

  /** The detector doubts: the coach goes quiet, if it may be interrupted and was not held in this turn. */
  maybe(interruptible: boolean): void {
    if (!interruptible || !this.available) return;
    this.available = false;
    this.output.hold();
    this.heldMs = 0;
  }

  /** One more frame of the microphone; too long undecided is a false start. */
  frame(frameMs: number, events: readonly VoiceActivityEvent[]): void {
    if (this.heldMs === null || events.includes('speech-maybe')) return;
    this.heldMs += frameMs;
    if (this.heldMs >= MAX_HOLD_MS) this.falseStart();
  }

  /** Ends the wait of a hold, decided either way (the output stays as it is); whether there was one. */
  decided(): boolean {
    if (this.heldMs === null) return false;
    this.heldMs = null;
    return true;
  }

  /** A hold that was not the visitor (a cough, a click, the coach's own echo): the coach goes on. */
  falseStart(): void {
    if (!this.decided()) return;
    this.output.release();
    this.onFalseStart();
  }

  /** Lets a held output go on (e.g. the microphone closes while the coach is held). */
  release(): void {
    if (this.decided()) this.output.release();
  }
}
