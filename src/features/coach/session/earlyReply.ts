/**
 * The early start of a reply. The visitor's words are final only some time after they stopped
 * speaking (the recogniser waits for a long pause; the recording path for 700 ms of silence).
 * When the listening path reports a pause, the reply starts on the words so far, speculatively:
 * the model and the voice work, but nothing is shown or heard until the final words confirm the
 * same words (case and punctuation aside); otherwise that reply is cancelled and the session asks
 * again with the final words. Any listening path drives it the same way: `pause`, `resume`, `settle`.
 */
import { sameWords } from '../../../lib/sameWords';
import type { ReplyTurn } from './reply';

export type EarlyReplyEvent = { type: 'early-reply-started'; text: string };

export class EarlyReply {
  private reply: ReplyTurn | null = null;

  /** `start` starts a speculative reply to the words. */
  constructor(
    private readonly start: (text: string) => ReplyTurn,
    private readonly emit: (event: EarlyReplyEvent) => void,
  ) {}

  /** The visitor pauses: a reply starts on the words so far (again only when they are other words). */
  pause(text: string): void {
    if (this.reply && sameWords(this.reply.text, text)) return;
    this.cancel();
    this.emit({ type: 'early-reply-started', text });
    this.reply = this.start(text);
  }

  /** The visitor goes on speaking: the reply started on the words so far is dropped. */
  resume(): void {
    this.cancel();
  }

  /**
   * The visitor's final words: the early reply is confirmed when it has them (true); otherwise it
   * is dropped and the caller asks with the final words (false).
   */
  settle(text: string): boolean {
    const reply = this.reply;
    this.reply = null;
    if (reply && sameWords(reply.text, text)) {
      reply.confirm();
      return true;
    }
    reply?.cancel();
    return false;
  }

  cancel(): void {
    this.reply?.cancel();
    this.reply = null;
  }
}
