/**
 * Listening without a word: how long so far, counted in the microphone's own frames (so a busy
 * page never cuts a visitor short). The visitor's voice ends the count; a voice the detector still
 * doubts (a cough?) halts it until decided. After `limitMs` of quiet, `onQuiet` runs once.
 */
import type { VoiceActivityEvent } from '../../../lib/voiceActivity';

export class QuietCount {
  private count: { ms: number; onQuiet: () => void; doubt: boolean } | null = null;

  constructor(private readonly limitMs: number) {}

  start(onQuiet: () => void): void {
    this.count = { ms: 0, onQuiet, doubt: false };
  }

  stop(): void {
    this.count = null;
  }

  frame(frameMs: number, events: readonly VoiceActivityEvent[]): void {
    const count = this.count;
    if (!count) return;
    if (events.includes('speech-start')) {
      this.count = null;
      return;
    }
    if (events.includes('speech-maybe')) count.doubt = true;
    if (events.includes('speech-dropped')) count.doubt = false;
    if (count.doubt) return;
    count.ms += frameMs;
    if (count.ms < this.limitMs) return;
    this.count = null;
    count.onQuiet();
  }
}
