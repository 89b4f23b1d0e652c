/**
 * The coach hears itself: with loud speakers, a weak echo canceller or a headset that leaks, the
 * coach's own voice comes back through the microphone, tens of milliseconds late. This module
 * decides, frame by frame, how much of what the microphone hears is the visitor: it compares the
 * microphone with what the page itself just played (the reference, taken from the page's output,
 * sample-aligned with the microphone in the same audio graph) and takes out, band by band, the
 * energy the coach's echo can explain. What remains goes to the voice activity detector.
 *
 * - Bands: the energy of each 20 ms frame in 13 frequency bands (src/lib/spectrum.ts). A visitor
 *   speaking over the coach is heard in the bands and moments the coach's voice leaves free.
 * - Delay: the echo's lag is found by correlating the loudness of the microphone with the loudness
 *   of the reference over the last 1.5 s (0–300 ms); until it is known, the loudest reference of
 *   the whole 300 ms window is assumed to be the echo's source.
 * - Coupling: how loud the echo is relative to what was played, per band. It starts at the loudest
 *   the product supports (0 dB: the echo as loud as the playback itself). After 30 frames in which
 *   a band clearly plays, counted once the page has played for longer than the longest lag (so an
 *   echo has arrived whatever its lag), it drops at once to twice the highest ratio of microphone to
 *   reference seen in them: with the lag unknown the reference is the loudest of the window, so a
 *   ratio is never above the real coupling, and it reaches it at the peaks of the coach's
 *   syllables. From then on it follows the 90th percentile of the measured ratios. A prediction has
 *   a 3 dB margin.
 * - Double talk: a frame louder than the predicted echo is the visitor's, and nothing is learnt
 *   from it (before those 30 frames: louder than the worst case). So a visitor speaking over the
 *   coach does not teach the decision a louder echo and deafen it to the next interruption.
 *   A visitor who starts within the first second of the coach's first words keeps the worst case
 *   in place while they speak, and is heard only where their voice is louder than it.
 * - A false start (the coach was held because of something that was not the visitor) raises the
 *   expected echo by 6 dB at once (`raise()`): the same echo does not hold the coach again.
 *
 * Pure (no audio APIs): tested with synthetic PCM.
 */
import { createBandAnalyser, type BandAnalyser } from '../../../lib/spectrum';
import type { FrameLevels } from '../../../lib/voiceActivity';

/** Band edges (Hz); the last band ends at the Nyquist frequency. */
const EDGES = [0, 150, 300, 450, 650, 900, 1_200, 1_600, 2_100, 2_700, 3_400, 4_500, 6_000];
/** The bands inside the speech band (300–3,400 Hz). */
const SPEECH_BANDS = { from: 2, to: 10 };
/** The longest echo lag looked for, in frames of 20 ms (300 ms: Bluetooth headsets are that late). */
const MAX_LAG = 15;
/** Frames of loudness history the lag is estimated from (1.5 s). */
const DELAY_WINDOW = 75;
/** The lag is looked for again every this many frames. */
const DELAY_EVERY = 10;
/** A lag counts as found when the loudness curves correlate at least this well. */
const DELAY_CONFIDENCE = 0.6;
/** The worst coupling the product supports (energy ratio; 1 = 0 dB). */
const MAX_COUPLING = 1;
/** The lowest coupling it may learn (−40 dB). */
const MIN_COUPLING = 1e-4;
/** The echo predicted is this much above the coupling's estimate (energy; 2 = 3 dB). */
const MARGIN = 2;
/** A false start multiplies the coupling by this (energy; 4 = 6 dB), up to 4 × the worst case. */
const RAISE = 4;
/** Step of the coupling's 90th-percentile tracker (per frame, in the log domain). */
const LEARN_STEP = 0.05;
/** Frames of clear playback per band after which the worst case gives way to what was measured. */
const SETTLE_FRAMES = 30;
/**
 * The coupling first learnt is the highest ratio of those frames times this (energy; 2 = 3 dB): a
 * ratio reaches the real coupling only where the echo's source was the loudest of the window.
 */
