/**
 * The coach's greeting, spoken when the conversation opens: the same text every time, so the `tts`
 * function serves it from its cache.
 *
 * With a mouse it starts a moment earlier: a click takes about a tenth of a second from the button
 * going down to it coming up, and the button going down is already a user activation (browsers
 * let it start audio). So at the press the greeting's synthesis is asked for, held like an early
 * reply: nothing sounds, shows or is reported (a playback problem included) before the click,
 * which confirms it. A press that does not become a click within PRESS_CLICK_MS (dragged off the
 * button and released elsewhere) drops its request again.
 */
import { persona } from '../../../config/persona';
import { coachPlaybackMessage } from '../../../services/speechErrors';
import { coachTexts } from '../texts';
import { heldUntilConfirmed } from './heldUntilConfirmed';
import type { AudioPort, SpeechPort } from './ports';

/**
 * How long a greeting started at the press of a mouse button waits for the click that opens the
 * chat: longer than any deliberate click, short enough that a press dragged away and released
 * elsewhere does not keep a synthesis open.
 */
export const PRESS_CLICK_MS = 1_500;

/** One greeting being fetched and spoken. */
export interface GreetingTurn {
  abort(): void;
  readonly aborted: boolean;
}

export type GreetingEvent =
  /** The greeting's first sound. */
  | { type: 'greeting-sounding'; greeting: GreetingTurn }
  /** Its voice could not be fetched or played (the text stays readable): the message to show. */
  | { type: 'greeting-problem'; greeting: GreetingTurn; message: string }
  /** It has been said, could not be, or was cut short (`cut`: stopped on purpose). */
  | { type: 'greeting-ended'; greeting: GreetingTurn; cut: boolean };

interface Started {
  turn: GreetingTurn;
  confirm(): void;
}

export class Greeter {
  /** The greeting fetched since the mouse button went down, waiting for its click until `timer` drops it. */
  private pressed: (Started & { timer: ReturnType<typeof setTimeout> }) | null = null;

  constructor(
    private readonly ports: { audio: AudioPort; speech(): Promise<SpeechPort> },
    private readonly emit: (event: GreetingEvent) => void,
  ) {}

  /**
   * The mouse button went down on the idle button: the page's audio output starts (the press is a
   * user activation) and the greeting is fetched, held for the click.
   */
  press(): void {
    if (this.pressed !== null) return;
    this.ports.audio.unlock();
    const started = this.start(true);
    this.pressed = { ...started, timer: setTimeout(() => this.dropPressed(), PRESS_CLICK_MS) };
  }

  /**
   * The conversation opens: the pressed greeting, or a new one. `confirm()` lets a pressed greeting
   * show and sound (the session calls it once the chat is open for its events).
   */
  open(): { turn: GreetingTurn; confirm(): void } {
    return this.takePressed() ?? this.start(false);
  }

  /** A pressed greeting no longer waits for its click (the press went elsewhere, the page went away). */
  dropPressed(): void {
    this.takePressed()?.turn.abort();
  }

  private takePressed(): Started | null {
    const pressed = this.pressed;
    this.pressed = null;
    if (pressed) clearTimeout(pressed.timer);
    return pressed;
  }

  /** Fetches and speaks the greeting; a speculative one plays, reports and finishes nothing until confirmed. */
  private start(speculative: boolean): Started {
    // The player's set-up runs while the greeting is fetched, not after.
    this.ports.audio.prepare();
    const controller = new AbortController();
    const turn: GreetingTurn = {
      abort: () => controller.abort(),
      get aborted() {
        return controller.signal.aborted;
      },
    };
    const { gate, run, confirm } = heldUntilConfirmed(speculative);
    this.ports
      .speech()
      .then(({ createQueue }) => {
        const queue = createQueue({
          signal: controller.signal,
          gate,
          onStart: () => this.emit({ type: 'greeting-sounding', greeting: turn }),
          onProblem: (error) => run(() => this.emit({ type: 'greeting-problem', greeting: turn, message: coachPlaybackMessage(error) })),
        });
        queue.enqueue(persona.greeting, { cache: true });
        return queue.finished();
      })
      .catch(() => {
        // The code could not be loaded (connection lost): the greeting stays readable.
        run(() => this.emit({ type: 'greeting-problem', greeting: turn, message: coachTexts.errors.playback }));
      })
      .finally(() => {
        run(() => this.emit({ type: 'greeting-ended', greeting: turn, cut: controller.signal.aborted }));
      });
    return { turn, confirm };
  }
}
