/**
 * One reply of the coach, from the visitor's words to its last spoken word (services/replyPipeline.ts
 * runs the call and the speech), reported as events the session reduces. A speculative reply
 * (started on the visitor's words so far, before they are final) runs the same way but shows and
 * plays nothing until `confirm()`: its events are held and its audio is gated; `cancel()` drops
 * it unseen.
 */
import { CoachCallError, type CoachMessage, type CoachMode } from '../../../services/coach';
import { runReply, type ReplyOutcome } from '../../../services/replyPipeline';
import { coachPlaybackMessage } from '../../../services/speechErrors';
import { coachTexts } from '../texts';
import { heldUntilConfirmed } from './heldUntilConfirmed';
import type { CoachCallPort, SpeechPort } from './ports';

/** One reply in progress. */
export interface ReplyTurn {
  /** The visitor's words it answers. */
  readonly text: string;
  /** A speculative reply is shown and heard from now on. */
  confirm(): void;
  /** Drops a speculative reply unseen (a confirmed one goes on). */
  cancel(): void;
  /** Stops it now, confirmed or not (barge-in, the end of the conversation). */
  abort(): void;
  readonly aborted: boolean;
}

export type ReplyEvent =
  /** The visitor's words and the coach's (still empty) answer appear in the chat. */
  | { type: 'reply-asked'; userId: string; replyId: string; text: string }
  | { type: 'reply-meta'; conversationId: string | null; mode: CoachMode }
  /** The answer so far (the whole text). */
  | { type: 'reply-text'; replyId: string; text: string }
  /** The first piece went to text-to-speech (even of a reply not yet confirmed). */
  | { type: 'reply-first-chunk' }
  /** Its first sound. */
  | { type: 'reply-sounding'; reply: ReplyTurn }
  /** Its voice could not be fetched or played (the text goes on): the message to show. */
  | { type: 'reply-problem'; message: string }
  /** The answer is complete: answered, empty (no text at all) or broken (the stream broke after some text). */
  | { type: 'reply-finished'; replyId: string; outcome: ReplyOutcome['kind'] }
  /** The call failed: the catalogue message stands in the answer's place (it is not spoken). */
  | { type: 'reply-failed'; replyId: string; message: string }
  /** Stopped on purpose; `shown`: it had been confirmed, so what came stays. */
  | { type: 'reply-cut'; reply: ReplyTurn; replyId: string; shown: boolean };

let nextId = 0;
export function newEntryId(): string {
  nextId += 1;
  return `m${nextId}`;
}

export interface ReplyRequest {
  text: string;
  /** The conversation so far, ending with the visitor's words. */
  history: CoachMessage[];
  conversationId: string | null;
  speculative: boolean;
}

export function startReply(
  { text, history, conversationId, speculative }: ReplyRequest,
  ports: { coach: Pick<CoachCallPort, 'startReply'>; speech(): Promise<SpeechPort> },
  emit: (event: ReplyEvent) => void,
): ReplyTurn {
  const controller = new AbortController();
  const { gate, run, confirmed, confirm } = heldUntilConfirmed(speculative);
  const replyId = newEntryId();
  const reply: ReplyTurn = {
    text,
    confirm,
    cancel: () => {
      if (!confirmed()) controller.abort();
    },
    abort: () => controller.abort(),
    get aborted() {
      return controller.signal.aborted;
    },
  };
  run(() => emit({ type: 'reply-asked', userId: newEntryId(), replyId, text }));

  void (async () => {
    try {
      // The answer's machinery loads with the first click (the greeting), not with the page.
      const { createQueue } = await ports.speech();
      const outcome = await runReply(history, {
        conversationId,
        signal: controller.signal,
        gate,
        startReply: ports.coach.startReply,
        createQueue,
        onMeta: (meta) => run(() => emit({ type: 'reply-meta', ...meta })),
        onText: (reply) => run(() => emit({ type: 'reply-text', replyId, text: reply })),
        onFirstChunk: () => emit({ type: 'reply-first-chunk' }),
        // The audio is gated: the first sound of a speculative reply comes only once it is confirmed.
        onSpeaking: () => emit({ type: 'reply-sounding', reply }),
        onPlaybackProblem: (error) => run(() => emit({ type: 'reply-problem', message: coachPlaybackMessage(error) })),
      });
      run(() => emit({ type: 'reply-finished', replyId, outcome: outcome.kind }));
    } catch (error) {
      if (controller.signal.aborted) {
        emit({ type: 'reply-cut', reply, replyId, shown: confirmed() });
        return;
      }
      // The catalogue messages appear as the coach's answer; they are not spoken, because the
      // voice usually fails for the same reason the call did.
      const message = error instanceof CoachCallError ? coachTexts.errors.callFailed : coachTexts.errors.processing;
      run(() => emit({ type: 'reply-failed', replyId, message }));
    }
  })();
  return reply;
}
