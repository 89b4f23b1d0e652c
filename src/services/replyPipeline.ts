/**
 * One answer of the coach, from the request to the last spoken word: the text streams into the
 * panel, the first clause and then each finished sentence go to text-to-speech at once and are
 * played in order from their first bytes (a speech queue, speechQueue.ts), so the first audio
 * starts after a few words rather than after the whole reply.
 *
 * The coach call and the queue are passed in: the live coach hands over the real ones (loaded with
 * its first click), its tests hand over fakes.
 */
import { createSpeechChunker } from '../lib/speechChunks';
import type { CoachMessage, CoachMode, CoachReply } from './coach';
import type { SpeechQueue, SpeechQueueOptions } from './speechQueue';

export interface ReplyCallbacks {
  onMeta: (meta: { conversationId: string | null; mode: CoachMode }) => void;
  /** The reply so far (the whole text, not the delta). */
  onText: (text: string) => void;
  /** The first piece (a clause or a sentence) went to text-to-speech. */
  onFirstChunk: () => void;
  /** The first audio started. */
  onSpeaking: () => void;
  /** Audio problem (a TtsError or PlaybackError); the text goes on. */
  onPlaybackProblem: (error: unknown) => void;
}

export type ReplyOutcome =
  | { kind: 'answered' }
  /** The coach sent no text at all. */
  | { kind: 'empty' }
  /** The stream broke after some text arrived (that text stays). */
  | { kind: 'broken' };

/** services/coach.ts `startCoachReply`. */
export type StartCoachReply = (
  history: readonly CoachMessage[],
  options: { conversationId: string | null; signal: AbortSignal },
) => Promise<CoachReply>;

export interface ReplyOptions extends ReplyCallbacks {
  conversationId: string | null;
  signal: AbortSignal;
  /** Nothing is played before this resolves (a reply started before the visitor finished). */
  gate?: Promise<void>;
  startReply: StartCoachReply;
  createQueue: (options: SpeechQueueOptions) => SpeechQueue;
}

/**
 * Runs the reply. Throws CoachCallError when the call fails before any text arrived, and the
 * signal's abort error when it was cancelled (barge-in, end of conversation, leaving the page).
 */
export async function runReply(
  history: readonly CoachMessage[],
  { conversationId, signal, gate, startReply, createQueue, ...callbacks }: ReplyOptions,
): Promise<ReplyOutcome> {
  const reply = await startReply(history, { conversationId, signal });
  callbacks.onMeta({ conversationId: reply.conversationId, mode: reply.mode });

  const queue = createQueue({
    signal,
    onStart: callbacks.onSpeaking,
    onProblem: callbacks.onPlaybackProblem,
    ...(gate ? { gate } : {}),
  });
  const chunks = createSpeechChunker();
  let first = true;
  const speak = (piece: string) => {
    if (first) {
      first = false;
      callbacks.onFirstChunk();
    }
    queue.enqueue(piece);
  };

  let text = '';
  try {
    for await (const delta of reply.deltas) {
      text += delta;
      callbacks.onText(text);
      chunks.push(delta).forEach(speak);
    }
  } catch (error) {
    if (signal.aborted || text.trim() === '') throw error;
    await queue.finished();
    return { kind: 'broken' };
  }
  const rest = chunks.flush();
  if (rest) speak(rest);
  if (text.trim() === '') return { kind: 'empty' };
  await queue.finished();
  signal.throwIfAborted();
  return { kind: 'answered' };
}
