/**
 * A voice activity detector over 20 ms frames of microphone samples: decides when the visitor
 * starts and stops speaking. Pure (no audio APIs), so it is tested on synthetic signals; the
 * browser feeds it from an AudioWorklet (src/services/voiceActivity.ts).
 *
 * A frame counts as speech when both of these hold:
 * - it is clearly louder than the background (an adaptive noise floor: it follows quieter frames at
 *   once and rises slowly, so a steady fan or street noise becomes "background");
 * - most of its energy lies in the speech band (300–3,400 Hz): hiss, rumble and clicks do not.
 * While the coach speaks, its echo is taken out of the microphone's signal before the detector
 * decides (src/features/coach/session/echo.ts passes the remaining levels to `pushLevels`).
 * Speech starts after at least 250 ms of speech frames (gaps of up to 120 ms, the pauses between
 * syllables, do not break the run; loud unvoiced frames such as "sch" count once voiced speech has
 * begun): a cough, a click or a short noise does not interrupt the coach.
 * Speech ends after 700 ms without a speech frame.
 */

export interface VoiceActivityOptions {
  sampleRate: number;
  /** Speech needed before `speech-start` (ms). */
  minSpeechMs?: number;
  /** Silence needed before `speech-end` (ms). */
  endSilenceMs?: number;
  /** How far above the noise floor a frame must be (dB). */
  marginDb?: number;
  /** Below this a frame is silence whatever the floor (dBFS). */
  minLevelDb?: number;
  /** Share of the frame's energy that must lie in the speech band. */
  minSpeechBandShare?: number;
  /** Voice needed before `speech-maybe` (ms). */
  maybeMs?: number;
}

/**
 * One frame's loudness as measured elsewhere (src/features/coach/session/echo.ts takes the coach's
 * own echo out of the microphone's signal band by band and passes what remains).
 */
export interface FrameLevels {
  /** The loudness (RMS) the decision is made on. */
  rms: number;
  /** The microphone's own loudness: the background-noise floor follows it. */
  floorRms: number;
  /** Share of the energy that lies in the speech band (300–3,400 Hz). */
  speechBandShare: number;
  /** Samples in the frame. */
  samples: number;
}

/**
 * 'speech-maybe': 100 ms of voice, not yet enough to be sure (the coach can go quiet at once);
 * 'speech-dropped': that was a false start (a cough, a click: the coach goes on);
 * 'speech-start' / 'speech-end': the visitor speaks / has stopped.
 */
export type VoiceActivityEvent = 'speech-maybe' | 'speech-dropped' | 'speech-start' | 'speech-end';

export interface FrameAnalysis {
  levelDb: number;
  speechBandShare: number;
  /** Loud enough above the background. */
  loud: boolean;
  /** Voiced speech: loud with most energy in the speech band. */
  speech: boolean;
}

export interface VoiceActivityDetector {
  /** Analyses one frame; returns the events it caused. */
  push(frame: Float32Array): VoiceActivityEvent[];
  /** Decides on levels measured elsewhere (the echo already taken out): returns the events. */
  pushLevels(levels: FrameLevels): VoiceActivityEvent[];
  /** Whether the visitor is speaking (between speech-start and speech-end). */
  readonly speaking: boolean;
  /** Milliseconds since the last speech frame (0 while a speech frame just came). */
  readonly silenceMs: number;
  /** How long the current run of voice has lasted (ms; 0 outside one). */
  readonly runMs: number;
  /** The last frame's analysis (for tests and tuning). */
  readonly last: FrameAnalysis | null;
  reset(): void;
}

/** Frames of 20 ms: long enough for a level, short enough to react within a few frames. */
export const FRAME_MS = 20;

const GAP_TOLERANCE_MS = 120;
/** Voiced speech needed before unvoiced sounds count too. */
const MIN_VOICED_MS = 60;
/** Voice for this long is probably the visitor: worth silencing the coach while it is decided. */
const DEFAULT_MAYBE_MS = 100;
/**
 * The floor before anything was heard: a quiet room. A visitor who is already speaking when the
 * detector starts is heard at once; a louder room raises the floor within seconds.
 */
const INITIAL_FLOOR_DB = -50;
/** The floor rises this much per second when frames are louder than it. */
const FLOOR_RISE_DB_PER_SECOND = 3;

const toDb = (rms: number) => 20 * Math.log10(rms + 1e-9);

