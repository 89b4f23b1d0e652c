/**
 * The visitor's turn: listening with whatever this browser has, from the start of listening to
 * the visitor's final words. It picks the listening path: the browser's recogniser where there is
 * one (unless the operator sends every browser through the speech-to-text provider); else the
 * microphone streamed to the `stt-stream` function; else recording for the `stt` function; nothing
 * where none works. A recogniser whose service fails is replaced for the page view by the stream
 * (or recording), a stream that fails by recording, which takes over the turn's audio. It ends
 * the path, counts the quiet spell, starts a reply early when the visitor pauses (earlyReply.ts), and
 * reduces the path's events into the turn's (`TurnEvent`), which the session reduces into the
 * voice button and the replies.
 */
import { EarlyReply, type EarlyReplyEvent } from './earlyReply';
import { RecogniserPath } from './recogniserPath';
import { RecordingPath } from './recordingPath';
import { StreamingPath } from './streamingPath';
import type { ListeningEmit, ListeningEvent, ListeningPath } from './listeningPath';
import type { CoachPorts } from './ports';
import { QuietCount } from './quietCount';
import type { ReplyTurn } from './reply';
import type { VoiceStatus } from './voiceButtonMachine';
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';
import { SpeechRecognitionError, type RecognitionProblem } from '../../../services/speechRecognition';
import { STREAM_SAMPLE_RATE, type SpeechStreamCapability } from '../../../services/speechStream';
import { coachTexts } from '../texts';

/**
 * Listening without a word for this long: hands-free pauses (visibly); on the recording path
 * without hands-free it ends as 'Keine Sprache erkannt…'.
 */
export const QUIET_MS = 8_000;

const recognitionMessages: Record<RecognitionProblem, string> = {
  denied: coachTexts.errors.microphoneDenied,
  noSpeech: coachTexts.errors.noSpeech,
  unsupported: coachTexts.errors.unsupported,
  failed: coachTexts.errors.processing,
};

/** The catalogue message of a failure to listen (a SpeechRecognitionError names its problem). */
export function recognitionMessage(error: unknown): string {
  return error instanceof SpeechRecognitionError ? recognitionMessages[error.problem] : coachTexts.errors.processing;
}

export type TurnEvent =
  /** Listening has started (the button listens). */
  | { type: 'listening-started' }
  /** The turn is recorded or streamed from now on (the microphone opens for it). */
  | { type: 'listening-recording' }
  /** This browser cannot listen: no recogniser, and no provider for the stt function. */
  | { type: 'listening-unsupported' }
  /** The path's reports that pass through as they are. */
  | Extract<ListeningEvent, { type: 'listening-interim' | 'listening-pause' | 'listening-resume' | 'listening-transcribing' | 'segment-sent' | 'segment-words' }>
  | EarlyReplyEvent
  /** The visitor's final words ('' when the recogniser heard nothing it would call words). */
  | { type: 'listening-final'; text: string }
  /** Hands-free through silence: listening pauses, visibly, until the visitor's voice or a click. */
  | { type: 'listening-paused' }
  /** Listening ended without words (stopped by a click, or by the recogniser's own silence limit). */
  | { type: 'listening-ended' }
  /** Listening failed or heard nothing: `message` is the catalogue's for `error`. */
  | { type: 'listening-failed'; error: unknown; message: string };

/** What the turn reads of the session. */
export interface TurnContext {
  status: () => VoiceStatus;
  handsFree: () => boolean;
  /** Hands-free is on (in an open conversation) and the visitor did not stop it with a click. */
  handsFreeActive: () => boolean;
  /** Milliseconds since the visitor last spoke, or null while the microphone is closed. */
  silenceMs: () => number | null;
  /** Starts a speculative reply to the words so far (shown and heard once confirmed). */
  replyEarly: (text: string) => ReplyTurn;
}

export class Listening {
  /** How the current turn is heard, or null. */
  private path: ListeningPath | null = null;
  private readonly quiet = new QuietCount(QUIET_MS);
  /** The browser's recognition service failed (e.g. Chromium without Google's service): record instead. */
  private recogniserBroken = false;
  /** Whether the stt function has a provider; null until asked. */
  private transcription: boolean | null = null;
  /** Whether the stt-stream function has a transcriber and every browser should use it; null until known. */
  private streaming: SpeechStreamCapability | null = null;
  private streamingAsked: Promise<SpeechStreamCapability> | null = null;
  /** A stream failed: the rest of the page view records instead. */
  private streamBroken = false;
  /** Counts starts and aborts: an answer that arrives after either is for a turn that is gone. */
  private generation = 0;
  private readonly earlyReply: EarlyReply;