const SETTLE_SAFETY = 2;
/** A reference band within 20 dB of the loudest band played lately is "clearly playing". */
const STRONG_BAND = 0.01;
/** How fast the memory of the loudest band played fades (per frame; about −1 dB a second). */
const PEAK_FADE = 0.995;

export interface EchoDecision {
  /**
   * Analyses one microphone frame with the reference frame played at the same moment (null when
   * the page plays nothing through its output). Returns the levels for the voice activity detector
   * with the coach's echo taken out, or null when nothing was played in the last 300 ms (the
   * microphone is then the visitor's alone and the detector measures it itself).
   */
  push(microphone: Float32Array, reference: Float32Array | null): FrameLevels | null;
  /** A false start: expect the echo 6 dB louder from now on. */
  raise(): void;
  /** The echo's lag in frames of 20 ms, once found. */
  readonly delayFrames: number | null;
  /** The coupling per band (energy ratio). */
  readonly coupling: readonly number[];
}

function correlation(a: readonly number[], b: readonly number[]): number {
  const count = a.length;
  if (count < 10) return 0;
  let meanA = 0;
  let meanB = 0;
  for (let index = 0; index < count; index += 1) {
    meanA += a[index] ?? 0;
    meanB += b[index] ?? 0;
  }
  meanA /= count;
  meanB /= count;
  let cov = 0;
  let varA = 0;
  let varB = 0;
  for (let index = 0; index < count; index += 1) {
    const da = (a[index] ?? 0) - meanA;
    const db = (b[index] ?? 0) - meanB;
    cov += da * db;
    varA += da * da;
    varB += db * db;
  }
  return varA > 0 && varB > 0 ? cov / Math.sqrt(varA * varB) : 0;
}

const logEnergy = (bands: Float64Array) => Math.log10(bands.reduce((sum, value) => sum + value, 0) + 1e-12);