/** A second-order (Butterworth) filter, after the Audio EQ Cookbook. */
function biquad(kind: 'lowpass' | 'highpass', cutoff: number, sampleRate: number): (sample: number) => number {
  const omega = (2 * Math.PI * cutoff) / sampleRate;
  const alpha = Math.sin(omega) / Math.SQRT2;
  const cos = Math.cos(omega);
  const a0 = 1 + alpha;
  const b1 = (kind === 'lowpass' ? 1 - cos : -(1 + cos)) / a0;
  const b0 = (kind === 'lowpass' ? (1 - cos) / 2 : (1 + cos) / 2) / a0;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  return (x0) => {
    const y0 = b0 * x0 + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
    return y0;
  };
}

export function createVoiceActivityDetector(options: VoiceActivityOptions): VoiceActivityDetector {
  const {
    sampleRate,
    minSpeechMs = 250,
    endSilenceMs = 700,
    marginDb = 10,
    minLevelDb = -55,
    minSpeechBandShare = 0.38,
    maybeMs = DEFAULT_MAYBE_MS,
  } = options;
  // The speech band, 300–3,400 Hz (the telephone band): carried across frames, so a frame
  // boundary is not a step.
  const highPass = biquad('highpass', 300, sampleRate);
  const lowPass = biquad('lowpass', 3_400, sampleRate);

  let floorDb = INITIAL_FLOOR_DB;
  let run = 0;
  let voiced = 0;
  let gap = 0;
  let maybe = false;
  let speaking = false;
  let silenceMs = 0;
  let last: FrameAnalysis | null = null;
  /** Follows the background: down at once to a quieter frame, up slowly. */
  function updateFloor(levelDb: number, frameSeconds: number): void {
    if (levelDb < floorDb) floorDb = levelDb;
    else floorDb += FLOOR_RISE_DB_PER_SECOND * frameSeconds;
  }

  function classify(levelDb: number, speechBandShare: number): FrameAnalysis {
    const loud = levelDb > Math.max(minLevelDb, floorDb + marginDb);
    return { levelDb, speechBandShare, loud, speech: loud && speechBandShare >= minSpeechBandShare };
  }

  function analyse(frame: Float32Array): FrameAnalysis {
    let total = 0;
    let band = 0;
    for (const sample of frame) {
      total += sample * sample;
      const inBand = lowPass(highPass(sample));
      band += inBand * inBand;
    }
    const rms = Math.sqrt(total / Math.max(1, frame.length));
    const levelDb = toDb(rms);
    const speechBandShare = total > 0 ? band / total : 0;
    updateFloor(levelDb, frame.length / sampleRate);
    return classify(levelDb, speechBandShare);
  }

  function step(analysis: FrameAnalysis, ms: number): VoiceActivityEvent[] {
    last = analysis;
    const events: VoiceActivityEvent[] = [];
    // Fricatives and plosives ("sch", "t") carry their energy above the speech band: loud frames
    // count as speech once voiced speech has begun, never on their own (hiss, a cough).
    const continues = analysis.loud && voiced >= MIN_VOICED_MS;
    if (analysis.speech || continues) {
      run += ms;
      if (analysis.speech) voiced += ms;
      gap = 0;
      silenceMs = 0;
      if (!speaking && run >= minSpeechMs) {
        speaking = true;
        maybe = false;
        events.push('speech-start');
      } else if (!speaking && !maybe && run >= maybeMs && voiced >= MIN_VOICED_MS) {
        maybe = true;
        events.push('speech-maybe');
      }
    } else {
      gap += ms;
      silenceMs += ms;
      if (gap > GAP_TOLERANCE_MS) {
        run = 0;
        voiced = 0;
        if (maybe) {
          maybe = false;
          events.push('speech-dropped');
        }
      }
      if (speaking && silenceMs >= endSilenceMs) {
        speaking = false;
        run = 0;
        voiced = 0;
        events.push('speech-end');
      }
    }
    return events;
  }

  return {
    push(frame) {
      return step(analyse(frame), (frame.length / sampleRate) * 1000);
    },
    pushLevels({ rms, floorRms, speechBandShare, samples }) {
      const frameSeconds = samples / sampleRate;
      updateFloor(toDb(floorRms), frameSeconds);
      return step(classify(toDb(rms), speechBandShare), frameSeconds * 1000);
    },
    get speaking() {
      return speaking;
    },
    get silenceMs() {
      return silenceMs;
    },
    get runMs() {
      return run;
    },
    get last() {
      return last;
    },
    reset() {
      run = 0;
      voiced = 0;
      gap = 0;
      maybe = false;
      speaking = false;
      silenceMs = 0;
    },
  };
}
