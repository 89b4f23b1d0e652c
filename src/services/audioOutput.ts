/**
 * The one audio output of the page: an AudioContext with the PCM player worklet
 * (pcmPlayer.worklet.ts) that plays speech from its first bytes, in every browser, piece after
 * piece without gaps. Tempo beyond what the voice provider can do is the player's read speed; a
 * SoundTouch node (@soundtouchjs/audio-worklet) after it restores the pitch and applies the pitch
 * setting, so tempo and pitch are independent. Without tempo or pitch changes the node is not in
 * the chain (and its code is not loaded).
 *
 * `unlockAudio()` must run inside the visitor's click (or key press): iOS Safari refuses to start
 * an AudioContext later, and every browser may refuse autoplay without a gesture.
 */
import { PlaybackError } from './speechErrors';
import type { PlayerCommand, PlayerEvent } from './pcmPlayer.worklet';

/** Speech needs no more; the browser resamples to the device with a proper filter. */
const CONTEXT_SAMPLE_RATE = 24_000;
/** How long a suspended context may take to start before playback counts as blocked. */
const RESUME_TIMEOUT_MS = 1_500;

let context: AudioContext | null = null;
/** Everything the page plays, for the microphone's echo comparison (see `playbackReference`). */
let reference: GainNode | null = null;

function createContext(): AudioContext | null {
  if (typeof window === 'undefined' || typeof window.AudioContext !== 'function') return null;
  try {
    return new AudioContext({ sampleRate: CONTEXT_SAMPLE_RATE, latencyHint: 'interactive' });
  } catch {
    // Older Safari refuses a sample rate of our choosing: the device's rate works too.
    return new AudioContext({ latencyHint: 'interactive' });
  }
}

/**
 * Creates (once) and starts the page's AudioContext. Call synchronously inside a user gesture; a
 * one-sample silent sound started here unlocks later playback on iOS.
 */
export function unlockAudio(): void {
  context ??= createContext();
  if (!context) return;
  if (context.state !== 'running') context.resume().catch(() => undefined);
  const source = context.createBufferSource();
  source.buffer = context.createBuffer(1, 1, context.sampleRate);
  source.connect(context.destination);
  source.start();
}

/** The page's AudioContext (created on first use; started by `unlockAudio`), or null without Web Audio. */
export function pageAudioContext(): AudioContext | null {
  context ??= createContext();
  return context;
}

/**
 * A node that carries what the page plays (the speech player's output) in the page's audio graph,
 * created on first use: the microphone's frames worklet takes it as its second input, so the
 * coach's echo can be compared with its source sample by sample.
 */
export function playbackReference(): AudioNode | null {
  const audio = pageAudioContext();
  if (!audio) return null;
  reference ??= audio.createGain();
  return reference;
}

/** One piece of speech (a clause or a sentence): played after every piece opened before it. */
export interface OutputPiece {
  /** Adds 16-bit little-endian mono samples as they arrive (any byte count). */
  push(bytes: Uint8Array): void;
  /** No more samples: the piece ends when what it has is played. */
  end(): void;
  /** Resolves when the piece has been played out, or when the output was stopped. */
  readonly done: Promise<void>;
}

export interface PieceFormat {
  sampleRate: number;
  /** Tempo applied here (the part of the speed the provider could not do). */
  playbackRate: number;
  pitch: number;
}

export interface AudioOutput {
  /** A new piece; `onStart` is called when its first sample is heard. */
  piece(format: PieceFormat, onStart?: () => void): OutputPiece;
  /** Stops at once and drops everything queued (barge-in, end of the conversation). */
  stop(): void;
  /** Goes silent at once, keeping its place (the visitor may be starting to speak). */
  hold(): void;
  /** Goes on after `hold()` (it was a cough, not the visitor speaking). */
  release(): void;
}

interface PendingPiece {
  onStart: (() => void) | undefined;
  finish: () => void;
}

async function ensureRunning(audio: AudioContext): Promise<void> {
  if (audio.state === 'running') return;
  await Promise.race([audio.resume().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, RESUME_TIMEOUT_MS))]);
  // `state` changes behind TypeScript's back: read it through a function so the check is not narrowed away.
  const state = (): AudioContextState => audio.state;
  if (state() !== 'running') throw new PlaybackError('blocked', `audio context ${state()}`);
}

let soundTouchLoaded: Promise<typeof import('@soundtouchjs/audio-worklet')> | null = null;

/** The SoundTouch node's module and processor, loaded the first time tempo or pitch is not 1. */
function loadSoundTouch(audio: AudioContext) {
  soundTouchLoaded ??= Promise.all([
    import('@soundtouchjs/audio-worklet'),
    import('@soundtouchjs/audio-worklet/processor?url'),
  ]).then(async ([module, { default: url }]) => {
    await module.SoundTouchNode.register(audio, url);
    return module;
  });
  soundTouchLoaded.catch(() => {
    soundTouchLoaded = null;
  });
  return soundTouchLoaded;
}