export function createEchoDecision({ sampleRate, frameLength }: { sampleRate: number; frameLength: number }): EchoDecision {
  const analyser: BandAnalyser = createBandAnalyser(sampleRate, frameLength, [...EDGES, sampleRate / 2]);
  const bandCount = EDGES.length;
  const coupling = new Array<number>(bandCount).fill(MAX_COUPLING);
  /** Reference band energies of the last MAX_LAG + 2 frames, newest last. */
  const references: Float64Array[] = [];
  /** Log loudness of microphone and reference frames, newest last (for the lag). */
  const micLoudness: number[] = [];
  const refLoudness: number[] = [];
  let delay: number | null = null;
  let frames = 0;
  /** Frames since the page first played something. */
  let playedFrames = 0;
  /** Per band: frames of clear playback seen, and the highest echo ratio among them. */
  const strongFrames = new Array<number>(bandCount).fill(0);
  const settleRatio = new Array<number>(bandCount).fill(0);
  /** The loudest reference band of the last seconds: the measure of "clearly playing". */
  let loudestBand = 0;

  /**
   * Learns from one band of one frame in which the coach clearly plays: first from the highest
   * ratio of SETTLE_FRAMES frames, then the 90th percentile of the ratios (up by nine steps when a
   * ratio is above it, down by one when below). Ratios the decision attributes to the visitor are
   * not learnt. It never learns above the worst case (only a false start raises it further).
   */
  function learn(band: number, ratio: number): void {
    const current = coupling[band] ?? MAX_COUPLING;
    const settled = (strongFrames[band] ?? 0) >= SETTLE_FRAMES;
    if (ratio > (settled ? MARGIN : 1) * current) return;
    // The first frames of playback may come before an echo of the longest lag has arrived.
    if (!settled && playedFrames <= MAX_LAG) return;
    const seen = (strongFrames[band] ?? 0) + 1;
    strongFrames[band] = seen;
    settleRatio[band] = Math.max(settleRatio[band] ?? 0, ratio);
    if (seen === SETTLE_FRAMES) {
      coupling[band] = Math.max(MIN_COUPLING, Math.min(current, SETTLE_SAFETY * (settleRatio[band] ?? current)));
      return;
    }
    const next = current * Math.exp(ratio > current ? 0.9 * LEARN_STEP : -0.1 * LEARN_STEP);
    coupling[band] = Math.max(MIN_COUPLING, Math.min(next, Math.max(current, MAX_COUPLING)));
  }

  function estimateDelay(): void {
    if (micLoudness.length < DELAY_WINDOW) return;
    let best = { lag: -1, score: DELAY_CONFIDENCE };
    const mic = micLoudness.slice(-DELAY_WINDOW + MAX_LAG);
    for (let lag = 0; lag <= MAX_LAG; lag += 1) {
      const end = refLoudness.length - lag;
      const ref = refLoudness.slice(end - mic.length, end);
      const score = correlation(mic, ref);
      if (score > best.score) best = { lag, score };
    }
    if (best.lag >= 0) delay = best.lag;
  }

  /** The loudest reference energy per band over the lags that may hold the echo's source. */
  function predictedSource(lags: { from: number; to: number }): Float64Array {
    const source = new Float64Array(bandCount);
    for (let lag = lags.from; lag <= lags.to; lag += 1) {
      const frame = references[references.length - 1 - lag];
      if (!frame) continue;
      for (let band = 0; band < bandCount; band += 1) source[band] = Math.max(source[band] ?? 0, frame[band] ?? 0);
    }
    return source;
  }

  return {
    push(microphone, reference) {
      frames += 1;
      const mic = analyser.analyse(microphone);
      const ref = reference ? analyser.analyse(reference) : new Float64Array(bandCount);
      references.push(ref);
      if (references.length > MAX_LAG + 2) references.shift();
      micLoudness.push(logEnergy(mic));
      refLoudness.push(logEnergy(ref));
      if (micLoudness.length > DELAY_WINDOW + MAX_LAG) {
        micLoudness.shift();
        refLoudness.shift();
      }
      const anythingPlayed = references.some((frame) => frame.some((value) => value > 0));
      const micTotal = mic.reduce((sum, value) => sum + value, 0);
      if (!anythingPlayed) return null;
      playedFrames += 1;
      if (frames % DELAY_EVERY === 0) estimateDelay();

      const lags = delay === null ? { from: 0, to: MAX_LAG } : { from: Math.max(0, delay - 1), to: Math.min(MAX_LAG, delay + 1) };
      const source = predictedSource(lags);
      // With the lag known, the coupling is learnt from the frame at the lag (or its neighbour);
      // before, from the loudest of the window, which can only make it lower than it is (a little,
      // and only while it still starts from the worst case).
      const basis = delay === null ? source : predictedSource({ from: delay, to: Math.min(MAX_LAG, delay + 1) });
      loudestBand = Math.max(loudestBand * PEAK_FADE, ...ref);
      let residual = 0;
      let residualSpeech = 0;
      for (let band = 0; band < bandCount; band += 1) {
        const heard = mic[band] ?? 0;
        const played = source[band] ?? 0;
        const basisPlayed = basis[band] ?? 0;
        // Only bands where the coach is clearly playing say something about the coupling.
        if (basisPlayed > 0 && basisPlayed >= loudestBand * STRONG_BAND) learn(band, heard / basisPlayed);
        const echo = MARGIN * (coupling[band] ?? MAX_COUPLING) * played;
        const left = Math.max(0, heard - echo);
        residual += left;
        if (band >= SPEECH_BANDS.from && band < SPEECH_BANDS.to) residualSpeech += left;
      }
      let energy = 0;
      for (const sample of microphone) energy += sample * sample;
      const micRms = Math.sqrt(energy / Math.max(1, microphone.length));
      const share = micTotal > 0 ? residual / micTotal : 0;
      return {
        rms: micRms * Math.sqrt(share),
        floorRms: micRms,
        speechBandShare: residual > 0 ? residualSpeech / residual : 0,
        samples: microphone.length,
      };
    },
    raise() {
      for (let band = 0; band < bandCount; band += 1) coupling[band] = Math.min(MAX_COUPLING * RAISE, (coupling[band] ?? MAX_COUPLING) * RAISE);
    },
    get delayFrames() {
      return delay;
    },
    get coupling() {
      return [...coupling];
    },
  };
}