  constructor(
    private readonly ports: Pick<CoachPorts, 'recognition' | 'transcription' | 'streaming'>,
    private readonly context: TurnContext,
    private readonly emit: (event: TurnEvent) => void,
  ) {
    this.earlyReply = new EarlyReply(context.replyEarly, emit);
  }

  /** The listening path, while there is one (the ear hands it the microphone's frames). */
  get current(): ListeningPath | null {
    return this.path;
  }

  /** Whether the current path hears through the session's microphone. */
  get needsMicrophone(): boolean {
    return this.path?.needsMicrophone === true;
  }

  /** Asks early (when the conversation opens) whether the stt and stt-stream functions have a provider. */
  askTranscription(): void {
    void this.ports.transcription.available().then((available) => {
      this.transcription = available;
    });
    void this.askStreaming();
  }

  /** Starts listening (from ready, paused, or speaking as a barge-in) with whatever this browser has. */
  listen(): void {
    const generation = ++this.generation;
    // Which service may hear the voice is the operator's to say: known before the first word.
    if (this.streaming === null) {
      void this.askStreaming().then(() => {
        if (generation === this.generation) this.choosePath();
      });
      return;
    }
    this.choosePath();
  }

  private askStreaming(): Promise<SpeechStreamCapability> {
    this.streamingAsked ??= this.ports.streaming.capability().then(
      (capability) => (this.streaming = capability),
      () => (this.streaming = { available: false, everyBrowser: false }),
    );
    return this.streamingAsked;
  }

  /** Whether this turn can be streamed (the capability is known by now). */
  private canStream(): boolean {
    return this.streaming?.available === true && !this.streamBroken && this.ports.streaming.canStream();
  }

  private choosePath(): void {
    const everyBrowser = this.streaming?.everyBrowser === true;
    if (this.ports.recognition.supported() && !this.recogniserBroken && !everyBrowser) {
      this.emit({ type: 'listening-started' });
      // Hands-free: a quiet spell pauses listening (the browser's recogniser may never end by itself).
      if (this.context.handsFree()) this.startQuietCount();
      this.listenWith((emit) => new RecogniserPath(this.ports.recognition, this.context.silenceMs, emit));
      return;
    }
    if (this.canStream()) {
      this.emit({ type: 'listening-started' });
      this.stream();
      return;
    }
    const start = (available: boolean) => {
      this.transcription = available;
      if (available && this.ports.transcription.canRecord()) {
        this.emit({ type: 'listening-started' });
        this.record();
      } else this.emit({ type: 'listening-unsupported' });
    };
    if (this.transcription !== null) start(this.transcription);
    else void this.ports.transcription.available().then(start);
  }

  /** The visitor's click while listening: what was said so far still arrives as the final words. */
  stop(): void {
    this.path?.stop();
  }

  /** Stops whatever listens: the path, the quiet count, an early reply. No event follows. */
  abort(): void {
    this.generation += 1;
    this.path?.abort();
    this.path = null;
    this.quiet.stop();
    this.earlyReply.cancel();
  }

  /**
   * The visitor's final words have been shown as such: the early reply goes on if it has the
   * same words (true); otherwise it is dropped and the session asks with them (false).
   */
  settle(text: string): boolean {
    return this.earlyReply.settle(text);
  }

  /** The microphone's frame, before anything else hears it: the quiet spell is counted in frames. */
  countQuiet(frameMs: number, events: readonly VoiceActivityEvent[]): void {
    this.quiet.frame(frameMs, events);
  }

  /** The microphone could not be opened: a path that hears through it fails. */
  microphoneRefused(error: unknown): void {
    if (this.needsMicrophone) this.fail(error);
  }

  private fail(error: unknown): void {
    this.abort();
    this.emit({ type: 'listening-failed', error, message: recognitionMessage(error) });
  }

  private pause(): void {
    if (this.context.status() !== 'listening') return;
    this.abort();
    this.emit({ type: 'listening-paused' });
  }

  /** The recording path: the visitor's turn recorded from the voice onset and transcribed by the stt function. */
  private record(): void {
    this.startQuietCount();
    this.listenWith((emit) => new RecordingPath(this.ports.transcription, emit));
    this.emit({ type: 'listening-recording' });
  }