async function createOutput(audio: AudioContext): Promise<AudioOutput> {
  const { default: url } = await import('./pcmPlayer.worklet?worker&url');
  await audio.audioWorklet.addModule(url);
  const player = new AudioWorkletNode(audio, 'pcm-player', { numberOfInputs: 0, outputChannelCount: [1] });
  // Everything played passes here: to the speakers, and to the microphone's echo comparison.
  const mix = audio.createGain();
  mix.connect(audio.destination);
  const tap = playbackReference();
  if (tap) mix.connect(tap);
  player.connect(mix);

  let shifter: AudioWorkletNode | null = null;
  let shifterParams: { playbackRate: AudioParam; pitch: AudioParam } | null = null;
  let format = { sourceRate: 0, tempo: 0, pitch: 1 };
  let nextPiece = 0;
  let held = false;
  const pending = new Map<number, PendingPiece>();
  const send = (command: PlayerCommand, transfer: Transferable[] = []) => player.port.postMessage(command, transfer);
  const release = () => {
    held = false;
    send({ type: 'release' });
  };

  player.port.onmessage = (event: MessageEvent<PlayerEvent>) => {
    const entry = pending.get(event.data.piece);
    if (!entry) return;
    if (event.data.type === 'started') entry.onStart?.();
    else entry.finish();
  };

  /** Puts the SoundTouch node into the chain when tempo or pitch need it, and sets both. */
  async function apply({ sampleRate, playbackRate, pitch }: PieceFormat): Promise<void> {
    if (format.sourceRate === sampleRate && format.tempo === playbackRate && format.pitch === pitch) return;
    format = { sourceRate: sampleRate, tempo: playbackRate, pitch };
    if (playbackRate !== 1 || pitch !== 1) {
      if (!shifter) {
        const { SoundTouchNode } = await loadSoundTouch(audio);
        const node = new SoundTouchNode({ context: audio, outputChannelCount: 1 });
        shifter = node;
        shifterParams = { playbackRate: node.playbackRate, pitch: node.pitch };
        node.connect(mix);
      }
      if (shifterParams) {
        // The player reads faster (tempo); SoundTouch takes that pitch rise back out and applies the pitch.
        shifterParams.playbackRate.value = playbackRate;
        shifterParams.pitch.value = pitch;
      }
      player.disconnect();
      player.connect(shifter);
    } else if (shifter) {
      player.disconnect();
      player.connect(mix);
    }
    send({ type: 'format', sourceRate: sampleRate, tempo: playbackRate });
  }

  /** Formats apply one after the other, so a piece never plays before the chain for it stands. */
  let configured: Promise<void> = Promise.resolve();
  const configure = (pieceFormat: PieceFormat) => {
    configured = configured.then(() => apply(pieceFormat)).catch(() => undefined);
    return configured;
  };

  return {
    piece(pieceFormat, onStart) {
      const id = nextPiece;
      nextPiece += 1;
      let finish: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        finish = () => {
          pending.delete(id);
          resolve();
        };
      });
      pending.set(id, { onStart, finish });
      const ready = configure(pieceFormat);
      let odd: number | null = null;
      return {
        push(bytes) {
          let data = bytes;
          if (odd !== null) {
            data = new Uint8Array(bytes.length + 1);
            data[0] = odd;
            data.set(bytes, 1);
            odd = null;
          }
          const count = Math.floor(data.length / 2);
          if (data.length % 2 === 1) odd = data[data.length - 1] ?? 0;
          if (count === 0) return;
          const view = new DataView(data.buffer, data.byteOffset, count * 2);
          const floats = new Float32Array(count);
          for (let index = 0; index < count; index += 1) floats[index] = view.getInt16(index * 2, true) / 32_768;
          void ready.then(() => send({ type: 'push', piece: id, samples: floats }, [floats.buffer]));
        },
        end() {
          void ready.then(() => send({ type: 'end', piece: id }));
        },
        done,
      };
    },
    stop() {
      send({ type: 'clear', next: nextPiece });
      // The next answer must not start held.
      if (held) release();
      for (const entry of [...pending.values()]) entry.finish();
    },
    hold() {
      held = true;
      send({ type: 'hold' });
    },
    release,
  };
}

let output: Promise<AudioOutput> | null = null;
/** The output once it stands, for synchronous commands (a hold must act within the frame). */
let ready: AudioOutput | null = null;

/** Silences the output at once, keeping its place (no-op without an output). */
export function holdOutput(): void {
  ready?.hold();
}

/** Lets a held output go on. */
export function releaseOutput(): void {
  ready?.release();
}

/**
 * The page's audio output, ready to play. Rejects with PlaybackError: 'blocked' when the browser
 * keeps audio off (no gesture unlocked it), 'failed' when Web Audio is missing or the worklet
 * cannot load.
 */
export async function audioOutput(): Promise<AudioOutput> {
  context ??= createContext();
  const audio = context;
  if (!audio) throw new PlaybackError('failed', 'Web Audio unsupported');
  await ensureRunning(audio);
  output ??= createOutput(audio);
  try {
    ready = await output;
    return ready;
  } catch (error) {
    output = null;
    throw error instanceof PlaybackError ? error : new PlaybackError('failed', error instanceof Error ? error.message : String(error));
  }
}

/** The output if it already exists (to stop it), without creating one. */
export function currentOutput(): Promise<AudioOutput> | null {
  return output;
}
