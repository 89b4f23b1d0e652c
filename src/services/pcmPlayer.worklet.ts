/**
 * An AudioWorklet that plays raw speech samples while they are still arriving: the coach's answer
 * comes as pieces (a clause, then sentences), each a stream of 16-bit PCM from the `tts` function.
 * The main thread posts each piece's samples as they arrive; this processor plays the pieces in
 * order, one right after the other (no gap, no click between them), and waits (silence) when the
 * piece it is playing has not arrived far enough yet.
 *
 * Messages in: `push` (samples of a piece), `end` (a piece is complete), `clear` (barge-in: drop
 * everything at once), `format` (source sample rate and tempo), `hold` / `release` (silent at once
 * while the visitor may be starting to speak, then on from the same place if it was a false start). Messages out: `started` (the first
 * sample of a piece is being played) and `ended` (its last sample was played).
 *
 * Tempo: the samples are read `tempo` times faster (linear interpolation), which also raises the
 * pitch; a SoundTouch node after this one corrects the pitch (audioOutput.ts), so tempo and pitch
 * stay independent. Loaded as a file of its own (`?worker&url`): the CSP allows no inline code.
 */

import { scope } from './workletScope';

export type PlayerCommand =
  | { type: 'push'; piece: number; samples: Float32Array }
  | { type: 'end'; piece: number }
  /** Drops every piece; the next piece to play is `next`. */
  | { type: 'clear'; next: number }
  | { type: 'format'; sourceRate: number; tempo: number }
  /** Silence at once without losing the place (the visitor may be starting to speak); `release` goes on. */
  | { type: 'hold' }
  | { type: 'release' };

export type PlayerEvent = { type: 'started'; piece: number } | { type: 'ended'; piece: number };

class Piece {
  data = new Float32Array(4096);
  length = 0;
  complete = false;
  started = false;

  append(samples: Float32Array): void {
    if (this.length + samples.length > this.data.length) {
      let size = this.data.length * 2;
      while (size < this.length + samples.length) size *= 2;
      const grown = new Float32Array(size);
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(samples, this.length);
    this.length += samples.length;
  }
}

class PcmPlayer extends scope.AudioWorkletProcessor {
  private readonly pieces = new Map<number, Piece>();
  private current = 0;
  /** Read position (in source samples, fractional) inside the current piece. */
  private position = 0;
  /** Source samples per output sample: source rate / context rate × tempo. */
  private step = 1;
  private held = false;

  constructor() {
    super();
    this.port.onmessage = (event: MessageEvent<PlayerCommand>) => this.command(event.data);
  }

  private piece(id: number): Piece {
    let piece = this.pieces.get(id);
    if (!piece) {
      piece = new Piece();
      this.pieces.set(id, piece);
    }
    return piece;
  }

  private command(command: PlayerCommand): void {
    switch (command.type) {
      case 'push':
        if (command.piece >= this.current) this.piece(command.piece).append(command.samples);
        return;
      case 'end':
        if (command.piece >= this.current) this.piece(command.piece).complete = true;
        return;
      case 'clear':
        this.pieces.clear();
        this.current = command.next;
        this.position = 0;
        return;
      case 'format':
        this.step = (command.sourceRate / scope.sampleRate) * command.tempo;
        return;
      case 'hold':
        this.held = true;
        return;
      case 'release':
        this.held = false;
        return;
    }
  }

  /**
   * The sample at `index` of the current piece or, past its end, of the pieces after it; null when
   * it has not arrived yet. Past the end of a complete piece with nothing queued after it, 0: the
   * piece's last sample fades into silence instead of waiting for a piece that may never come.
   */
  private sampleAt(index: number): number | null {
    let id = this.current;
    let offset = index;
    for (;;) {
      const piece = this.pieces.get(id);
      if (!piece) return id === this.current ? null : 0;
      if (offset < piece.length) return piece.data[offset] ?? 0;
      if (!piece.complete) return null;
      offset -= piece.length;
      id += 1;
    }
  }

  /** Moves past the pieces the read position has left, announcing their end. */
  private advance(): void {
    for (;;) {
      const piece = this.pieces.get(this.current);
      if (!piece?.complete || this.position < piece.length) return;
      this.position -= piece.length;
      this.pieces.delete(this.current);
      this.port.postMessage({ type: 'ended', piece: this.current } satisfies PlayerEvent);
      this.current += 1;
    }
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const output = outputs[0]?.[0];
    if (!output) return true;
    if (this.held) {
      output.fill(0);
      return true;
    }
    for (let frame = 0; frame < output.length; frame += 1) {
      const index = Math.floor(this.position);
      const first = this.sampleAt(index);
      const second = this.sampleAt(index + 1);
      if (first === null || second === null) {
        // Not arrived yet (or nothing to say): silence, and the position waits.
        output[frame] = 0;
        continue;
      }
      const piece = this.pieces.get(this.current);
      if (piece && !piece.started) {
        piece.started = true;
        this.port.postMessage({ type: 'started', piece: this.current } satisfies PlayerEvent);
      }
      const fraction = this.position - index;
      output[frame] = first + (second - first) * fraction;
      this.position += this.step;
      this.advance();
    }
    return true;
  }
}

scope.registerProcessor('pcm-player', PcmPlayer);