  /** The streamed path: the visitor's turn streamed from the voice onset to the stt-stream function. */
  private stream(): void {
    this.startQuietCount();
    this.listenWith((emit) => new StreamingPath(this.ports.streaming, emit));
    this.emit({ type: 'listening-recording' });
  }

  /** Makes the path the current one (and returns it); only the current path's events are heard. */
  private listenWith<Path extends ListeningPath>(create: (emit: ListeningEmit) => Path): Path | null {
    let path: Path | null = null;
    try {
      path = create((event) => {
        if (path !== null && this.path === path) this.heard(event);
      });
    } catch (error) {
      this.fail(error);
      return null;
    }
    this.path = path;
    return path;
  }

  /**
   * Listening without a word for a long time (QUIET_MS of the microphone's frames): hands-free
   * pauses (visibly); otherwise the path decides (the recording path ends its turn, 'Keine Sprache
   * erkannt…'). Without an open microphone nothing is counted: the browser's recogniser keeps its
   * own time.
   */
  private startQuietCount(): void {
    this.quiet.start(() => {
      if (this.context.handsFreeActive()) this.pause();
      else this.path?.quiet();
    });
  }

  private heard(event: ListeningEvent): void {
    switch (event.type) {
      case 'listening-interim':
        this.quiet.stop();
        this.emit(event);
        return;
      case 'listening-pause':
        this.emit(event);
        this.earlyReply.pause(event.text);
        return;
      case 'listening-resume':
        this.emit(event);
        this.earlyReply.resume();
        return;
      case 'listening-final':
        this.path = null;
        this.quiet.stop();
        this.emit(event);
        return;
      case 'listening-ended':
        this.path = null;
        this.earlyReply.cancel();
        // Hands-free never drops back to click mode by itself: it pauses, visibly.
        if (this.context.handsFreeActive() && this.context.status() === 'listening') this.pause();
        else {
          this.quiet.stop();
          this.emit(event);
        }
        return;
      case 'listening-silent':
        // Hands-free: the recogniser's end that follows pauses listening instead.
        if (!this.context.handsFreeActive()) this.fail(event.error);
        return;
      case 'listening-failed':
        this.fail(event.error);
        return;
      case 'listening-unavailable':
        this.recogniserFailed(event.error);
        return;
      case 'listening-stream-failed':
        this.streamFailed(event);
        return;
      default:
        this.emit(event);
    }
  }

  /** The recogniser's service is not there: stream instead where this browser can, else record. */
  private recogniserFailed(error: unknown): void {
    if (!this.canStream()) {
      this.recordInstead(error);
      return;
    }
    this.path = null;
    this.earlyReply.cancel();
    this.recogniserBroken = true;
    this.stream();
  }

  /**
   * The stream failed (refused, no transcriber, the connection lost): the turn's audio so far goes
   * to the stt function instead, and recording takes over the rest of the turn and the page view.
   */
  private streamFailed({ error, heard, ended }: Extract<ListeningEvent, { type: 'listening-stream-failed' }>): void {
    this.streamBroken = true;
    this.path = null;
    this.earlyReply.cancel();
    if (this.transcription === false || !this.ports.transcription.canRecord()) {
      this.fail(error);
      return;
    }
    const generation = this.generation;
    const takeOver = (available: boolean) => {
      this.transcription = available;
      if (generation !== this.generation || this.path) return;
      if (!available) {
        this.fail(error);
        return;
      }
      const recording = this.listenWith((emit) => new RecordingPath(this.ports.transcription, emit));
      if (!ended) this.emit({ type: 'listening-recording' });
      recording?.takeOver(heard, STREAM_SAMPLE_RATE, ended);
    };
    if (this.transcription === true) takeOver(true);
    else void this.ports.transcription.available().then(takeOver);
  }

  /**
   * The recogniser's service is not there: go on listening by recording, once the stt function is
   * known to have a provider (a visitor who clicks at once may be faster than that answer).
   */
  private recordInstead(error: unknown): void {
    if (this.transcription === false || !this.ports.transcription.canRecord()) {
      this.fail(error);
      return;
    }
    this.path = null;
    this.earlyReply.cancel();
    const record = (available: boolean) => {
      this.transcription = available;
      if (this.context.status() !== 'listening' || this.path) return;
      if (!available) {
        this.fail(error);
        return;
      }
      this.recogniserBroken = true;
      this.record();
    };
    if (this.transcription === true) record(true);
    else void this.ports.transcription.available().then(record);
  }
}
